import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// `touch.feedback: ripple`: the server draws a mark under each finger that is down, over an
/// app that draws nothing in answer (weston-simple-shm-like: a solid window that ignores
/// touch), follows the finger, and is gone once it lifts; without it, nothing is drawn.
@Suite struct TouchFeedbackTests {
    static let windowColour: UInt32 = 0x30_3060

    /// A server with a 600x500 window at the corner, and its client.
    static func scene(_ feedback: TouchFeedbackStyle) throws -> (TestServer, TestClient) {
        var configuration = ServerConfiguration()
        configuration.touchFeedback = feedback
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 600, height: 500, at: (0, 0))
        try client.commitBuffer(window.surface, width: 600, height: 500, colour: 0xff00_0000 | windowColour)
        try client.roundtrip()
        return (server, client)
    }

    @Test func aMarkFollowsEachFingerOverAnAppThatDrawsNothing() throws {
        let (server, client) = try Self.scene(.ripple)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(200), f(150))
            tactile_test_input_v1_touch_down(input, 2, f(400), f(300))
            tactile_test_input_v1_touch_frame(input)
        }
        var shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 200, 150) == 0xff_ffff, "a mark under the first finger")
        #expect(shot.colour(at: 400, 300) == 0xff_ffff, "and under the second")
        #expect(shot.colour(at: 300, 400) == Self.windowColour, "the app elsewhere, as it drew it")
        try client.inject { input in
            tactile_test_input_v1_touch_motion(input, 1, f(260), f(150))
            tactile_test_input_v1_touch_up(input, 2)
            tactile_test_input_v1_touch_frame(input)
        }
        shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 260, 150) == 0xff_ffff, "the mark moved with the finger")
        #expect(shot.colour(at: 200, 150) == Self.windowColour, "and is not left behind")
        #expect(shot.colour(at: 400, 300) == Self.windowColour, "a lifted finger's mark is gone")
    }

    @Test func withoutRippleNothingIsDrawn() throws {
        let (server, client) = try Self.scene(.off)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(200), f(150))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Screenshot(socket: server.socket).colour(at: 200, 150) == Self.windowColour)
    }

    /// A hostile device's fingers past a touchscreen's count are not drawn, and one moved
    /// as far as wl_fixed goes breaks nothing.
    @Test func moreFingersThanAScreenHasAndFarPlacesBreakNothing() throws {
        let (server, client) = try Self.scene(.ripple)
        try client.inject { input in
            for id in 0..<40 { tactile_test_input_v1_touch_down(input, Int32(id), f(10 + 30 * Double(id)), f(450)) }
            tactile_test_input_v1_touch_motion(input, 1, Int32.max, Int32.min)
            tactile_test_input_v1_touch_frame(input)
        }
        let shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 10, 450) == 0xff_ffff, "the first finger")
        #expect(shot.colour(at: 40, 450) == Self.windowColour, "the second went far off every output")
        #expect(shot.colour(at: 10 + 30 * 31, 450) == 0xff_ffff, "the 32nd")
        #expect(shot.colour(at: 10 + 30 * 32, 450) == 0x20_2020, "the 33rd is past the 32 a screen reports: the bare background")
    }
}
