import Responder
import TactileABI

/// The core's decisions, handed to the embedder's callbacks as they are made.
///
/// Lives only for one call into the core, which the router outlives: it holds the router
/// unmanaged, and the callbacks copied, so that handing on a decision costs no reference
/// counting (holding it `unowned` made a routed touch motion cost 3 times the core's time).
struct CallbackSink: DeliverySink {
    private let unmanaged: Unmanaged<Router>
    private var router: Router { unmanaged.takeUnretainedValue() }
    let events: (callback: tactile_event_fn, data: UnsafeMutableRawPointer?)?
    let isTracing: Bool
    /// Why the core refused the event, if it did: the call answers TACTILE_ERROR_IGNORED.
    var ignored: Diagnostic.Rejection?

    init(router: Router) {
        unmanaged = Unmanaged.passUnretained(router)
        events = router.events
        isTracing = router.traces != nil
    }

    mutating func report(_ diagnostic: Diagnostic) {
        if case .ignored(_, let rejection) = diagnostic { ignored = rejection }
    }

    func trace(_ event: TraceEvent) {
        guard let traces = router.traces else { return }
        for line in TraceFormatter.lines(event, naming: Naming(router: router)) {
            line.withCString { traces.callback(traces.data, $0) }
        }
    }

    func gesture(_ event: GestureEvent) {
        guard let callback = router.gestureEvents,
              let index = router.gestures.firstIndex(where: { $0.id == event.gesture }) else { return }
        let gesture = router.gestures[index]
        var out = tactile_gesture_event()
        out.gesture = tactile_gesture(index + 1)
        out.name = UnsafePointer(gesture.name)
        out.state = event.state.c
        out.time_usec = event.time.microseconds
        out.x = event.detail.location.x
        out.y = event.detail.location.y
        out.dx = event.detail.translation.x
        out.dy = event.detail.translation.y
        out.scale = event.detail.scale
        out.count = Int32(clamping: event.detail.count)
        out.command = UnsafePointer(gesture.command)
        out.when = UnsafePointer(gesture.when)
        callback.callback(callback.data, &out)
    }

    /// Each case names its own client: `Delivery.client`, a switch of its own in another
    /// module, was a call more for every decision.
    func deliver(_ delivery: Delivery) {
        guard let events else { return }
        var e = tactile_event()
        switch delivery {
        case .touchDown(let client, let surface, let id, let local, let time):
            fill(&e, TACTILE_EVENT_TOUCH_DOWN, client, surface, local, time)
            e.touch_id = id
        case .touchMotion(let client, let surface, let id, let local, let time):
            fill(&e, TACTILE_EVENT_TOUCH_MOTION, client, surface, local, time)
            e.touch_id = id
        case .touchUp(let client, let id, let time):
            fill(&e, TACTILE_EVENT_TOUCH_UP, client, time)
            e.touch_id = id
        case .touchFrame(let client): fill(&e, TACTILE_EVENT_TOUCH_FRAME, client)
        case .touchCancel(let client): fill(&e, TACTILE_EVENT_TOUCH_CANCEL, client)
        case .pointerEnter(let client, let surface, let local): fill(&e, TACTILE_EVENT_POINTER_ENTER, client, surface, local, nil)
        case .pointerLeave(let client, let surface): fill(&e, TACTILE_EVENT_POINTER_LEAVE, client, surface, nil, nil)
        case .pointerMotion(let client, let surface, let local, let time): fill(&e, TACTILE_EVENT_POINTER_MOTION, client, surface, local, time)
        case .pointerButton(let client, let button, let state, let time):
            fill(&e, TACTILE_EVENT_POINTER_BUTTON, client, time)
            e.code = button
            e.pressed = state == .pressed ? 1 : 0
        case .pointerAxis(let client, let motion, let time):
            fill(&e, TACTILE_EVENT_POINTER_AXIS, client, time)
            e.axis = tactile_axis(motion)
        case .pointerFrame(let client): fill(&e, TACTILE_EVENT_POINTER_FRAME, client)
        case .keyboardEnter(let client, let surface, let pressed):
            fill(&e, TACTILE_EVENT_KEYBOARD_ENTER, client, surface, nil, nil)
            // The only event with keys; the others build no array (even an empty one is
            // retained, for every event).
            return pressed.withUnsafeBufferPointer { buffer in
                e.keys = buffer.isEmpty ? nil : buffer.baseAddress
                e.key_count = buffer.count
                events.callback(events.data, &e)
            }
        case .keyboardLeave(let client, let surface): fill(&e, TACTILE_EVENT_KEYBOARD_LEAVE, client, surface, nil, nil)
        case .key(let client, let key, let state, let time):
            fill(&e, TACTILE_EVENT_KEY, client, time)
            e.code = key
            e.pressed = state == .pressed ? 1 : 0
        // Touchpad gestures, pens and pads have no C face yet: the library takes no such input.
        case .touchpadGestureBegin, .touchpadGestureUpdate, .touchpadGestureEnd, .penProximityIn, .penProximityOut, .penDown, .penUp,
             .penMotion, .penButton, .penFrame, .pad:
            return
        }
        events.callback(events.data, &e)
    }

