import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// What every client relies on around commit: frame callbacks fire, and
/// every seat resource it holds gets the events.
@Suite struct SurfaceLifecycleTests {
    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    @Test func aFrameCallbackFiresForACommit() throws {
        let window = try client.toplevel(width: 50, height: 50)
        let frame = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 50, height: 50)
        let deadline = Date().addingTimeInterval(2)
        while !frame.done, Date() < deadline {
            try client.roundtrip()
            usleep(5_000)
        }
        #expect(frame.done, "wl_callback.done within 2 s (the frame timer ticks every 16 ms)")
    }

    @Test func anOffsetMovesTheSurfaceByThatMuchOnCommit() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (100, 100))
        wl_surface_offset(window.surface, 20, 0)
        try client.commitBuffer(window.surface, width: 100, height: 100)
        #expect(try client.surfaceHit(at: 110, 110) == nil)
        #expect(try client.surfaceHit(at: 125, 110) == client.id(window.surface))
    }

    @Test func everyWlTouchOfAClientGetsTheEvents() throws {
        let second = wl_seat_get_touch(client.seat)
        wl_touch_add_listener(second, Listeners.touch, Unmanaged.passUnretained(client).toOpaque())
        let window = try client.toplevel(width: 100, height: 100)
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 3, f(10), f(20))
            tactile_test_input_v1_touch_frame(input)
        }
        let down = Seen.touchDown(surface: client.id(window.surface), id: 3, x: f(10), y: f(20))
        #expect(client.take().filter { !$0.isKeyboard } == [down, down, .touchFrame, .touchFrame])
    }

    @Test func theOutputAdvertisesTheConfiguredSize() throws {
        let small = try TestServer(headless: .init(outputs: [.init(width: 800, height: 480)]))
        let info = try ClientProcess(["wayland-info"], socket: small.socket)
        defer { info.stop() }
        let output = try info.waitForExit()
        #expect(output.contains("width: 800 px, height: 480 px"), "wayland-info: \(output)")
    }
}
