import CWaylandServer
import Responder
import WaylandProtocols

/// zwlr_virtual_pointer_v1: a client that moves, clicks and scrolls (remote control, a test
/// driver). What it sends between two `frame` requests is held, then routed like a real
/// pointer's input, in the order a device reports it: motion, buttons, scroll. Times are the
/// server's: a client's clock could run backwards.
final class VirtualPointer: ResourceObject {
    static let version: Int32 = 2

    private unowned(unsafe) let part: VirtualPointers
    /// The output absolute motion is relative to (create_virtual_pointer_with_output); nil:
    /// the whole layout.
    private let output: OutputID?
    /// The seat it was created on: the seat, or a transient one (`TransientSeats`).
    private let seat: TransientSeats.Choice
    private var motion: Point?
    private var absolute: Point?
    private var buttons: [(UInt32, PressState)] = []
    private var axis = AxisMotion(source: .wheel)
    private var hasAxis = false

    init(part: VirtualPointers, output: OutputID?, seat: TransientSeats.Choice) {
        self.part = part
        self.output = output
        self.seat = seat
        if case .transient(let transient) = seat { transient.pointerCount(+1) }
    }

    /// Where `x`/`extent` of the way across (and down) the output, or the layout, lies.
    /// A zero extent says nothing: the motion is dropped.
    private func moveAbsolute(_ x: UInt32, _ y: UInt32, _ width: UInt32, _ height: UInt32) {
        guard width > 0, height > 0 else { return }
        let area = output.flatMap { id in part.outputs.layout.first { $0.id == id }?.rect }
            ?? Rect(origin: .zero, size: part.outputs.extent)
        absolute = Point(x: Double(area.x) + Double(area.width) * Double(min(x, width)) / Double(width),
                         y: Double(area.y) + Double(area.height) * Double(min(y, height)) / Double(height))
        motion = nil
    }

    private func moveBy(_ dx: wl_fixed_t, _ dy: wl_fixed_t) {
        let (x, y) = (wl_fixed_to_double(dx), wl_fixed_to_double(dy))
        let sum = motion ?? Point(x: 0, y: 0)
        motion = Point(x: sum.x + x, y: sum.y + y)
    }

    private func scroll(_ axisValue: UInt32, _ value: wl_fixed_t, discrete: Int32?) {
        let amount = wl_fixed_to_double(value)
        let clicks = discrete.map { Int32(clamping: Int($0) * 120) } ?? 0
        switch axisValue {
        case WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue:
            axis.vertical += amount
            axis.verticalValue120 = axis.verticalValue120 &+ clicks
        case WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue:
            axis.horizontal += amount
            axis.horizontalValue120 = axis.horizontalValue120 &+ clicks
        default: return postError(ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "\(axisValue) is not a wl_pointer.axis")
        }
        hasAxis = true
    }

    private func stop(_ axisValue: UInt32) {
        switch axisValue {
        case WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue: axis.stops.insert(.vertical)
        case WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue: axis.stops.insert(.horizontal)
        default: return postError(ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "\(axisValue) is not a wl_pointer.axis")
        }
        hasAxis = true
    }

    private func setSource(_ value: UInt32) {
        let sources: [UInt32: AxisMotion.Source] = [
            WL_POINTER_AXIS_SOURCE_WHEEL.rawValue: .wheel, WL_POINTER_AXIS_SOURCE_FINGER.rawValue: .finger,
            WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: .continuous, WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: .wheelTilt,
        ]
        guard let source = sources[value] else { return postError(ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE.rawValue, "\(value) is not a wl_pointer.axis_source") }
        axis.source = source
    }

