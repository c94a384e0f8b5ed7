import CWaylandClient
import Foundation
import Glibc
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Frame callbacks over the wire on the headless output's 60 Hz vblanks: an app no finger
/// touches hears `done` at the vblank that showed its frame; an app a finger is moving on
/// hears it later in the refresh, once its draw time is known (its frame then shows a newer
/// touch), before the next vblank; its frames are still shown. The sanitizer passes leave
/// it out: their slowdown makes every budget the whole refresh.
@Suite(.serialized) struct ClientFrameClockTests {
    /// Commits a frame of `window` with a frame callback and presentation feedback and waits
    /// for both: the frame's presentation and the callback's time, in milliseconds.
    static func frame(_ client: TestClient, _ window: Window, colour: UInt32) throws -> (presented: UInt32, done: UInt32) {
        let record = PresentationRecord(client, surface: window.surface)
        let callback = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 200, height: 200, colour: colour)
        let deadline = Date().addingTimeInterval(5)
        while !(callback.done && record.answered), Date() < deadline {
            usleep(200)
            try client.roundtrip()
        }
        let presented = try #require(record.presented, "the frame was shown")
        let done = try #require(callback.time, "the callback came")
        return (UInt32(truncatingIfNeeded: presented.nanoseconds / 1_000_000), done)
    }

    @Test func aMovingFingersAppHearsLaterInTheRefreshAnUntouchedOneAtTheVblank() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        var untouched: [Int64] = []
        for k in 0..<6 {
            let (presented, done) = try Self.frame(client, window, colour: 0xff00_0000 | UInt32(k * 30))
            untouched.append(Int64(done) - Int64(presented))
        }
        #expect(untouched.allSatisfy { $0 >= 0 } && untouched.sorted()[untouched.count / 2] <= 1,
                "done at the vblank that showed the frame (ms after it): \(untouched)")

        try client.inject { tactile_test_input_v1_touch_down($0, 1, f(100), f(100)); tactile_test_input_v1_touch_frame($0) }
        var touched: [Int64] = []
        for k in 0..<20 {
            let x = f(100 + Double(k))
            try client.inject { tactile_test_input_v1_touch_motion($0, 1, x, f(100)); tactile_test_input_v1_touch_frame($0) }
            let colour: UInt32 = 0xff00_0080 | UInt32(k * 10) << 8
            let (presented, done) = try Self.frame(client, window, colour: colour)
            touched.append(Int64(done) - Int64(presented))
        }
        try client.inject { tactile_test_input_v1_touch_up($0, 1); tactile_test_input_v1_touch_frame($0) }
        #expect(touched.allSatisfy { $0 >= 0 }, "never before the vblank that showed the frame (ms after it): \(touched)")
        #expect(touched.dropFirst().contains { $0 >= 2 && $0 < 17 },
                "held into the refresh once the app's draw time was known, and sent before the next vblank: \(touched)")
    }

    /// A hostile client asking for thousands of callbacks a frame, while a finger moves on
    /// it: every one comes, once, and its frames are still shown.
    @Test func thousandsOfCallbacksAFrameEachComeOnce() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        try client.inject { tactile_test_input_v1_touch_down($0, 1, f(100), f(100)); tactile_test_input_v1_touch_frame($0) }
        for k in 0..<4 {
            let x = f(100 + Double(k))
            try client.inject { tactile_test_input_v1_touch_motion($0, 1, x, f(100)); tactile_test_input_v1_touch_frame($0) }
            let many = (0..<5000).map { _ in RequestedFrame(window.surface) }
            let (_, done) = try Self.frame(client, window, colour: 0xff00_0000 | UInt32(k * 50))
            let deadline = Date().addingTimeInterval(5)
            while !many.allSatisfy(\.done), Date() < deadline {
                usleep(1_000)
                try client.roundtrip()
            }
            #expect(many.allSatisfy { $0.doneCount == 1 && $0.time == done }, "frame \(k): each of 5,000 callbacks done once, with the frame's own")
            for frame in many { wl_callback_destroy(frame.proxy) }
        }
    }
}
