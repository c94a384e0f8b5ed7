import Responder
import TactileABI

// The input half of tactile.h: events in, each routed at once through the callbacks.

extension Router {
    /// The hot path, written out rather than through `route` (a closure capturing the event
    /// copied it once more), and inlined into each call so the event is built in place.
    @inline(__always)
    func handle(_ event: InputEvent) -> tactile_status {
        busy = true
        defer { busy = false }
        if zoom.isActive || accommodations.isActive { return handleStaged(event) }
        var sink = CallbackSink(router: self)
        core.handle(event, sink: &sink)
        if let ignored = sink.ignored { return fail(TACTILE_ERROR_IGNORED, "ignored: \(ignored)") }
        return TACTILE_OK
    }

    /// Coordinates that are not numbers, or beyond any screen, are refused here with a
    /// message; the core would refuse them too, as an ignored event.
    @inline(__always)
    func handle(_ x: Double, _ y: Double, _ event: (Point) -> InputEvent) -> tactile_status {
        guard Point(x: x, y: y).isRoutable else {
            return fail(TACTILE_ERROR_INVALID, "the point (\(x), \(y)) is not finite, or beyond 2^40 px")
        }
        return handle(event(Point(x: x, y: y)))
    }
}

@_cdecl("tactile_touch_down")
public func tactile_touch_down(_ handle: OpaquePointer?, _ id: Int32, _ x: Double, _ y: Double, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(x, y) { .touchDown(id: id, global: $0, time: Instant(microseconds: time)) } }
}

@_cdecl("tactile_touch_motion")
public func tactile_touch_motion(_ handle: OpaquePointer?, _ id: Int32, _ x: Double, _ y: Double, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(x, y) { .touchMotion(id: id, global: $0, time: Instant(microseconds: time)) } }
}

@_cdecl("tactile_touch_up")
public func tactile_touch_up(_ handle: OpaquePointer?, _ id: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.touchUp(id: id, time: Instant(microseconds: time))) }
}

@_cdecl("tactile_touch_cancel")
public func tactile_touch_cancel(_ handle: OpaquePointer?, _ id: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.touchCancel(id: id, time: Instant(microseconds: time))) }
}

@_cdecl("tactile_touch_frame")
public func tactile_touch_frame(_ handle: OpaquePointer?) -> tactile_status {
    withRouter(handle) { $0.handle(.touchFrame) }
}

@_cdecl("tactile_pointer_motion")
public func tactile_pointer_motion(_ handle: OpaquePointer?, _ x: Double, _ y: Double, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(x, y) { .pointerMotion(global: $0, time: Instant(microseconds: time)) } }
}

@_cdecl("tactile_pointer_button")
public func tactile_pointer_button(_ handle: OpaquePointer?, _ button: UInt32, _ pressed: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.pointerButton(button: button, state: pressed != 0 ? .pressed : .released, time: Instant(microseconds: time))) }
}

@_cdecl("tactile_pointer_axis")
public func tactile_pointer_axis(_ handle: OpaquePointer?, _ axis: UnsafePointer<tactile_axis>?, _ time: UInt64) -> tactile_status {
    withRouter(handle) { router in
        guard let a = axis?.pointee else { return router.fail(TACTILE_ERROR_INVALID, "the axis is NULL") }
        guard a.horizontal.isFinite, a.vertical.isFinite else {
            return router.fail(TACTILE_ERROR_INVALID, "the axis values (\(a.horizontal), \(a.vertical)) are not finite")
        }
        let source: AxisMotion.Source
        switch a.source {
        case TACTILE_AXIS_SOURCE_WHEEL: source = .wheel
        case TACTILE_AXIS_SOURCE_FINGER: source = .finger
        case TACTILE_AXIS_SOURCE_CONTINUOUS: source = .continuous
        case TACTILE_AXIS_SOURCE_WHEEL_TILT: source = .wheelTilt
        default: return router.fail(TACTILE_ERROR_INVALID, "\(a.source.rawValue) is not a tactile_axis_source")
        }
        var stops: AxisMotion.Axes = []
        if a.stop_horizontal != 0 { stops.insert(.horizontal) }
        if a.stop_vertical != 0 { stops.insert(.vertical) }
        let motion = AxisMotion(source: source, horizontal: a.horizontal, vertical: a.vertical, horizontalValue120: a.horizontal_value120,
                                verticalValue120: a.vertical_value120, stops: stops)
        return router.handle(.pointerAxis(motion, time: Instant(microseconds: time)))
    }
}

