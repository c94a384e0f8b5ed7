import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// wp_fifo_v1 and wp_commit_timer_v1, as Mesa's Vulkan presentation uses them: a burst of
/// updates that each wait for the barrier the one before set is shown one per refresh, in
/// order; an update with a target time is not shown before it, and holds no other client's.
@Suite(.serialized) struct FramePacingTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020, blue: UInt32 = 0xff20_20d0, white: UInt32 = 0xffe0_e0e0

    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer(headless: .init(outputs: [Size(width: 640, height: 480)]))
        client = try TestClient(socket: server.socket)
    }

    /// Roundtrips until `condition`, for at most `seconds`.
    func wait(seconds: Double = 4, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline {
            try client.roundtrip()
            usleep(2000)
        }
    }

    func colour() throws -> UInt32 { try Screenshot(socket: server.socket).colour(at: 10, 10) }

    /// A window showing red, its first frame shown.
    func window() throws -> Window {
        let window = try client.toplevel(width: 200, height: 100, at: (0, 0))
        let first = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 200, height: 100, colour: Self.red)
        try wait { first.done }
        return window
    }

    /// Three updates committed at once: each frame callback's time, and the colours seen.
    func burst(_ window: Window, fifo: OpaquePointer?) throws -> (times: [UInt32], first: UInt32) {
        var frames: [RequestedFrame] = []
        for colour in [Self.green, Self.blue, Self.white] {
            if let fifo {
                wp_fifo_v1_wait_barrier(fifo)
                wp_fifo_v1_set_barrier(fifo)
            }
            frames.append(RequestedFrame(window.surface))
            try client.commitBuffer(window.surface, width: 200, height: 100, colour: colour)
        }
        try client.roundtrip()
        let first = try colour()
        try wait { frames.allSatisfy { $0.done } }
        let allDone = frames.allSatisfy { $0.done }
        #expect(allDone, "every update was shown")
        let last = try colour()
        #expect(last == Self.white & 0xff_ffff, "the last one stays")
        return (frames.compactMap(\.time), first)
    }

    @Test func aFifoBurstIsShownOneUpdatePerRefreshInOrder() throws {
        let window = try window()
        let fifo = wp_fifo_manager_v1_get_fifo(try client.bind("wp_fifo_manager_v1", tactile_wp_fifo_manager_v1_interface()), window.surface)
        // (What grim sees first is not asked: grim takes longer to start than two refreshes.)
        let (times, _) = try burst(window, fifo: fifo)
        #expect(times.count == 3 && times[1] &- times[0] >= 10 && times[2] &- times[1] >= 10, "a refresh (16.7 ms) apart: \(times)")
    }

    /// The same burst without fifo: every update applies at once, and all three callbacks
    /// are done with the one frame that shows the last.
    @Test func withoutFifoTheBurstIsOneFrame() throws {
        let window = try window()
        let (times, first) = try burst(window, fifo: nil)
        #expect(first == Self.white & 0xff_ffff)
        #expect(Set(times).count == 1, "\(times)")
    }

    @Test func anUpdateWithATargetTimeWaitsForItAndHoldsNoOtherClient() throws {
        let window = try window()
        let other = try TestClient(socket: server.socket)
        let otherWindow = try other.toplevel(width: 100, height: 100, at: (300, 0))
        try other.commitBuffer(otherWindow.surface, width: 100, height: 100, colour: Self.red)
        try other.roundtrip()
        let timer = wp_commit_timing_manager_v1_get_timer(try client.bind("wp_commit_timing_manager_v1", tactile_wp_commit_timing_manager_v1_interface()),
                                                          window.surface)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let target = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) + 1_500_000_000
        wp_commit_timer_v1_set_timestamp(timer, UInt32((target / 1_000_000_000) >> 32), UInt32(truncatingIfNeeded: target / 1_000_000_000),
                                         UInt32(target % 1_000_000_000))
        let frame = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 200, height: 100, colour: Self.green)
        try client.roundtrip()
        #expect(!frame.done)
        #expect(try colour() == Self.red & 0xff_ffff, "not before its time")
        try other.commitBuffer(otherWindow.surface, width: 100, height: 100, colour: Self.blue)
        try other.roundtrip()
        #expect(try Screenshot(socket: server.socket).colour(at: 310, 10) == Self.blue & 0xff_ffff, "another client's update is shown at once")
        try wait { frame.done }
        let shown = try colour()
        #expect(frame.done && shown == Self.green & 0xff_ffff)
        let targetMilliseconds = UInt32(truncatingIfNeeded: target / 1_000_000)
        #expect(frame.time.map { Int32(bitPattern: $0 &- targetMilliseconds) >= 0 } == true, "shown at or after \(targetMilliseconds): \(frame.time ?? 0)")
    }

    @Test func wrongUsesAreErrors() throws {
        try server.expectProtocolError("wp_fifo_manager_v1", WP_FIFO_MANAGER_V1_ERROR_ALREADY_EXISTS.rawValue) { client in
            let manager = try client.bind("wp_fifo_manager_v1", tactile_wp_fifo_manager_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_fifo_manager_v1_get_fifo(manager, surface)
            _ = wp_fifo_manager_v1_get_fifo(manager, surface)
        }
        try server.expectProtocolError("wp_fifo_v1", WP_FIFO_V1_ERROR_SURFACE_DESTROYED.rawValue) { client in
            let surface = wl_compositor_create_surface(client.compositor)
            let fifo = wp_fifo_manager_v1_get_fifo(try client.bind("wp_fifo_manager_v1", tactile_wp_fifo_manager_v1_interface()), surface)
            wl_surface_destroy(surface)
            wp_fifo_v1_set_barrier(fifo)
        }
        func timer(_ client: TestClient) throws -> OpaquePointer {
            wp_commit_timing_manager_v1_get_timer(try client.bind("wp_commit_timing_manager_v1", tactile_wp_commit_timing_manager_v1_interface()),
                                                  wl_compositor_create_surface(client.compositor))
        }
        try server.expectProtocolError("wp_commit_timer_v1", WP_COMMIT_TIMER_V1_ERROR_INVALID_TIMESTAMP.rawValue) { client in
            wp_commit_timer_v1_set_timestamp(try timer(client), 0, 1, 1_000_000_000)
        }
        try server.expectProtocolError("wp_commit_timer_v1", WP_COMMIT_TIMER_V1_ERROR_TIMESTAMP_EXISTS.rawValue) { client in
            let timer = try timer(client)
            wp_commit_timer_v1_set_timestamp(timer, 0, 1, 0)
            wp_commit_timer_v1_set_timestamp(timer, 0, 2, 0)
        }
        try server.expectProtocolError("wp_commit_timing_manager_v1", WP_COMMIT_TIMING_MANAGER_V1_ERROR_COMMIT_TIMER_EXISTS.rawValue) { client in
            let manager = try client.bind("wp_commit_timing_manager_v1", tactile_wp_commit_timing_manager_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_commit_timing_manager_v1_get_timer(manager, surface)
            _ = wp_commit_timing_manager_v1_get_timer(manager, surface)
        }
    }

    /// A target far in the future holds only that surface's updates, and only eight of them:
    /// a ninth applies the oldest, so the client cannot make the server keep its buffers.
    @Test func aTargetFarAwayHoldsAtMostEightUpdates() throws {
        let window = try window()
        let timer = wp_commit_timing_manager_v1_get_timer(try client.bind("wp_commit_timing_manager_v1", tactile_wp_commit_timing_manager_v1_interface()),
                                                          window.surface)
        for colour in [Self.green, Self.blue, Self.white, Self.green, Self.blue, Self.white, Self.green, Self.blue, Self.white] {
            wp_commit_timer_v1_set_timestamp(timer, 0xffff_ffff, 0xffff_ffff, 0)
            try client.commitBuffer(window.surface, width: 200, height: 100, colour: colour)
        }
        try client.roundtrip()
        #expect(try colour() == Self.green & 0xff_ffff, "the first of nine applied, eight wait")
    }
}
