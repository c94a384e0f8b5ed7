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

    /// A completed callback's object and the list it travelled in are reused for the next
    /// frame's (no malloc a frame): each later callback still fires once, on every surface,
    /// after one was destroyed unanswered.
    @Test func frameCallbacksFireOnceFrameAfterFrameOnEverySurface() throws {
        let first = try client.toplevel(width: 50, height: 50)
        let second = try client.toplevel(width: 40, height: 40, at: (100, 100))
        let abandoned = RequestedFrame(first.surface)
        wl_callback_destroy(abandoned.proxy)
        try client.commitBuffer(first.surface, width: 50, height: 50)
        for round in 0..<6 {
            let frames = [RequestedFrame(first.surface), RequestedFrame(second.surface)]
            try client.commitBuffer(first.surface, width: 50, height: 50)
            try client.commitBuffer(second.surface, width: 40, height: 40)
            let deadline = Date().addingTimeInterval(2)
            while !frames.allSatisfy(\.done), Date() < deadline {
                try client.roundtrip()
                usleep(5_000)
            }
            #expect(frames.map(\.doneCount) == [1, 1], "round \(round): wl_callback.done once for each surface")
        }
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
