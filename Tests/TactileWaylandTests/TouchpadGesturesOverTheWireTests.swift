import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Touchpad gestures as a real client hears them through zwp_pointer_gestures_v1: a photo
/// viewer under the pointer pinches and swipes; a configured 3-finger swipe to the left is the
/// kiosk's, and takes the swipe from the client with `cancelled`.
@Suite struct TouchpadGesturesOverTheWireTests {
    /// What the client's gesture objects heard, one line per event.
    final class Heard {
        var lines: [String] = []
    }

    nonisolated(unsafe) static let swipeListener: UnsafeMutablePointer<zwp_pointer_gesture_swipe_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_pointer_gesture_swipe_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_pointer_gesture_swipe_v1_listener(
            begin: { data, _, _, _, _, fingers in heard(data).lines.append("swipe begin \(fingers)") },
            update: { data, _, _, dx, dy in heard(data).lines.append("swipe update \(wl_fixed_to_double(dx)) \(wl_fixed_to_double(dy))") },
            end: { data, _, _, _, cancelled in heard(data).lines.append("swipe end \(cancelled)") }
        ))
        return pointer
    }()

    nonisolated(unsafe) static let pinchListener: UnsafeMutablePointer<zwp_pointer_gesture_pinch_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_pointer_gesture_pinch_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_pointer_gesture_pinch_v1_listener(
            begin: { data, _, _, _, _, fingers in heard(data).lines.append("pinch begin \(fingers)") },
            update: { data, _, _, _, _, scale, rotation in
                heard(data).lines.append("pinch update \(wl_fixed_to_double(scale)) \(wl_fixed_to_double(rotation))")
            },
            end: { data, _, _, _, cancelled in heard(data).lines.append("pinch end \(cancelled)") }
        ))
        return pointer
    }()

    nonisolated(unsafe) static let holdListener: UnsafeMutablePointer<zwp_pointer_gesture_hold_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_pointer_gesture_hold_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_pointer_gesture_hold_v1_listener(
            begin: { data, _, _, _, _, fingers in heard(data).lines.append("hold begin \(fingers)") },
            end: { data, _, _, _, cancelled in heard(data).lines.append("hold end \(cancelled)") }
        ))
        return pointer
    }()

    static func heard(_ data: UnsafeMutableRawPointer?) -> Heard { Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue() }

    /// A client with a window at the origin, the pointer over it, listening to all three kinds.
    static func viewer(_ server: TestServer, heard: Heard) throws -> TestClient {
        let client = try TestClient(socket: server.socket)
        _ = try client.toplevel(width: 400, height: 400, at: (0, 0))
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(200), f(200)) }
        let me = Unmanaged.passUnretained(heard).toOpaque()
        zwp_pointer_gesture_swipe_v1_add_listener(zwp_pointer_gestures_v1_get_swipe_gesture(client.pointerGestures, client.pointer), swipeListener, me)
        zwp_pointer_gesture_pinch_v1_add_listener(zwp_pointer_gestures_v1_get_pinch_gesture(client.pointerGestures, client.pointer), pinchListener, me)
        zwp_pointer_gesture_hold_v1_add_listener(zwp_pointer_gestures_v1_get_hold_gesture(client.pointerGestures, client.pointer), holdListener, me)
        try client.roundtrip()
        return client
    }

    @Test func theClientUnderThePointerHearsHoldPinchAndSwipe() throws {
        let server = try TestServer()
        let heard = Heard()
        let client = try Self.viewer(server, heard: heard)
        try client.inject { input in
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_HOLD.rawValue, 2)
            tactile_test_input_v1_touchpad_gesture_end(input, 1)
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_PINCH.rawValue, 2)
            tactile_test_input_v1_touchpad_gesture_update(input, f(0), f(0), f(1.5), f(10))
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_SWIPE.rawValue, 3)
            tactile_test_input_v1_touchpad_gesture_update(input, f(30), f(-4), f(1), f(0))
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
        }
        try client.roundtrip()
        #expect(heard.lines == [
            "hold begin 2", "hold end 1",
            "pinch begin 2", "pinch update 1.5 10.0", "pinch end 0",
            "swipe begin 3", "swipe update 30.0 -4.0", "swipe end 0",
        ])
    }

    /// The kiosk's 3-finger swipe to the left wins at 100 px: the client saw the swipe begin
    /// and one update, then hears its end, cancelled; the kiosk's action runs.
    @Test func aConfiguredTouchpadSwipeTakesTheSwipeFromTheClient() throws {
        let output = TestServer.runtimeDirectory + "/touchpad-\(UUID().uuidString.prefix(8))"
        let binding = GestureBinding(name: "next-app", recognizer: Swipe(fingers: 3, direction: .left, distance: 100), device: .touchpad,
                                     action: .run("echo $TACTILE_GESTURE $TACTILE_GESTURE_STATE $TACTILE_GESTURE_COUNT > \(output)"))
        let server = try TestServer(ServerConfiguration(gestures: [binding]), actions: true)
        let heard = Heard()
        let client = try Self.viewer(server, heard: heard)
        try client.inject { input in
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_SWIPE.rawValue, 3)
            for _ in 0..<4 { tactile_test_input_v1_touchpad_gesture_update(input, f(-60), f(0), f(1), f(0)) }
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
        }
        try client.roundtrip()
        #expect(heard.lines == ["swipe begin 3", "swipe update -60.0 0.0", "swipe end 1"])
        var text = ""
        for _ in 0..<100 where text.isEmpty {
            usleep(20_000)
            text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        #expect(text == "next-app began 3\n", "the kiosk's action runs as the swipe wins")

        // A pinch is not the kiosk's: the client keeps it.
        heard.lines = []
        try client.inject { input in
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_PINCH.rawValue, 3)
            tactile_test_input_v1_touchpad_gesture_update(input, f(-200), f(0), f(2), f(0))
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
        }
        try client.roundtrip()
        #expect(heard.lines == ["pinch begin 3", "pinch update 2.0 0.0", "pinch end 0"])
    }

    @Test func anUnknownGestureKindIsAProtocolError() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        #expect(throws: ClientError.self) { try client.inject { tactile_test_input_v1_touchpad_gesture_begin($0, 7, 3) } }
        #expect(client.lastError.hasSuffix(": \(TACTILE_TEST_INPUT_V1_ERROR_INVALID_GESTURE.rawValue)"))
    }
}