    @inline(__always)
    private func fill(_ e: inout tactile_event, _ type: tactile_event_type, _ client: ClientID, _ time: Instant? = nil) {
        e.type = type
        e.client = client.rawValue
        e.time_usec = time?.microseconds ?? 0
    }

    @inline(__always)
    private func fill(_ e: inout tactile_event, _ type: tactile_event_type, _ client: ClientID, _ surface: NodeID, _ local: Point?, _ time: Instant?) {
        fill(&e, type, client, time)
        e.surface = surface.handle
        e.surface_data = unmanaged._withUnsafeGuaranteedRef { $0.userData(of: surface) }
        e.x = local?.x ?? 0
        e.y = local?.y ?? 0
    }
}

/// How trace lines name what they mention: nodes by handle, clients by number, gestures by
/// the name they were given.
struct Naming: TraceNaming {
    let router: Router
    func name(_ node: NodeID) -> String { "node \(node.handle)" }
    func name(_ client: ClientID) -> String { "client \(client.rawValue)" }
    func name(_ gesture: GestureID) -> String {
        router.gestures.first { $0.id == gesture }.map { String(cString: $0.name) } ?? "\(gesture)"
    }
    func place(_ global: Point) -> String { "\(global)" }
}

extension GestureState {
    var c: tactile_gesture_state {
        switch self {
        case .possible: TACTILE_GESTURE_POSSIBLE
        case .began: TACTILE_GESTURE_BEGAN
        case .changed: TACTILE_GESTURE_CHANGED
        case .ended: TACTILE_GESTURE_ENDED
        case .cancelled: TACTILE_GESTURE_CANCELLED
        case .failed: TACTILE_GESTURE_FAILED
        case .recognized: TACTILE_GESTURE_RECOGNIZED
        }
    }
}

extension tactile_axis {
    init(_ motion: AxisMotion) {
        self.init()
        source = switch motion.source {
        case .wheel: TACTILE_AXIS_SOURCE_WHEEL
        case .finger: TACTILE_AXIS_SOURCE_FINGER
        case .continuous: TACTILE_AXIS_SOURCE_CONTINUOUS
        case .wheelTilt: TACTILE_AXIS_SOURCE_WHEEL_TILT
        }
        horizontal = motion.horizontal
        vertical = motion.vertical
        horizontal_value120 = motion.horizontalValue120
        vertical_value120 = motion.verticalValue120
        stop_horizontal = motion.stops.contains(.horizontal) ? 1 : 0
        stop_vertical = motion.stops.contains(.vertical) ? 1 : 0
    }
}
