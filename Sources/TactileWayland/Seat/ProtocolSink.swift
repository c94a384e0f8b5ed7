import Logging
import Responder

/// The core's decisions for one routing step, written through the seat. It only writes,
/// and notes what the server acts on once the step is over (`WaylandServer.route`): the
/// client last pressed on, and what the gesture recognizers did.
struct ProtocolSink: DeliverySink {
    let seat: Seat
    let pointerGestures: PointerGestures
    let tablets: Tablets
    let surfaces: SurfaceIndex
    let logger: Logger
    /// The client a press (touch down, button) last went to in this step.
    private(set) var pressed: ClientID?
    private(set) var gestureEvents: [GestureEvent] = []
    /// wl_touch.cancel sent in this step, one for each client whose touches were taken.
    private(set) var touchesCancelled = 0
    /// Set when someone reads the trace (`Tracer.isOn`); the core then explains itself.
    let isTracing: Bool
    /// The step's decisions in the order made, formatted once the step is over (naming them
    /// reads the scene, which the core holds during the step).
    private(set) var traced: [Traced] = []

    enum Traced {
        case core(TraceEvent)
        case gesture(GestureEvent)
    }

    init(seat: Seat, pointerGestures: PointerGestures, tablets: Tablets, surfaces: SurfaceIndex, logger: Logger, tracing: Bool) {
        self.seat = seat
        self.pointerGestures = pointerGestures
        self.tablets = tablets
        self.surfaces = surfaces
        self.logger = logger
        isTracing = tracing
    }

    /// The client's next new buffer answers this touch at the latest (`TouchShown.app`).
    private func touchSent(to client: SeatClient, at time: Instant) {
        guard let state = ClientState.of(client.client) else { return }
        if state.touchUnansweredSince.map({ time < $0 }) ?? true { state.touchUnansweredSince = time }
        state.touchSentAt = time
    }

    mutating func deliver(_ delivery: Delivery) {
        guard let client = seat.clients[delivery.client] else { return }
        switch delivery {
        case .touchDown(_, let node, let id, let local, let time):
            guard let surface = surface(node) else { return }
            seat.touchDown(client, surface: surface, id: id, at: local, time: time)
            pressed = client.id
            touchSent(to: client, at: time)
        case .touchMotion(_, _, let id, let local, let time):
            seat.touchMotion(client, id: id, to: local, time: time)
            touchSent(to: client, at: time)
        case .touchUp(_, let id, let time): seat.touchUp(client, id: id, time: time)
        case .touchFrame: seat.touchFrame(client)
        case .touchCancel:
            seat.touchCancel(client)
            touchesCancelled += 1
        case .pointerEnter(_, let node, let local):
            guard let surface = surface(node) else { return }
            seat.pointerEnter(client, surface: surface, at: local)
        case .pointerLeave(_, let node):
            guard let surface = surface(node) else { return }
            seat.pointerLeave(client, surface: surface)
        case .pointerMotion(_, _, let local, let time): seat.pointerMotion(client, to: local, time: time)
        case .pointerButton(_, let button, let state, let time):
            seat.pointerButton(client, button, state, time: time)
            if state == .pressed { pressed = client.id }
        case .pointerAxis(_, let motion, let time): seat.pointerAxis(client, motion, time: time)
        case .pointerFrame: seat.pointerFrame(client)
        case .keyboardEnter(_, let node, let keys):
            guard let surface = surface(node) else { return }
            seat.keyboardEnter(client, surface: surface, keys: keys)
        case .keyboardLeave(_, let node):
            guard let surface = surface(node) else { return }
            seat.keyboardLeave(client, surface: surface)
        case .key(_, let key, let state, let time): seat.key(client, key, state, time: time)
        case .touchpadGestureBegin(_, let node, let kind, let fingers, let time):
            guard let surface = surface(node) else { return }
            pointerGestures.touchpadGestureBegin(client, kind, surface: surface, fingers: fingers, time: time)
        case .touchpadGestureUpdate(_, let kind, let delta, let scale, let rotation, let time):
            pointerGestures.touchpadGestureUpdate(client, kind, delta: delta, scale: scale, rotation: rotation, time: time)
        case .touchpadGestureEnd(_, let kind, let cancelled, let time): pointerGestures.touchpadGestureEnd(client, kind, cancelled: cancelled, time: time)
        case .penProximityIn(_, let node, let pen, let local, let axes, _):
            guard let surface = surface(node) else { return }
            tablets.proximityIn(client, pen: pen, surface: surface, local: local, axes: axes)
        case .penProximityOut(_, let pen, _): tablets.proximityOut(client, pen: pen)
        case .penDown(_, let pen, _):
            tablets.down(client, pen: pen)
            pressed = client.id
        case .penUp(_, let pen, _): tablets.up(client, pen: pen)
        case .penMotion(_, let pen, let local, let axes, _): tablets.motion(client, pen: pen, local: local, axes: axes)
        case .penButton(_, let pen, let button, let state, _): tablets.button(client, pen: pen, button: button, state: state)
        case .penFrame(_, let pen, let time): tablets.frame(client, pen: pen, time: time)
        case .pad(_, let node, let pad, let action, let time):
            guard let surface = surface(node) else { return }
            tablets.pad(client, pad: pad, surface: node, surface, action, time: time) { self.surface($0) }
        }
    }

    private func surface(_ node: NodeID) -> OpaquePointer? { surfaces.surface(at: node)?.resource }

    mutating func gesture(_ event: GestureEvent) {
        gestureEvents.append(event)
        if isTracing { traced.append(.gesture(event)) }
    }

    mutating func trace(_ event: TraceEvent) {
        traced.append(.core(event))
    }

    /// Refused input and dropped touches, as log lines; nothing reaches a client.
    mutating func report(_ diagnostic: Diagnostic) {
        switch diagnostic {
        case .ignored(let event, let reason): logger.warning("ignored \(event): \(reason)")
        case .touchDropped(let id, let reason): logger.debug("touch \(id) goes to nobody: \(reason)")
        case .touchEmulatesPointer(let id, let client): logger.debug("touch \(id) drives the pointer of \(client), which has no wl_touch")
        case .penEmulatesPointer(let pen): logger.debug("pen \(pen) drives the pointer: its tip is the left button")
        }
    }
}
