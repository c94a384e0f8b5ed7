import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Compositor gestures (DESIGN.md §1.3) as two real clients see them: who is cancelled, what
/// follows a cancel, what delaysTouchesBegan holds back and replays, and the server's timer.
/// (Their actions are in TactileServerTests.) The output is 1280 × 800; the left-edge swipe
/// starts within 24 px and wins at 80 px inward.
@Suite(.serialized) struct GesturesOverTheWireTests {
    static func server(_ gestures: [GestureBinding]) throws -> TestServer {
        try TestServer(ServerConfiguration(gestures: gestures))
    }

    static let edgeSwipe = GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))

    /// Client A holds two touches, client B one. The swipe wins touch 1: A gets one cancel
    /// (no frame) for both of its touches and nothing more of them; B's touch goes on; a
    /// fresh down on A afterwards, reusing id 1, arrives as usual.
    @Test func aWinningSwipeCancelsOnlyTheClientHoldingItsTouchButAllOfThatClientsTouches() throws {
        let server = try Self.server([Self.edgeSwipe])
        let a = try TestClient(socket: server.socket)
        let b = try TestClient(socket: server.socket)
        let windowA = try a.toplevel(width: 400, height: 800, at: (0, 0))
        let windowB = try b.toplevel(width: 400, height: 800, at: (600, 0))
        try b.roundtrip()
        _ = (a.take(), b.take())
        try a.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(100))
            tactile_test_input_v1_touch_down(input, 2, f(200), f(400))
            tactile_test_input_v1_touch_down(input, 3, f(700), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(40), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(120), f(100))
            tactile_test_input_v1_touch_motion(input, 3, f(710), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 2, f(210), f(400))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_up(input, 2)
            tactile_test_input_v1_touch_up(input, 3)
            tactile_test_input_v1_touch_frame(input)
        }
        try b.roundtrip()
        #expect(a.take().filter { !$0.isKeyboard } == [
            .touchDown(surface: a.id(windowA.surface), id: 1, x: f(5), y: f(100)),
            .touchDown(surface: a.id(windowA.surface), id: 2, x: f(200), y: f(400)),
            .touchFrame,
            .touchMotion(id: 1, x: f(40), y: f(100)),
            .touchFrame,
            .touchCancel,
        ])
        #expect(b.take().filter { !$0.isKeyboard } == [
            .touchDown(surface: b.id(windowB.surface), id: 3, x: f(100), y: f(100)),
            .touchFrame,
            .touchMotion(id: 3, x: f(110), y: f(100)),
            .touchFrame,
            .touchUp(id: 3),
            .touchFrame,
        ])
        #expect(try Self.aFreshDownArrives(a, on: windowA, at: 300, 300))
    }

    /// A server with the left-edge swipe set to delaysTouchesBegan, and one client whose
    /// window covers the output, with nothing recorded yet.
    static func fullScreenClientUnderADelayingSwipe() throws -> (TestServer, TestClient, Window) {
        var swipe = edgeSwipe
        swipe.options.delaysTouchesBegan = true
        let server = try server([swipe])
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        _ = client.take()
        return (server, client, window)
    }

    /// Whether a new touch with id 1 on the window arrives as a down and a frame.
    static func aFreshDownArrives(_ client: TestClient, on window: Window, at x: Double, _ y: Double) throws -> Bool {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(x), f(y))
            tactile_test_input_v1_touch_frame(input)
        }
        return client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(window.surface), id: 1, x: f(x), y: f(y)), .touchFrame]
    }

    /// delaysTouchesBegan and the swipe wins: the client never hears of the touch, not even a
    /// cancel; its next touch arrives normally.
    @Test func withDelaysTouchesBeganAWonSwipeIsNeverSeen() throws {
        let (server, client, window) = try Self.fullScreenClientUnderADelayingSwipe()
        defer { withExtendedLifetime(server) {} }
        try client.inject(swipeFromTheLeftEdge)
        #expect(client.take().filter { !$0.isKeyboard } == [])
        #expect(try Self.aFreshDownArrives(client, on: window, at: 500, 100))
    }

    /// delaysTouchesBegan and the swipe fails (the finger drifts sideways): the held events
    /// arrive in order, each with the time it happened, not the time it was released.
    @Test func heldEventsReplayInOrderWithTheirOriginalTimesWhenTheSwipeFails() throws {
        let (server, client, window) = try Self.fullScreenClientUnderADelayingSwipe()
        defer { withExtendedLifetime(server) {} }
        client.touchTimes.removeAll()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(100))
            tactile_test_input_v1_touch_frame(input)
        }
        usleep(40_000)
        try client.inject { input in
            tactile_test_input_v1_touch_motion(input, 1, f(20), f(100))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [])
        usleep(40_000)
        try client.inject { input in
            tactile_test_input_v1_touch_motion(input, 1, f(20), f(300))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [
            .touchDown(surface: client.id(window.surface), id: 1, x: f(5), y: f(100)), .touchFrame,
            .touchMotion(id: 1, x: f(20), y: f(100)), .touchFrame,
            .touchMotion(id: 1, x: f(20), y: f(300)), .touchFrame,
        ])
        let t = client.touchTimes
        try #require(t.count == 3)
        #expect(t[1] &- t[0] >= 35 && t[2] &- t[1] >= 35, "each event keeps its own time: \(t)")
    }

    /// delaysTouchesEnded with a double tap: the first tap's up waits for the second tap; when
    /// none comes, the server's timer releases it (300 ms later) with its own time.
    @Test func aHeldUpIsReleasedByTheServersTimerWhenTheDoubleTapTimesOut() throws {
        let server = try Self.server([GestureBinding(name: "double", recognizer: Tap(count: 2))])
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        _ = client.take()
        client.touchTimes.removeAll()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(300), f(300))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(window.surface), id: 1, x: f(300), y: f(300)), .touchFrame])
        usleep(450_000)
        try client.roundtrip()
        #expect(client.take().filter { !$0.isKeyboard } == [.touchUp(id: 1), .touchFrame])
        let t = client.touchTimes
        try #require(t.count == 2)
        #expect(t[1] &- t[0] < 100, "the up keeps the time it happened, not the release's: \(t)")
    }
}

/// A finger from (5, 100), at the left edge, to (40, 100), then past the swipe's 80 px to
/// (120, 100), then lifted; each event in a frame of its own.
func swipeFromTheLeftEdge(_ input: OpaquePointer) {
    tactile_test_input_v1_touch_down(input, 1, f(5), f(100))
    tactile_test_input_v1_touch_frame(input)
    tactile_test_input_v1_touch_motion(input, 1, f(40), f(100))
    tactile_test_input_v1_touch_frame(input)
    tactile_test_input_v1_touch_motion(input, 1, f(120), f(100))
    tactile_test_input_v1_touch_frame(input)
    tactile_test_input_v1_touch_up(input, 1)
    tactile_test_input_v1_touch_frame(input)
}
