import CWaylandServer
import Responder
import WaylandProtocols

extension WaylandServer {
    /// tactile_test_input_v1, only with `enablesTestInput`: every request becomes one input
    /// event, stamped with the server's clock, routed as a backend's would be.
    func createTestInputGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_global_create(display, tactile_tactile_test_input_v1_interface(), 1, me) { client, data, version, id in
            let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
            _ = server.bindGlobal(client, tactile_tactile_test_input_v1_interface(), version, id, WaylandServer.testInputRequests)
        }
    }

    private static func inject(_ resource: OpaquePointer?, _ make: (Instant) -> InputEvent) {
        guard let server = WaylandServer.from(resource) else { return }
        server.handle(make(server.currentTime))
    }

    private static func pressState(_ resource: OpaquePointer?, _ raw: UInt32) -> PressState? {
        switch raw {
        case 0: return .released
        case 1: return .pressed
        default:
            tactile_post_error(resource, TACTILE_TEST_INPUT_V1_ERROR_INVALID_STATE.rawValue, "state \(raw) is neither 0 (released) nor 1 (pressed)")
            return nil
        }
    }

    static let testInputRequests = RequestTable(tactile_test_input_v1_interface(
        destroy: destroyResource,
        touch_down: { _, r, id, x, y in inject(r) { .touchDown(id: id, global: point(x, y), time: $0) } },
        touch_motion: { _, r, id, x, y in inject(r) { .touchMotion(id: id, global: point(x, y), time: $0) } },
        touch_up: { _, r, id in inject(r) { .touchUp(id: id, time: $0) } },
        touch_cancel: { _, r, id in inject(r) { .touchCancel(id: id, time: $0) } },
        touch_frame: { _, r in inject(r) { _ in .touchFrame } },
        pointer_motion: { _, r, x, y in inject(r) { .pointerMotion(global: point(x, y), time: $0) } },
        pointer_button: { _, r, button, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .pointerButton(button: button, state: state, time: $0) }
        },
        pointer_axis: { _, r, h, v, h120, v120 in
            let motion = AxisMotion(source: .wheel, horizontal: wl_fixed_to_double(h), vertical: wl_fixed_to_double(v),
                                    horizontalValue120: h120, verticalValue120: v120)
            inject(r) { .pointerAxis(motion, time: $0) }
        },
        key: { _, r, key, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .key(key: key, state: state, time: $0) }
        },
        move_toplevel: { _, r, surfaceResource, x, y in
            guard let server = WaylandServer.from(r) else { return }
            guard let surface = Surface.from(surfaceResource), let node = surface.node, server.router.scene.node(node)?.isToplevel == true else {
                return tactile_post_error(r, TACTILE_TEST_INPUT_V1_ERROR_NOT_TOPLEVEL.rawValue, "move_toplevel needs a toplevel surface (xdg_toplevel or wl_shell)")
            }
            surface.placeWindow(at: Position(x: Int(x), y: Int(y)))
        }
    ))

    private static func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Point {
        Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    }
}
