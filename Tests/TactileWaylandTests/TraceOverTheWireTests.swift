import GestureConfiguration
import CWaylandClient
import Foundation
import Glibc
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// `--trace` as a tester reads it from a running server: each line names the client's own
/// wl_surface id, its app_id and pid, and the reason each surface was passed over; a won
/// edge swipe names the client it cancelled. And `--show-touches` as a screenshot shows it.
@Suite(.serialized) struct TraceOverTheWireTests {
    /// Collects the server's trace lines.
    final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        init(_ server: TestServer) {
            server.onServerThread { [self] server, _ in server.traceLines { line in self.lines.withLock { $0.append(line) } } }
        }
        func take() -> [String] {
            lines.withLock { lines in
                defer { lines.removeAll() }
                return lines
            }
        }
    }

    static func setAppID(_ window: Window, _ appID: String) { xdg_toplevel_set_app_id(window.toplevel, appID) }

    /// The hit-test line of `touch` with `verdict`; nil when there is none.
    static func line(_ lines: [String], touch: Int, verdict: String) -> String? {
        lines.first { $0.hasPrefix("touch \(touch) hit-test ") && $0.hasSuffix(" verdict=\(verdict)") }
    }

    @Test func everyReasonASurfaceIsPassedOverIsInTheTraceWithTheClientsNames() throws {
        let server = try TestServer()
        let trace = Lines(server)
        let b = try TestClient(socket: server.socket)
        let under = try b.toplevel(width: 800, height: 800, at: (0, 0))
        Self.setAppID(under, "org.example.under")
        let a = try TestClient(socket: server.socket)
        let taker = try a.toplevel(width: 400, height: 400, at: (0, 0))
        Self.setAppID(taker, "org.example.taker")
        // Its input region lacks the top right quarter.
        let region = wl_compositor_create_region(a.compositor)
        wl_region_add(region, 0, 0, 400, 400)
        wl_region_subtract(region, 200, 0, 200, 200)
        wl_surface_set_input_region(taker.surface, region)
        wl_region_destroy(region)
        // A subsurface that never gets a buffer: unmapped.
        let pending = wl_compositor_create_surface(a.compositor)!
        _ = wl_subcompositor_get_subsurface(a.subcompositor, pending, taker.surface)
        wl_surface_commit(taker.surface)
        let far = try a.toplevel(width: 50, height: 50, at: (1000, 600))
        Self.setAppID(far, "org.example.far")
        try a.roundtrip()
        try b.roundtrip()
        _ = trace.take()

        try a.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(100), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_down(input, 2, f(300), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 2)
            tactile_test_input_v1_touch_frame(input)
        }
        try b.roundtrip()
        let lines = trace.take()
        let pid = "pid=\(getpid())"
        #expect(lines.contains("touch 1 down at=100,100 output=HEADLESS-1(100,100)"))
        let pruned = Self.line(lines, touch: 1, verdict: "pruned")
        #expect(pruned?.contains("surface=wl_surface@\(a.id(far.surface)) role=toplevel app_id=org.example.far \(pid)") == true, "\(lines)")
        let unmapped = Self.line(lines, touch: 1, verdict: "unmapped")
        #expect(unmapped?.contains("surface=wl_surface@\(a.id(pending)) role=subsurface app_id=org.example.taker") == true, "\(lines)")
        #expect(Self.line(lines, touch: 1, verdict: "hit")?.contains("app_id=org.example.taker") == true)
        #expect(Self.line(lines, touch: 1, verdict: "covered")?.contains("surface=wl_surface@\(b.id(under.surface)) role=toplevel app_id=org.example.under") == true)
        #expect(lines.contains { $0.hasPrefix("touch 1 owner surface=wl_surface@\(a.id(taker.surface)) role=toplevel app_id=org.example.taker") && $0.hasSuffix("local=100,100") })
        let outside = Self.line(lines, touch: 2, verdict: "outside-input-region")
        #expect(outside?.contains("app_id=org.example.taker") == true && outside?.contains("local=300,100") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("touch 2 owner surface=wl_surface@\(b.id(under.surface))") && $0.contains("app_id=org.example.under") })
        #expect(lines.contains { $0.hasPrefix("keyboard focus ") && $0.contains("app_id=org.example.under") && $0.hasSuffix("cause=touched") })
    }

    @Test func aWonEdgeSwipeNamesTheClientItCancelled() throws {
        let server = try TestServer(ServerConfiguration(gestures: [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))]))
        let trace = Lines(server)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        Self.setAppID(window, "org.example.victim")
        try client.roundtrip()
        _ = trace.take()
        try client.inject(swipeFromTheLeftEdge)
        let lines = trace.take()
        let offered = lines.firstIndex(of: "touch 1 offered gesture=edge")
        let began = lines.firstIndex(of: "gesture edge began")
        let cancelled = lines.firstIndex(of: "touch 1 claimed gesture=edge cancelled pid=\(getpid()) app_id=org.example.victim (wl_touch.cancel)")
        #expect(offered != nil && began != nil && cancelled != nil, "\(lines)")
        if let offered, let began, let cancelled { #expect(offered < began && began < cancelled) }
        #expect(lines.contains("gesture edge ended"))
        #expect(client.take().contains(.touchCancel))
    }

    /// On an output at scale 2 a touch's mark is twice as many output pixels across: its
    /// ring, 13 logical pixels from the finger, lies 26 output pixels out.
    @Test func showTouchesDrawsAtTheOutputsScale() throws {
        var configuration = ServerConfiguration()
        configuration.showTouches = true
        configuration.outputs = [OutputSettings(scale: 2)]
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(100), f(100))
            tactile_test_input_v1_touch_frame(input)
        }
        let capture = try ScreencopyCapture.copied(client: client)
        let ring = capture.colour(at: 200 + 26, 200), centre = capture.colour(at: 200, 200)
        #expect(ring != 0x20_2020 && capture.colour(at: 200 - 26, 200) != 0x20_2020, "the ring 26 output pixels out, both sides: \(String(ring, radix: 16))")
        #expect(centre != 0x20_2020, "the disc's fill at the finger")
        #expect(capture.colour(at: 200 + 34, 200) == 0x20_2020, "nothing past the ring")
    }

    /// Two fingers on two clients, one of them dragged, then a left-edge swipe that cancels
    /// the dragging client: each finger's mark is in its owner's colour, the cancelled ones
    /// have a red cross where they were cancelled, and a touch on the bare background is grey.
    @Test func showTouchesDrawsEachTouchInItsOwnersColourWithCancelsMarked() throws {
        var configuration = ServerConfiguration(gestures: [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))])
        configuration.showTouches = true
        let server = try TestServer(configuration)
        let a = try TestClient(socket: server.socket)
        let left = try a.toplevel(width: 600, height: 500, at: (0, 0))
        try a.commitBuffer(left.surface, width: 600, height: 500, colour: 0xff30_3060)
        let b = try TestClient(socket: server.socket)
        let right = try b.toplevel(width: 500, height: 400, at: (700, 100))
        try b.commitBuffer(right.surface, width: 500, height: 400, colour: 0xff30_6030)
        try a.roundtrip()
        try b.roundtrip()
        try a.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(901), f(303))
            tactile_test_input_v1_touch_down(input, 2, f(200), f(100))
            tactile_test_input_v1_touch_frame(input)
            for step in 1...10 { tactile_test_input_v1_touch_motion(input, 2, f(200 + 20 * Double(step)), f(100 + 15 * Double(step))) }
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_down(input, 3, f(4), f(420))
            tactile_test_input_v1_touch_frame(input)
            for x in [40.0, 80, 140, 220] { tactile_test_input_v1_touch_motion(input, 3, f(x), f(420)) }
            tactile_test_input_v1_touch_frame(input)
        }
        try a.roundtrip()
        let shot = try Screenshot(socket: server.socket)
        let red: UInt32 = 0xff2020
        let palette: Set<UInt32> = [0x1e90ff, 0xff8c00, 0x32cd32, 0xff00ff, 0x00ced1, 0xffd700]
        let onRight = shot.colour(at: 901, 303), onLeft = shot.colour(at: 300, 175)
        #expect(palette.contains(onRight), "finger 1, in its owner's colour: \(String(onRight, radix: 16))")
        #expect(palette.contains(onLeft), "finger 2's trail, in its owner's colour: \(String(onLeft, radix: 16))")
        #expect(onLeft != onRight, "two clients, two colours")
        #expect(shot.colour(at: 400, 250) == red, "finger 2 ends where its client was cancelled")
        #expect(shot.colour(at: 140, 420) == red, "the swipe's finger has a red cross where the swipe won it (80 px in)")
        #expect(shot.colour(at: 220, 420) == onLeft, "and goes on to where it is now, in its owner's colour")
        #expect(shot.colour(at: 950, 350) == 0x306030, "away from the marks, the window as it is")
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        try Screenshot.savePNG(socket: server.socket, at: "\(products)/screenshots/show-touches.png")

        // All fingers up, then a touch on the background: the old marks go, the new one is grey.
        try a.inject { input in
            for id in [1, 2, 3] as [Int32] { tactile_test_input_v1_touch_up(input, id) }
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_down(input, 4, f(650), f(700))
            tactile_test_input_v1_touch_frame(input)
        }
        try a.roundtrip()
        let after = try Screenshot(socket: server.socket)
        #expect(after.colour(at: 650, 700) == 0x909090, "a touch nobody owns")
        #expect(after.colour(at: 901, 303) == 0x306030 && after.colour(at: 400, 250) == 0x303060, "the previous marks are gone")
    }

    /// `--show-input-regions`: the pointer over a window whose input region is its left half
    /// outlines that half in yellow; the right half's edge shows no outline.
    @Test func showInputRegionsOutlinesTheRegionUnderThePointer() throws {
        var configuration = ServerConfiguration()
        configuration.showInputRegions = true
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 400, height: 300, at: (100, 100))
        try client.commitBuffer(window.surface, width: 400, height: 300, colour: 0xff30_3060)
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, 0, 0, 200, 300)
        wl_surface_set_input_region(window.surface, region)
        wl_region_destroy(region)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        #expect(try Screenshot(socket: server.socket).colour(at: 100, 200) == 0x303060, "no outline before the pointer comes")
        try client.inject { input in tactile_test_input_v1_pointer_motion(input, f(150), f(200)) }
        try client.roundtrip()
        let shot = try Screenshot(socket: server.socket)
        let yellow: UInt32 = 0xffff00
        #expect(shot.colour(at: 100, 200) == yellow, "the region's left side")
        #expect(shot.colour(at: 299, 200) == yellow, "its right side, the window's middle")
        #expect(shot.colour(at: 250, 101) == yellow, "its top side")
        #expect(shot.colour(at: 250, 150) == 0x303060 && shot.colour(at: 499, 200) == 0x303060, "inside the region, and the window outside it: no outline")
    }
}