@_cdecl("tactile_key")
public func tactile_key(_ handle: OpaquePointer?, _ key: UInt32, _ pressed: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.key(key: key, state: pressed != 0 ? .pressed : .released, time: Instant(microseconds: time))) }
}

@_cdecl("tactile_client_set_capabilities")
public func tactile_client_set_capabilities(_ handle: OpaquePointer?, _ client: tactile_client, _ capabilities: UInt32) -> tactile_status {
    withRouter(handle) { router in
        let known = TACTILE_CAPABILITY_POINTER.rawValue | TACTILE_CAPABILITY_KEYBOARD.rawValue | TACTILE_CAPABILITY_TOUCH.rawValue
        guard capabilities & ~known == 0 else { return router.fail(TACTILE_ERROR_INVALID, "unknown capabilities 0x\(String(capabilities, radix: 16))") }
        guard client != 0 else { return router.fail(TACTILE_ERROR_INVALID, "client 0 is the compositor's") }
        var bound: InputCapabilities = []
        if capabilities & TACTILE_CAPABILITY_POINTER.rawValue != 0 { bound.insert(.pointer) }
        if capabilities & TACTILE_CAPABILITY_KEYBOARD.rawValue != 0 { bound.insert(.keyboard) }
        if capabilities & TACTILE_CAPABILITY_TOUCH.rawValue != 0 { bound.insert(.touch) }
        router.core.setCapabilities(bound, for: ClientID(client))
        return TACTILE_OK
    }
}

@_cdecl("tactile_client_disconnected")
public func tactile_client_disconnected(_ handle: OpaquePointer?, _ client: tactile_client) -> tactile_status {
    withRouter(handle) { router in
        defer { router.dropRemovedUserData() }
        return router.route { sink in router.core.clientDisconnected(ClientID(client), sink: &sink) }
    }
}

@_cdecl("tactile_router_set_pointer_emulation")
public func tactile_router_set_pointer_emulation(_ handle: OpaquePointer?, _ enabled: Int32) -> tactile_status {
    withRouter(handle) { router in
        router.core.policy.emulatesPointerForTouch = enabled != 0
        return TACTILE_OK
    }
}

@_cdecl("tactile_keyboard_focus")
public func tactile_keyboard_focus(_ handle: OpaquePointer?, _ nodeHandle: tactile_node) -> tactile_status {
    withRouter(handle) { router in
        var target: NodeID?
        if nodeHandle != 0 {
            switch router.node(nodeHandle) {
            case .failure(let f): return router.fail(f)
            case .success(let id): target = id
            }
            guard router.core.scene.node(target!)?.client != nil else { return router.fail(TACTILE_ERROR_INVALID, "node \(nodeHandle) is the compositor's, not a client's surface") }
        }
        return router.route { sink in router.core.setKeyboardFocus(target, sink: &sink) }
    }
}

@_cdecl("tactile_router_set_event_callback")
public func tactile_router_set_event_callback(_ handle: OpaquePointer?, _ callback: tactile_event_fn?, _ data: UnsafeMutableRawPointer?) -> tactile_status {
    withRouter(handle) { router in
        router.events = callback.map { ($0, data) }
        return TACTILE_OK
    }
}

@_cdecl("tactile_router_set_trace_callback")
public func tactile_router_set_trace_callback(_ handle: OpaquePointer?, _ callback: tactile_trace_fn?, _ data: UnsafeMutableRawPointer?) -> tactile_status {
    withRouter(handle) { router in
        router.traces = callback.map { ($0, data) }
        return TACTILE_OK
    }
}
