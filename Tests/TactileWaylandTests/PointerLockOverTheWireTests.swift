import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// A relative-pointer client (a game, a 3D view) with a locked pointer: it hears the mouse's
/// unaccelerated deltas while the cursor stays put; unlocked, the cursor moves again.
@Suite struct PointerLockOverTheWireTests {
    /// What the client's relative pointer and lock heard.
    final class Heard {
        var relative: [(dx: Double, dy: Double, rawDX: Double, rawDY: Double)] = []
        var locks: [String] = []
    }

    nonisolated(unsafe) static let relativeListener: UnsafeMutablePointer<zwp_relative_pointer_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_relative_pointer_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_relative_pointer_v1_listener(relative_motion: { data, _, _, _, dx, dy, rawDX, rawDY in
            Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().relative.append(
                (wl_fixed_to_double(dx), wl_fixed_to_double(dy), wl_fixed_to_double(rawDX), wl_fixed_to_double(rawDY)))
        }))
        return pointer
    }()

    nonisolated(unsafe) static let lockListener: UnsafeMutablePointer<zwp_locked_pointer_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_locked_pointer_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_locked_pointer_v1_listener(
            locked: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().locks.append("locked") },
            unlocked: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().locks.append("unlocked") }
        ))
        return pointer
    }()

    @Test func lockedTheClientGetsUnacceleratedDeltasAndTheCursorStays() throws {
        let server = try TestServer()
        let game = try TestClient(socket: server.socket)
        let heard = Heard()
        let me = Unmanaged.passUnretained(heard).toOpaque()
        let window = try game.toplevel(width: 200, height: 200, at: (0, 0))
        try game.inject { tactile_test_input_v1_pointer_motion($0, f(100), f(100)) }
        let relative = try #require(zwp_relative_pointer_manager_v1_get_relative_pointer(game.relativePointerManager, game.pointer))
        zwp_relative_pointer_v1_add_listener(relative, Self.relativeListener, me)
        let lock = try #require(zwp_pointer_constraints_v1_lock_pointer(game.pointerConstraints, window.surface, game.pointer, nil,
                                                                          ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue))
        zwp_locked_pointer_v1_add_listener(lock, Self.lockListener, me)
        try game.roundtrip()
        #expect(heard.locks == ["locked"])
        _ = game.take()

        try game.inject { tactile_test_input_v1_pointer_motion_relative($0, f(10), f(5), f(4), f(2)) }
        try game.roundtrip()
        #expect(heard.relative.count == 1 && heard.relative.first.map { $0 == (10, 5, 4, 2) } == true)
        #expect(!game.take().contains { if case .pointerMotion = $0 { true } else { false } }, "the locked cursor moved")

        // Unlocked, the same motion moves the cursor from where it stayed.
        zwp_locked_pointer_v1_destroy(lock)
        try game.roundtrip()
        try game.inject { tactile_test_input_v1_pointer_motion_relative($0, f(10), f(5), f(4), f(2)) }
        try game.roundtrip()
        #expect(heard.relative.count == 2)
        #expect(game.take().contains(.pointerMotion(x: f(110), y: f(105))))
    }

    /// A client unlocking puts the cursor where it says its own cursor is (the hint takes
    /// effect with the surface's commit, like the region).
    @Test func unlockingPutsTheCursorAtTheCommittedHint() throws {
        let server = try TestServer()
        let game = try TestClient(socket: server.socket)
        let window = try game.toplevel(width: 200, height: 200, at: (0, 0))
        try game.inject { tactile_test_input_v1_pointer_motion($0, f(100), f(100)) }
        let lock = try #require(zwp_pointer_constraints_v1_lock_pointer(game.pointerConstraints, window.surface, game.pointer, nil,
                                                                          ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue))
        zwp_locked_pointer_v1_set_cursor_position_hint(lock, f(20), f(30))
        wl_surface_commit(window.surface)
        zwp_locked_pointer_v1_set_cursor_position_hint(lock, f(150), f(150))
        try game.roundtrip()
        _ = game.take()
        zwp_locked_pointer_v1_destroy(lock)
        try game.roundtrip()
        #expect(game.take().contains(.pointerMotion(x: f(20), y: f(30))), "the uncommitted hint must not count")
    }

    /// A confinement to the left half of the window, set after the lock was made: it holds
    /// only from the commit on; motion past its edge stops at its last pixel.
    @Test func aConfinementsRegionHoldsFromTheCommitOn() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200, at: (0, 0))
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(50), f(50)) }
        let confined = try #require(zwp_pointer_constraints_v1_confine_pointer(client.pointerConstraints, window.surface, client.pointer, nil,
                                                                                ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue))
        let half = try #require(wl_compositor_create_region(client.compositor))
        wl_region_add(half, 0, 0, 100, 200)
        zwp_confined_pointer_v1_set_region(confined, half)
        try client.roundtrip()
        _ = client.take()
        try client.inject { tactile_test_input_v1_pointer_motion_relative($0, f(100), f(0), f(100), f(0)) }
        #expect(client.take().contains(.pointerMotion(x: f(150), y: f(50))), "not committed yet: the whole window confines")
        wl_surface_commit(window.surface)
        try client.inject { input in
            tactile_test_input_v1_pointer_motion_relative(input, f(-100), f(0), f(-100), f(0))
            tactile_test_input_v1_pointer_motion_relative(input, f(100), f(10), f(100), f(10))
        }
        #expect(client.take().filter { if case .pointerMotion = $0 { true } else { false } } == [
            .pointerMotion(x: f(50), y: f(50)), .pointerMotion(x: f(99), y: f(60)),
        ])
    }

    @Test func aSecondConstraintOnASurfaceIsAlreadyConstrained() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        _ = zwp_pointer_constraints_v1_lock_pointer(client.pointerConstraints, window.surface, client.pointer, nil, 1)
        _ = zwp_pointer_constraints_v1_confine_pointer(client.pointerConstraints, window.surface, client.pointer, nil, 1)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": \(ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue)"))
    }
}
