import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols


/// Touch ownership (DESIGN.md §1.2) as real clients see it over a real socket.
@Suite struct TouchOverTheWireTests {
    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    @Test func aTouchIsDeliveredInSurfaceLocalFixedPointAndStaysWithItsSurface() throws {
        let window = try client.toplevel(width: 200, height: 100, at: (100, 50))
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(150.5), f(60.25))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(400), f(10))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [
            .touchDown(surface: client.id(window.surface), id: 1, x: f(50.5), y: f(10.25)),
            .touchFrame,
            .touchMotion(id: 1, x: f(300), y: f(-40)),
            .touchFrame,
            .touchUp(id: 1),
            .touchFrame,
        ])
    }

    @Test func twoFingersOnTwoClientsEachGetTheirOwnEventsAndFrame() throws {
        let other = try TestClient(socket: server.socket)
        let mine = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let theirs = try other.toplevel(width: 100, height: 100, at: (200, 0))
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_down(input, 2, f(220), f(30))
            tactile_test_input_v1_touch_frame(input)
        }
        try other.roundtrip()
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(mine.surface), id: 1, x: f(10), y: f(10)), .touchFrame])
        #expect(other.take().filter { !$0.isKeyboard } == [.touchDown(surface: other.id(theirs.surface), id: 2, x: f(20), y: f(30)), .touchFrame])
    }

    @Test func destroyingTheSurfaceMidTouchSendsUpAndFrameAtOnceThenNothing() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 5, f(10), f(10))
            tactile_test_input_v1_touch_frame(input)
        }
        _ = client.take()
        xdg_toplevel_destroy(window.toplevel)
        xdg_surface_destroy(window.xdgSurface)
        wl_surface_destroy(window.surface)
        try client.roundtrip()
        #expect(client.take().filter { !$0.isKeyboard } == [.touchUp(id: 5), .touchFrame])
        try client.inject { input in
            tactile_test_input_v1_touch_motion(input, 5, f(20), f(20))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 5)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [])
    }

    @Test func aClientThatDisconnectsMidTouchDoesNotDisturbAnother() throws {
        var leaving: TestClient? = try TestClient(socket: server.socket)
        _ = try leaving!.toplevel(width: 100, height: 100, at: (0, 0))
        let staying = try client.toplevel(width: 100, height: 100, at: (200, 0))
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_down(input, 2, f(210), f(10))
            tactile_test_input_v1_touch_frame(input)
        }
        leaving = nil
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_motion(input, 1, f(20), f(20))
            tactile_test_input_v1_touch_motion(input, 2, f(230), f(10))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchMotion(id: 2, x: f(30), y: f(10)), .touchFrame])
        _ = staying
    }

    @Test func anEmptyInputRegionLetsTouchesThroughToTheWindowBelow() throws {
        let below = try client.toplevel(width: 300, height: 300, at: (0, 0))
        let above = try client.toplevel(width: 300, height: 300, at: (0, 0))
        let empty = wl_compositor_create_region(client.compositor)
        wl_surface_set_input_region(above.surface, empty)
        wl_region_destroy(empty)
        wl_surface_commit(above.surface)
        try client.roundtrip()
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(60))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(below.surface), id: 1, x: f(50), y: f(60)), .touchFrame])
    }

    @Test func aClientWithoutWlTouchGetsTheFirstFingerAsAPointer() throws {
        let legacy = try TestClient(socket: server.socket, devices: ["pointer"])
        let window = try legacy.toplevel(width: 100, height: 100, at: (100, 100))
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(110), f(120))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        try legacy.roundtrip()
        #expect(legacy.take() == [
            .pointerEnter(surface: legacy.id(window.surface), x: f(10), y: f(20)),
            .pointerFrame,
            .pointerButton(button: 0x110, state: 1),
            .pointerFrame,
            .pointerButton(button: 0x110, state: 0),
            .pointerFrame,
        ])
    }
}