    /// Routes what the frame holds. A relative move starts from where the pointer is (the
    /// layout's origin before it has been anywhere) and stays inside the layout. On the seat,
    /// over a touch-only app the left button also touches (`VirtualPointers.remoteTouch`);
    /// a transient seat's pointer drives that seat alone.
    private func frame() {
        defer { (motion, absolute, buttons, axis, hasAxis) = (nil, nil, [], AxisMotion(source: .wheel), false) }
        let context = part.context
        let route: (InputEvent) -> Void
        let position: Point?
        let onSeat: Bool
        switch seat {
        case .main:
            route = { context.handle($0) }
            position = context.focus.pointerPosition
            onSeat = true
        case .transient(let transient) where !transient.hasEnded:
            route = { transient.handle($0) }
            position = transient.pointerPosition
            onSeat = false
        case .transient, .ended: return
        }
        let time = context.currentTime
        let extent = part.outputs.extent
        var target = absolute
        if let motion {
            let from = position ?? Point(x: 0, y: 0)
            target = Point(x: from.x + motion.x, y: from.y + motion.y)
        }
        if let target, extent.width > 0, extent.height > 0 {
            let clamped = Point(x: min(max(target.x, 0), Double(extent.width) - 1), y: min(max(target.y, 0), Double(extent.height) - 1))
            route(.pointerMotion(global: clamped, time: time))
            if onSeat { part.remoteMoved(by: self, to: clamped, time: time) }
        }
        for (button, state) in buttons {
            if onSeat, button == VirtualPointers.leftButton { part.remoteLeftButton(state, by: self, time: time) }
            route(.pointerButton(button: button, state: state, time: time))
        }
        if hasAxis { route(.pointerAxis(axis, time: time)) }
        if onSeat, target != nil || !buttons.isEmpty || hasAxis { part.inUse() }
    }

    override func resourceDestroyed() {
        part.pointerGone(self)
        if case .transient(let transient) = seat { transient.pointerCount(-1) }
    }

    static let requests = RequestTable(zwlr_virtual_pointer_v1_interface(
        motion: { _, r, _, dx, dy in VirtualPointer.from(r)?.moveBy(dx, dy) },
        motion_absolute: { _, r, _, x, y, width, height in VirtualPointer.from(r)?.moveAbsolute(x, y, width, height) },
        button: { _, r, _, button, state in
            guard let pointer = VirtualPointer.from(r) else { return }
            // A frame ends a batch; one that never comes must not let the batch grow.
            guard pointer.buttons.count < 256 else {
                return pointer.postLimitError("zwlr_virtual_pointer_v1: more than 256 buttons without a frame")
            }
            pointer.buttons.append((button, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue ? .pressed : .released))
        },
        axis: { _, r, _, axis, value in VirtualPointer.from(r)?.scroll(axis, value, discrete: nil) },
        frame: { _, r in VirtualPointer.from(r)?.frame() },
        axis_source: { _, r, source in VirtualPointer.from(r)?.setSource(source) },
        axis_stop: { _, r, _, axis in VirtualPointer.from(r)?.stop(axis) },
        axis_discrete: { _, r, _, axis, value, discrete in VirtualPointer.from(r)?.scroll(axis, value, discrete: discrete) },
        destroy: destroyResource
    ))
}

/// zwlr_virtual_pointer_manager_v1: pointers clients drive (remote input, test tools).
///
/// A remote helper (wayvnc) drives one, usually on a touch kiosk whose app listens only to
/// touch. So where the pointer is over a client that has wl_touch and no wl_pointer, its
/// left button is a finger: pressed, it touches down there (`remoteTouchID`), moved, the
/// touch follows, released, it lifts. It never takes a touch a local finger owns: no remote
/// touch starts while a finger is on the glass, and one comes up before a local finger goes
/// down. While a virtual pointer is in use (an event in the last 30 s) its cursor is drawn,
/// whatever the cursor policy.
final class VirtualPointers: ServerPart {
    unowned(unsafe) let context: any PartContext
    let outputs: Outputs
    private let seat: Seat
    private let transientSeats: TransientSeats
    private var global: Global?
    /// The remote touch, and the virtual pointer whose button holds it.
    private var remoteTouch: (pointer: ObjectIdentifier, at: Point)?
    /// Local fingers on the glass (every touch but the remote one).
    private var localTouches: Set<Int32> = []
    private var idle: EventSource?

    static let leftButton: UInt32 = 0x110
    /// The id a remote touch has; libinput's slots and a test script's ids stay far below it.
    static let remoteTouchID: Int32 = 0x7F00_0000
    static let inUseFor: Int32 = 30_000

