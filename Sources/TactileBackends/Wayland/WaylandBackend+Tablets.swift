import CWaylandClient
import Responder
import TactileWayland
import WaylandProtocols

/// The parent's tablet seat (zwp_tablet_manager_v2), where it offers one: its tablets and
/// tools as the parent described them, and what each tool's frame being assembled holds.
struct ParentTablets {
    var manager: OpaquePointer?
    var seat: OpaquePointer?
    var tablets: [OpaquePointer: TabletDescription] = [:]
    var tools: [OpaquePointer: ParentTool] = [:]
    var penNumbering = DeviceNumbers()

    mutating func release() {
        // Only on the way out (the connection closes next).
        for proxy in Array(tools.keys) + Array(tablets.keys) + [seat, manager].compactMap({ $0 }) { wl_proxy_destroy(proxy) }
        self = ParentTablets()
    }
}

/// One of the parent's tools: how it was described, and what its events since the last
/// frame said. Axes keep their last values, as tablet-v2 sends only changes.
struct ParentTool {
    let pen: Int32
    var kind = PenTool.Kind.pen
    var serial: UInt64 = 0
    var hardwareID: UInt64 = 0
    var senses: PenTool.Senses = []
    /// The window it is near, and the tablet it came near on.
    var output: OutputID?
    var tablet: OpaquePointer?
    var near = false
    var axes = PenAxes()
    var entering = false, leaving = false
    var position: (x: wl_fixed_t, y: wl_fixed_t)?
    /// Where the tool last was, for a frame without a position.
    var lastPoint: Point?
    var tip: Bool?
    var buttons: [(UInt32, PressState)] = []
}

/// The parent's pens reach Tactile as its own: each tool a pen, described from the parent's
/// description when it first comes near, its frames turned into Tactile's pen events over
/// the window's output as the parent's pointer is.
extension WaylandBackend {
    /// Once the parent's manager and seat are both bound.
    func startTablets() {
        guard let manager = tablets.manager, let seat = input.seat, tablets.seat == nil else { return }
        tablets.seat = zwp_tablet_manager_v2_get_tablet_seat(manager, seat)
        zwp_tablet_seat_v2_add_listener(tablets.seat, NestedListeners.tabletSeat, Unmanaged.passUnretained(self).toOpaque())
    }

    func tabletAdded(_ tablet: OpaquePointer?) {
        guard let tablet else { return }
        tablets.tablets[tablet] = TabletDescription(name: "")
        zwp_tablet_v2_add_listener(tablet, NestedListeners.tablet, Unmanaged.passUnretained(self).toOpaque())
    }

    func describeTablet(_ tablet: OpaquePointer?, _ change: (inout TabletDescription) -> Void) {
        guard let tablet, tablets.tablets[tablet] != nil else { return }
        change(&tablets.tablets[tablet]!)
    }

    func tabletRemoved(_ tablet: OpaquePointer?) {
        guard let tablet, let description = tablets.tablets.removeValue(forKey: tablet) else { return }
        for (proxy, tool) in tablets.tools where tool.tablet == tablet && tool.near { leave(proxy) }
        host.tabletRemoved(description)
        zwp_tablet_v2_destroy(tablet)
    }

    func toolAdded(_ tool: OpaquePointer?) {
        guard let tool else { return }
        tablets.tools[tool] = ParentTool(pen: tablets.penNumbering.take())
        zwp_tablet_tool_v2_add_listener(tool, NestedListeners.tool, Unmanaged.passUnretained(self).toOpaque())
    }

    func changeTool(_ tool: OpaquePointer?, _ change: (inout ParentTool) -> Void) {
        guard let tool, tablets.tools[tool] != nil else { return }
        change(&tablets.tools[tool]!)
    }

    func toolType(_ tool: OpaquePointer?, _ raw: UInt32) {
        changeTool(tool) { $0.kind = PenTool.Kind(rawValue: raw) ?? .pen }
    }

    func toolCapability(_ tool: OpaquePointer?, _ raw: UInt32) {
        changeTool(tool) { $0.senses.formUnion(PenTool.Senses(capability: raw)) }
    }

    func toolRemoved(_ tool: OpaquePointer?) {
        guard let tool, let state = tablets.tools[tool] else { return }
        if state.near { leave(tool) }
        tablets.tools[tool] = nil
        zwp_tablet_tool_v2_destroy(tool)
    }

    func toolNear(_ tool: OpaquePointer?, tablet: OpaquePointer?, surface: OpaquePointer?) {
        guard let (window, _) = window(of: surface) else { return }
        changeTool(tool) { state in
            state.output = window.output
            state.tablet = tablet
            state.entering = true
            state.leaving = false
        }
    }

    /// A tablet-v2 pressure or distance (0...65535) as Tactile's fraction.
    static func fraction(_ raw: UInt32) -> Double { Double(min(raw, 65535)) / 65535 }

    /// The frame ends what the tool's events said: Tactile hears them in tablet-v2's order.
    func toolFrame(_ tool: OpaquePointer?) {
        guard let tool, var state = tablets.tools[tool] else { return }
        let time = eventTime()
        let placed = placed(state.output)
        let point = placed.flatMap { placed in state.position.map { global($0.x, $0.y, on: placed) } }
        if state.entering, let point {
            let description = state.tablet.flatMap { tablets.tablets[$0] } ?? TabletDescription(name: "tablet")
            host.describePen(state.pen, as: PenTool(kind: state.kind, serial: state.serial, hardwareID: state.hardwareID, senses: state.senses,
                                                    tablet: description))
            host.handle(.penProximity(pen: state.pen, entering: true, global: point, axes: state.axes, time: time))
            state.near = true
        }
        // A frame without a position (only pressure, say, or a wheel's turn) is a motion
        // where the tool last was; one that changed nothing the core drops.
        if state.near, let at = point ?? state.lastPoint { host.handle(.penMotion(pen: state.pen, global: at, axes: state.axes, time: time)) }
        if let point { state.lastPoint = point }
        (state.axes.wheel, state.axes.wheelClicks) = (0, 0)
        if state.near, let tip = state.tip { host.handle(.penTip(pen: state.pen, down: tip, time: time)) }
        if state.near { for (button, pressed) in state.buttons { host.handle(.penButton(pen: state.pen, button: button, state: pressed, time: time)) } }
        let leaving = state.leaving && state.near
        (state.entering, state.leaving, state.position, state.tip, state.buttons) = (false, false, nil, nil, [])
        tablets.tools[tool] = state
        if leaving { leave(tool) }
    }

    /// The tool leaves proximity; the core lifts its tip and buttons first.
    private func leave(_ tool: OpaquePointer) {
        guard let state = tablets.tools[tool], state.near else { return }
        tablets.tools[tool]?.near = false
        host.handle(.penProximity(pen: state.pen, entering: false, global: Point(x: 0, y: 0), time: host.currentTime))
    }
}
