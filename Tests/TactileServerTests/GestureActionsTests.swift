import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// What gestures do when `GestureActions` acts on them, as `tactile serve` has it, seen by a
/// real client. The output is 1280 × 800.
@Suite(.serialized) struct GestureActionsTests {
    static func server(_ gestures: [GestureBinding]) throws -> TestServer {
        try TestServer(ServerConfiguration(gestures: gestures), actions: true)
    }

    /// Actions: close-focused sends xdg_toplevel.close to the focused window; focus-next
    /// raises the bottom window and gives it the keyboard.
    @Test func closeFocusedAndFocusNextActOnWindows() throws {
        let server = try Self.server([
            GestureBinding(name: "close", recognizer: EdgeSwipe(edge: .top), action: .closeFocused),
            GestureBinding(name: "next", recognizer: EdgeSwipe(edge: .left), action: .focusNext),
        ])
        let client = try TestClient(socket: server.socket)
        let first = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        let second = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        try client.roundtrip()
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(400))
            tactile_test_input_v1_touch_motion(input, 1, f(200), f(400))
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().contains(.keyboardEnter(surface: client.id(first.surface), keys: [])))
        #expect(try client.surfaceHit(at: 600, 400) == client.id(first.surface))
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(600), f(5))
            tactile_test_input_v1_touch_motion(input, 1, f(600), f(200))
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(first.closeRequested)
        #expect(!second.closeRequested)
    }

    /// run: the command starts with the gesture in its environment.
    @Test func aRunActionStartsTheCommandWithTheGestureInItsEnvironment() throws {
        let output = TestServer.runtimeDirectory + "/gesture-\(UUID().uuidString.prefix(8))"
        let server = try Self.server([
            GestureBinding(name: "launcher", recognizer: EdgeSwipe(edge: .bottom), action: .run("env | grep ^TACTILE_GESTURE | sort > \(output)")),
        ])
        let client = try TestClient(socket: server.socket)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(640), f(795))
            tactile_test_input_v1_touch_motion(input, 1, f(640), f(700))
            tactile_test_input_v1_touch_frame(input)
        }
        var text = ""
        for _ in 0..<100 where !text.contains("TACTILE_GESTURE_Y") {
            usleep(20_000)
            text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        #expect(text.split(separator: "\n").map(String.init) == [
            "TACTILE_GESTURE=launcher", "TACTILE_GESTURE_COUNT=1", "TACTILE_GESTURE_DX=0.0", "TACTILE_GESTURE_DY=-95.0",
            "TACTILE_GESTURE_SCALE=1.0", "TACTILE_GESTURE_STATE=began", "TACTILE_GESTURE_X=640.0", "TACTILE_GESTURE_Y=700.0",
        ])
    }
}