    init(display: OpaquePointer, context: any PartContext, outputs: Outputs, seat: Seat, transientSeats: TransientSeats) {
        self.context = context
        self.outputs = outputs
        self.seat = seat
        self.transientSeats = transientSeats
        global = Global(display: display, interface: tactile_zwlr_virtual_pointer_manager_v1_interface(), version: VirtualPointer.version,
                        context: self, requests: Self.requests, privilege: .inputInjection)
        idle = EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in self.seat.remoteCursor = false }
    }

    func stop() {
        idle = nil
    }

    /// A virtual pointer moved, clicked or scrolled: its cursor shows for a while.
    func inUse() {
        seat.remoteCursor = true
        idle?.arm(milliseconds: Self.inUseFor)
    }

    /// Every input event the server routes: local fingers are counted, and a remote touch
    /// comes up before a local finger goes down.
    func sees(_ event: InputEvent) {
        switch event {
        case .touchDown(let id, _, let time) where id != Self.remoteTouchID:
            if remoteTouch != nil { endRemoteTouch(time: time) }
            localTouches.insert(id)
        case .touchUp(let id, _) where id != Self.remoteTouchID, .touchCancel(let id, _) where id != Self.remoteTouchID:
            localTouches.remove(id)
        default: break
        }
    }

    fileprivate func remoteLeftButton(_ state: PressState, by pointer: VirtualPointer, time: Instant) {
        switch state {
        case .pressed:
            guard remoteTouch == nil, localTouches.isEmpty, let at = context.focus.pointerPosition, touchOnlyClient(under: context.focus.pointer) else { return }
            remoteTouch = (ObjectIdentifier(pointer), at)
            context.handle(.touchDown(id: Self.remoteTouchID, global: at, time: time))
            context.handle(.touchFrame)
        case .released:
            if remoteTouch?.pointer == ObjectIdentifier(pointer) { endRemoteTouch(time: time) }
        }
    }

    fileprivate func remoteMoved(by pointer: VirtualPointer, to point: Point, time: Instant) {
        guard remoteTouch?.pointer == ObjectIdentifier(pointer) else { return }
        remoteTouch?.at = point
        context.handle(.touchMotion(id: Self.remoteTouchID, global: point, time: time))
        context.handle(.touchFrame)
    }

    fileprivate func pointerGone(_ pointer: VirtualPointer) {
        if remoteTouch?.pointer == ObjectIdentifier(pointer) { endRemoteTouch(time: context.currentTime) }
    }

    private func endRemoteTouch(time: Instant) {
        guard remoteTouch != nil else { return }
        remoteTouch = nil
        context.handle(.touchUp(id: Self.remoteTouchID, time: time))
        context.handle(.touchFrame)
    }

    /// Whether the client of the surface at `node` listens to touch and not to a pointer.
    private func touchOnlyClient(under node: NodeID?) -> Bool {
        guard let node, let owner = context.surface(at: node)?.owner, let devices = seat.clients[owner.id]?.capabilities else { return false }
        return devices.contains(.touch) && !devices.contains(.pointer)
    }

    private static let requests = RequestTable(zwlr_virtual_pointer_manager_v1_interface(
        create_virtual_pointer: { client, manager, seat, id in
            guard let client, let part = Global.context(of: manager, as: VirtualPointers.self) else { return }
            VirtualPointer(part: part, output: nil, seat: part.transientSeats.choice(for: seat)).bind(client: client, interface: tactile_zwlr_virtual_pointer_v1_interface(),
                                                         version: wl_resource_get_version(manager), id: id, implementation: VirtualPointer.requests)
        },
        destroy: destroyResource,
        create_virtual_pointer_with_output: { client, manager, seat, output, id in
            guard let client, let part = Global.context(of: manager, as: VirtualPointers.self) else { return }
            let outputID = output.flatMap { Global.context(of: $0, as: Output.self)?.id }
            VirtualPointer(part: part, output: outputID, seat: part.transientSeats.choice(for: seat)).bind(client: client, interface: tactile_zwlr_virtual_pointer_v1_interface(),
                                                              version: wl_resource_get_version(manager), id: id, implementation: VirtualPointer.requests)
        }
    ))
}
