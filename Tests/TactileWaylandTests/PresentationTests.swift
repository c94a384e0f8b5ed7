import CWaylandClient
import Foundation
import Glibc
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// wp_presentation and zwp_input_timestamps_v1 over the wire: the clock is CLOCK_MONOTONIC; each commit's feedback says
/// presented, on the output the surface is on, at a time that increases frame to frame, is
/// near the client's own clock and matches the 60 Hz refresh; content replaced before a frame
/// showed it, or of a surface that went, is discarded. Each touch event's nanosecond time
/// comes just before it and agrees with its millisecond time.
@Suite(.serialized) struct PresentationTests {
    static func wait(_ client: TestClient, for records: [PresentationRecord]) throws {
        let deadline = Date().addingTimeInterval(5)
        while !records.allSatisfy(\.answered), Date() < deadline {
            usleep(5_000)
            try client.roundtrip()
        }
    }

    @Test func eachCommitIsPresentedOnItsOutputAtAMonotonicTime() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        #expect(client.presentationClock == UInt32(CLOCK_MONOTONIC))
        let window = try client.toplevel(width: 100, height: 100)
        var records: [PresentationRecord] = []
        for frame in 0..<3 {
            let record = PresentationRecord(client, surface: window.surface)
            let before = monotonicNanoseconds()
            try client.commitBuffer(window.surface, width: 100, height: 100, colour: 0xff00_0000 | UInt32(frame * 40))
            try Self.wait(client, for: [record])
            let after = monotonicNanoseconds()
            let presented = try #require(record.presented, "frame \(frame) presented")
            #expect(presented.nanoseconds >= before && presented.nanoseconds <= after, "on the client's CLOCK_MONOTONIC, between commit and answer")
            #expect(presented.refresh == 16_666_666, "the 60 Hz output's refresh in ns")
            #expect(record.syncOutputs == [client.outputs[0]])
            records.append(record)
        }
        let times = records.compactMap { $0.presented?.nanoseconds }
        #expect(times == times.sorted() && Set(times).count == 3, "each later than the one before: \(times)")
    }

    /// A headless output shows frames at a 60 Hz screen's vblanks: a client that draws each
    /// frame once the last was shown is shown on whole refreshes (to the microsecond the
    /// server's clock keeps), never a refresh after whenever the server got round to it, which
    /// would add each frame's own handling to the next interval.
    @Test func framesAreShownOnWholeRefreshes() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        var times: [UInt64] = []
        for frame in 0..<8 {
            let record = PresentationRecord(client, surface: window.surface)
            try client.commitBuffer(window.surface, width: 100, height: 100, colour: 0xff00_0000 | UInt32(frame * 20))
            try Self.wait(client, for: [record])
            let presented = try #require(record.presented, "frame \(frame) presented")
            #expect(presented.flags & WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue != 0, "at a vblank")
            times.append(presented.nanoseconds)
        }
        let refresh: Int64 = 16_666_666
        for (earlier, later) in zip(times, times.dropFirst()) {
            let interval = Int64(later) - Int64(earlier)
            let refreshes = (interval + refresh / 2) / refresh
            #expect(refreshes >= 1 && abs(interval - refreshes * refresh) <= 2_000, "\(interval) ns apart: whole refreshes")
        }
    }

    @Test func contentReplacedBeforeAFrameShowedItIsDiscarded() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        let first = PresentationRecord(client, surface: window.surface)
        wl_surface_attach(window.surface, try client.buffer(width: 100, height: 100, colour: 0xffff_0000), 0, 0)
        wl_surface_damage(window.surface, 0, 0, 100, 100)
        wl_surface_commit(window.surface)
        let second = PresentationRecord(client, surface: window.surface)
        try client.commitBuffer(window.surface, width: 100, height: 100, colour: 0xff00_ff00)
        try Self.wait(client, for: [first, second])
        #expect(first.discarded, "replaced in the same dispatch, before any frame")
        #expect(second.presented != nil)

        let gone = PresentationRecord(client, surface: window.surface)
        let orphan = try #require(wl_compositor_create_surface(client.compositor))
        let never = PresentationRecord(client, surface: orphan)
        wl_surface_destroy(orphan)
        try client.roundtrip()
        #expect(never.discarded, "its surface went")
        #expect(!gone.answered, "nothing committed yet: nothing to say")
    }

    @Test func eachTouchEventsNanosecondTimeComesJustBeforeItAndAgreesWithItsMilliseconds() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        let timestamps = try #require(zwp_input_timestamps_manager_v1_get_touch_timestamps(try #require(client.inputTimestampsManager), client.touch))
        zwp_input_timestamps_v1_add_listener(timestamps, Listeners.touchTimestamps, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        let before = monotonicNanoseconds()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(50))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(60), f(50))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let after = monotonicNanoseconds()
        #expect(client.touchTimes.count == 3 && client.touchTimestamps.count == 3, "down, motion, up: \(client.touchTimestamps)")
        for (k, stamp) in client.touchTimestamps.enumerated() {
            #expect(stamp.eventsBefore == k, "timestamp \(k) came just before its event")
            #expect(UInt32(truncatingIfNeeded: stamp.nanoseconds / 1_000_000) == client.touchTimes[k], "the same time as the event's milliseconds")
            #expect(stamp.nanoseconds >= before - 1_000_000 && stamp.nanoseconds <= after, "on CLOCK_MONOTONIC")
        }
        zwp_input_timestamps_v1_destroy(timestamps)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 2, f(50), f(50))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.touchTimestamps.count == 3, "none after the subscription ended")
        _ = window
    }
}
