import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// ext_session_lock_v1 with a lock client of ours and Debian's swaylock: while locked, only
/// the lock shows (grim) and only the lock hears touches and keys; a second lock is refused;
/// unlocking gives the app back its screen, input and focus; a lock client that dies leaves
/// the session locked and blank until a new one locks; the protocol's errors.
@Suite(.serialized) struct SessionLockTests {
    static let appColour: UInt32 = 0xff00_00ff, lockColour: UInt32 = 0xff00_ff00

    /// An app window filling the top-left, blue.
    static func app(_ server: TestServer) throws -> (TestClient, Window) {
        let app = try TestClient(socket: server.socket)
        let window = try app.toplevel(width: 400, height: 300, at: (0, 0))
        try app.commitBuffer(window.surface, width: 400, height: 300, colour: appColour)
        try app.roundtrip()
        return (app, window)
    }

    /// Asks to lock, with a lock surface for the first output, and reads the answers.
    static func requestLock(_ client: TestClient) throws -> (lock: OpaquePointer, surface: OpaquePointer, lockSurface: OpaquePointer) {
        let lock = try #require(ext_session_lock_manager_v1_lock(try #require(client.sessionLockManager)))
        ext_session_lock_v1_add_listener(lock, Listeners.sessionLock, Unmanaged.passUnretained(client).toOpaque())
        let surface = try #require(wl_compositor_create_surface(client.compositor))
        let lockSurface = try #require(ext_session_lock_v1_get_lock_surface(lock, surface, client.outputs[0]))
        ext_session_lock_surface_v1_add_listener(lockSurface, Listeners.lockSurface, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        return (lock, surface, lockSurface)
    }

    /// Locks, and shows a green lock surface on the first output.
    static func lock(_ client: TestClient) throws -> (lock: OpaquePointer, surface: OpaquePointer) {
        let (lock, surface, lockSurface) = try requestLock(client)
        let configure = try #require(client.lockConfigures.last)
        ext_session_lock_surface_v1_ack_configure(lockSurface, configure.serial)
        try client.commitBuffer(surface, width: Int32(configure.width), height: Int32(configure.height), colour: lockColour)
        try client.roundtrip()
        return (lock, surface)
    }

    static func touchAndType(_ driver: TestClient) throws {
        try driver.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(60))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_key(input, 30, 1)
            tactile_test_input_v1_key(input, 30, 0)
        }
    }

    static func touchDowns(_ client: TestClient) -> [UInt32] {
        client.take().compactMap { if case .touchDown(let surface, _, _, _) = $0 { surface } else { nil } }
    }

    @Test(arguments: [false, true])
    func whileLockedOnlyTheLockShowsAndHearsInput(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let (app, window) = try Self.app(server)
        let locker = try TestClient(socket: server.socket)
        let (lock, lockSurface) = try Self.lock(locker)
        #expect(locker.lockEvents == ["locked"])
        #expect(locker.lockConfigures.last.map { Size(width: Int($0.width), height: Int($0.height)) } == Size(width: 1280, height: 800), "the output's size")
        let shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 100, 100) == Self.lockColour & 0xff_ffff && shot.colour(at: 1000, 700) == Self.lockColour & 0xff_ffff,
                "the lock covers the screen, the app is not seen")
        _ = app.take()
        _ = locker.take()
        try Self.touchAndType(locker)
        try app.roundtrip()
        #expect(app.take().filter { if case .keyboardLeave = $0 { false } else { true } }.isEmpty, "nothing reaches the app")
        var heard = locker.take()
        #expect(heard.contains(.touchDown(surface: locker.id(lockSurface), id: 1, x: f(50), y: f(60))), "\(heard)")
        #expect(heard.contains(.key(key: 30, state: 1)), "the lock has the keyboard: \(heard)")
        // An on-screen keyboard's keys, too, go to the lock alone.
        let osk = try TestClient(socket: server.socket, devices: [])
        let keyboard = try osk.virtualKeyboard(keymap: try app.seatKeymapText())
        zwp_virtual_keyboard_v1_key(keyboard, 0, 48, WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        zwp_virtual_keyboard_v1_key(keyboard, 0, 48, WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        try osk.roundtrip()
        try locker.roundtrip()
        try app.roundtrip()
        heard = locker.take()
        #expect(heard.contains(.key(key: 48, state: 1)), "the virtual keyboard's key reached the lock: \(heard)")
        #expect(!app.take().contains { if case .key = $0 { true } else { false } }, "and not the app")

        let second = try TestClient(socket: server.socket)
        let refused = try #require(ext_session_lock_manager_v1_lock(try #require(second.sessionLockManager)))
        ext_session_lock_v1_add_listener(refused, Listeners.sessionLock, Unmanaged.passUnretained(second).toOpaque())
        try second.roundtrip()
        #expect(second.lockEvents == ["finished"], "a second lock is refused")
        let intruder = try #require(wl_compositor_create_surface(second.compositor))
        let intruding = try #require(ext_session_lock_v1_get_lock_surface(refused, intruder, second.outputs[0]))
        ext_session_lock_surface_v1_add_listener(intruding, Listeners.lockSurface, Unmanaged.passUnretained(second).toOpaque())
        try second.roundtrip()
        #expect(second.lockConfigures.isEmpty, "a refused lock's surface is never configured, so never shown")

        ext_session_lock_v1_unlock_and_destroy(lock)
        try locker.roundtrip()
        try app.roundtrip()
        #expect(try Screenshot(socket: server.socket).colour(at: 100, 100) == Self.appColour & 0xff_ffff, "the app is seen again")
        _ = app.take()
        try Self.touchAndType(locker)
        try app.roundtrip()
        let back = app.take()
        #expect(back.contains(.touchDown(surface: app.id(window.surface), id: 1, x: f(50), y: f(60))), "\(back)")
        #expect(back.contains(.key(key: 30, state: 1)), "the app has the keyboard again: \(back)")
    }

    /// A configured edge swipe does not begin while locked: the lock's touch from the edge
    /// is never cancelled, and the gesture's action does not run.
    @Test func systemGesturesDoNotBeginWhileLocked() throws {
        var configuration = ServerConfiguration()
        configuration.gestures = [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))]
        let server = try TestServer(configuration)
        let locker = try TestClient(socket: server.socket)
        _ = try Self.lock(locker)
        _ = locker.take()
        try locker.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(200), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let heard = locker.take().filter { !$0.isKeyboard }
        #expect(!heard.contains(.touchCancel), "the swipe did not win the lock's touch: \(heard)")
        #expect(heard.contains(.touchMotion(id: 1, x: f(200), y: f(100))), "\(heard)")
    }

    /// The lock client is killed: the screen stays blank and input reaches nobody; a new
    /// lock client takes over and can unlock.
    @Test func aLockClientThatDiesLeavesTheSessionLockedAndBlank() throws {
        let server = try TestServer()
        let (app, window) = try Self.app(server)
        var locker: TestClient? = try TestClient(socket: server.socket)
        _ = try Self.lock(locker!)
        locker = nil
        let driver = try TestClient(socket: server.socket)
        try driver.roundtrip()
        let blank = try Screenshot(socket: server.socket).colours()
        #expect(blank.count == 1 && !blank.contains(Self.appColour & 0xff_ffff), "blank: one colour, not the app's: \(blank.prefix(3))")
        _ = app.take()
        try Self.touchAndType(driver)
        try app.roundtrip()
        #expect(Self.touchDowns(app).isEmpty, "no touch reaches the app")
        let next = try TestClient(socket: server.socket)
        let (lock, _) = try Self.lock(next)
        #expect(next.lockEvents == ["locked"], "a new lock client takes over")
        ext_session_lock_v1_unlock_and_destroy(lock)
        try next.roundtrip()
        try Self.touchAndType(driver)
        try app.roundtrip()
        #expect(Self.touchDowns(app) == [app.id(window.surface)])
    }

    @Test(arguments: ["destroy while locked", "commit before ack", "wrong size", "same output twice", "unlock a refused lock", "bad serial"])
    func mistakesAreTheProtocolsErrors(_ mistake: String) throws {
        let server = try TestServer()
        let holder = try TestClient(socket: server.socket)
        if mistake == "unlock a refused lock" { _ = try Self.lock(holder) }
        let client = try TestClient(socket: server.socket)
        let (lock, surface, lockSurface) = try Self.requestLock(client)
        let expected: UInt32
        switch mistake {
        case "destroy while locked":
            ext_session_lock_v1_destroy(lock)
            expected = 0
        case "unlock a refused lock":
            ext_session_lock_v1_unlock_and_destroy(lock)
            expected = 1
        case "same output twice":
            _ = ext_session_lock_v1_get_lock_surface(lock, wl_compositor_create_surface(client.compositor), client.outputs[0])
            expected = 3
        case "commit before ack":
            try client.commitBuffer(surface, width: 1280, height: 800)
            expected = 0
        case "wrong size":
            ext_session_lock_surface_v1_ack_configure(lockSurface, try #require(client.lockConfigures.last).serial)
            try client.commitBuffer(surface, width: 640, height: 480)
            expected = 2
        default:
            ext_session_lock_surface_v1_ack_configure(lockSurface, 12345)
            expected = 3
        }
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": \(expected)"), "\(client.lastError)")
        try holder.roundtrip()
    }

    /// wev, a client nobody here wrote, hears nothing while the session is locked: not a
    /// touch, a click or a key (it heard keyboard focus leave as the lock took it); once
    /// unlocked, the next touch is its.
    @Test func wevHearsNothingWhileLocked() throws {
        let server = try TestServer()
        let driver = try TestClient(socket: server.socket, devices: [])
        let wev = try ClientProcess(["stdbuf", "-oL", "wev"], socket: server.socket)
        defer { wev.stop() }
        try wev.waitUntil("wl_pointer] enter") {
            try driver.inject { tactile_test_input_v1_pointer_motion($0, f(1), f(1)) }
        }
        let locker = try TestClient(socket: server.socket)
        let (lock, _) = try Self.lock(locker)
        _ = try wev.waitForOutput(containing: "wl_keyboard] leave")
        try driver.inject { input in
            tactile_test_input_v1_touch_down(input, 3, f(100), f(120))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 3)
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_pointer_motion(input, f(40), f(60))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
            tactile_test_input_v1_key(input, 30, 1)
            tactile_test_input_v1_key(input, 30, 0)
        }
        try locker.roundtrip()
        ext_session_lock_v1_unlock_and_destroy(lock)
        try locker.roundtrip()
        try driver.inject { input in
            tactile_test_input_v1_touch_down(input, 4, f(101), f(121))
            tactile_test_input_v1_touch_frame(input)
        }
        let output = try wev.waitForOutput(containing: "id: 4; x, y: 101.000000, 121.000000")
        let locked = output.components(separatedBy: "wl_keyboard] leave").last ?? ""
        #expect(!locked.contains("id: 3"), "no part of the touch made while locked")
        #expect(!locked.contains("button: 272"), "no click")
        #expect(!locked.contains("wl_keyboard] key"), "no key")
    }

    /// Debian's swaylock locks two outputs, each with its colour; input reaches no app;
    /// killed, it leaves both outputs blank and the session locked.
    @Test func swaylockLocksEveryOutput() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 320, height: 240)]))
        let (app, _) = try Self.app(server)
        let swaylock = try ClientProcess(["swaylock", "--color", "00ff00", "--no-unlock-indicator"], socket: server.socket)
        let deadline = Date().addingTimeInterval(10)
        var shot = try Screenshot(socket: server.socket)
        while shot.colour(at: 700, 100) != 0x00_ff00 || shot.colour(at: 100, 100) != 0x00_ff00, Date() < deadline {
            usleep(50_000)
            shot = try Screenshot(socket: server.socket)
        }
        #expect(shot.colour(at: 100, 100) == 0x00_ff00 && shot.colour(at: 700, 100) == 0x00_ff00, "swaylock's colour on both outputs: \(swaylock.outputSoFar)")
        _ = app.take()
        try Self.touchAndType(app)
        #expect(Self.touchDowns(app).isEmpty, "the app hears nothing while locked")
        swaylock.stop()
        usleep(200_000)
        shot = try Screenshot(socket: server.socket)
        for (x, y) in [(100, 100), (700, 100)] {
            #expect(![0x00_ff00, Self.appColour & 0xff_ffff].contains(shot.colour(at: x, y)), "swaylock gone: blank at (\(x), \(y)), still locked")
        }
        #expect(shot.colour(at: 100, 100) == shot.colour(at: 700, 100))
        try Self.touchAndType(app)
        #expect(Self.touchDowns(app).isEmpty)
    }
}
