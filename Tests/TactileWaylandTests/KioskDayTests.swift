import CWaylandClient
import Foundation
import GestureConfiguration
import Responder
@testable import TactileTestSupport
@testable import TactileWayland
import Testing
import WaylandProtocols

/// A kiosk's day as a real client sees it: the reset warning drawn over the app and the
/// touch that dismisses it reaching nothing, the session starting over when nobody comes,
/// cleaning that swallows a whole drag (and a gesture), and the staff door's pad, which
/// counts wrong PINs, locks out after five and opens for the right one. Touches come through
/// test input; the overlays are read off the composed frame with grim.
@Suite(.serialized) struct KioskDayTests {
    static let windowColour: UInt32 = 0x30_6030

    /// A kiosk with `configure`'s settings and a 1280x800 window filling the headless output.
    static func kiosk(_ configure: (inout ServerConfiguration) -> Void) throws -> (TestServer, TestClient, Window) {
        var configuration = ServerConfiguration(kioskMode: true)
        configure(&configuration)
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        try client.commitBuffer(window.surface, width: 1280, height: 800, colour: 0xff00_0000 | windowColour)
        try client.roundtrip()
        _ = client.take()
        return (server, client, window)
    }

    /// Where the screenshots for the docs go, beside the test binary.
    static var products: String { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path }

    static func touches(_ client: TestClient) -> [Seen] { client.take().filter { !$0.isKeyboard && $0 != .touchFrame } }

    static func wait(_ client: TestClient, seconds: Double, until condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition(), Date() < deadline {
            usleep(50_000)
            try client.roundtrip()
        }
    }

    /// How many times the server asked its host to start the session over.
    final class Resets: Sendable {
        let count = Locked(0)
    }

    static func countResets(_ server: TestServer) -> Resets {
        let resets = Resets()
        server.onServerThread { server, _ in server.port.onSessionReset = { resets.count.withLock { $0 += 1 } } }
        return resets
    }

    static func statistics(_ server: TestServer) -> ServerStatistics {
        let taken = Locked<ServerStatistics?>(nil)
        server.onServerThread { server, _ in taken.withLock { $0 = server.statistics } }
        return taken.withLock { $0! }
    }

    /// Darker than the window: the warning's shade is over it.
    static func shaded(_ colour: UInt32) -> Bool {
        (colour >> 8) & 0xff < (windowColour >> 8) & 0xff / 2
    }

    @Test func theWarningShowsOverTheAppAndTheTouchThatDismissesItReachesNothing() throws {
        // A warning long enough for two screenshots under a sanitizer's slowdown; the test does
        // not wait for its end.
        let (server, client, _) = try Self.kiosk { $0.sessionReset = SessionResetSettings(resetAfter: 1, warning: 15) }
        let resets = Self.countResets(server)
        try client.tap(100, 100)
        _ = Self.touches(client)
        try Self.wait(client, seconds: 4) { Self.shaded(try Screenshot(socket: server.socket).colour(at: 5, 5)) }
        let shot = try Screenshot(socket: server.socket)
        #expect(Self.shaded(shot.colour(at: 5, 5)), "the app is shaded a second after the last touch: \(String(shot.colour(at: 5, 5), radix: 16))")
        #expect(shot.colours(every: 3).contains(0xff_ffff), "the warning's white text")
        try Screenshot.savePNG(socket: server.socket, at: "\(Self.products)/screenshots/reset-warning.png")
        try client.tap(640, 400, id: 7)
        try client.roundtrip()
        #expect(Self.touches(client) == [], "the dismissing touch reached no app")
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "the warning went")
        Thread.sleep(forTimeInterval: 0.6)
        try client.tap(640, 400, id: 8)
        #expect(Self.touches(client).first.map { if case .touchDown = $0 { true } else { false } } == true, "the next touch is the app's")
        // A second after that touch, the warning comes again, drawn though it shows what it
        // showed when dismissed.
        try Self.wait(client, seconds: 4) { Self.shaded(try Screenshot(socket: server.socket).colour(at: 5, 5)) }
        #expect(Self.shaded(try Screenshot(socket: server.socket).colour(at: 5, 5)), "the warning again")
        #expect(resets.count.withLock { $0 } == 0)
    }

    @Test func theSessionStartsOverWhenTheWarningRunsOutAndNotAgainUntilSomeoneComes() throws {
        let (server, client, _) = try Self.kiosk { $0.sessionReset = SessionResetSettings(resetAfter: 1, warning: 1) }
        let resets = Self.countResets(server)
        Thread.sleep(forTimeInterval: 1.5)
        try client.roundtrip()
        #expect(resets.count.withLock { $0 } == 0, "nobody used the session yet: nothing to start over")
        try client.tap(100, 100)
        try Self.wait(client, seconds: 4) { resets.count.withLock { $0 } == 1 }
        #expect(resets.count.withLock { $0 } == 1, "reset a second after the second's warning")
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "the warning went with the reset")
        #expect(Self.statistics(server).sessionResets == 1)
        Thread.sleep(forTimeInterval: 2.5)
        try client.roundtrip()
        #expect(resets.count.withLock { $0 } == 1, "no second reset without someone coming")
    }

    @Test func aWarningDueWhileTheScreensSleepIsSkippedAndTheSessionStartsOverAtOnce() throws {
        let (server, client, _) = try Self.kiosk {
            $0.sessionReset = SessionResetSettings(resetAfter: 2, warning: 30)
            $0.idle = IdleSettings(timeout: 1)
        }
        let resets = Self.countResets(server)
        try client.tap(100, 100)
        try Self.wait(client, seconds: 4) { resets.count.withLock { $0 } == 1 }
        #expect(resets.count.withLock { $0 } == 1, "asleep when the warning was due: reset without it")
    }

    @Test func cleaningSwallowsADragAndAGestureThenTheScreenComesBack() throws {
        let (server, client, window) = try Self.kiosk {
            $0.cleaning = CleaningSettings(duration: 5, endHold: 0)
            $0.gestures = [GestureBinding(name: "swipe-down", recognizer: Swipe(fingers: 1, direction: .down, distance: 50))]
        }
        server.onServerThread { server, _ in server.port.startCleaning() }
        try client.roundtrip()
        let shot = try Screenshot(socket: server.socket)
        #expect(Self.shaded(shot.colour(at: 5, 5)), "the cleaning screen covers the app")
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(300), f(100))
            tactile_test_input_v1_touch_frame(input)
            for step in 1...48 {
                tactile_test_input_v1_touch_motion(input, 1, f(300), f(100 + Double(step) * 10))
                tactile_test_input_v1_touch_frame(input)
            }
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(Self.touches(client) == [], "none of the drag's 50 touch events reached the app")
        #expect(Self.statistics(server).gesturesRecognized.values.allSatisfy { $0 == 0 }, "nor the swipe it would have been")
        try Self.wait(client, seconds: 8) { try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour }
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "the screen as it was")
        try client.tap(200, 200, id: 2)
        #expect(Self.touches(client).first == .touchDown(surface: client.id(window.surface), id: 2, x: f(200), y: f(200)))
        #expect(Self.statistics(server).cleanings == 1)
    }

    /// Overlays are above the session lock: cleaning shades swaylock's kind of surface too,
    /// and the lock client hears none of its touches; once it is over, the lock does.
    @Test func cleaningShowsOverTheLockAndTheLockHearsNoneOfItsTouches() throws {
        let (server, _, _) = try Self.kiosk { $0.cleaning = CleaningSettings(duration: 3, endHold: 0) }
        let locker = try TestClient(socket: server.socket)
        _ = try SessionLockTests.lock(locker)
        server.onServerThread { server, _ in server.port.startCleaning() }
        try locker.roundtrip()
        let green = try Screenshot(socket: server.socket).colour(at: 640, 400)
        #expect((green >> 8) & 0xff < 0x40, "the lock's green shaded: \(String(green, radix: 16))")
        _ = locker.take()
        try locker.tap(640, 400)
        #expect(SessionLockTests.touchDowns(locker) == [], "cleaning took the tap")
        try Self.wait(locker, seconds: 6) { try Screenshot(socket: server.socket).colour(at: 640, 400) == 0x00_ff00 }
        try locker.tap(640, 400, id: 2)
        #expect(SessionLockTests.touchDowns(locker).count == 1, "the lock hears the next tap")
    }

    @Test func aFingerHeldStillInACornerEndsCleaningEarly() throws {
        let (server, client, _) = try Self.kiosk { $0.cleaning = CleaningSettings(duration: 60, endHold: 1) }
        server.onServerThread { server, _ in server.port.startCleaning() }
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(1270), f(790))
            tactile_test_input_v1_touch_frame(input)
        }
        try Self.wait(client, seconds: 3) { try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour }
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "over a second after the finger came down")
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(Self.touches(client) == [], "the finger that ended it is cleaning's to its end")
    }

    /// A door whose knock is a quick long press in the top-right corner, then two taps.
    static func door(opens: StaffDoorOpens = .run("true")) throws -> (TestServer, TestClient, Window, Locked<[StaffDoorOpens]>, KnockListener) {
        let hash = try #require(StaffPin.hash("2468"))
        let (server, client, window) = try kiosk {
            $0.staff = StaffSettings(pinHash: hash, corner: .topRight, taps: 2, opens: opens)
            $0.gestures = [GestureBinding(name: "staff-door", recognizer: LongPress(duration: .milliseconds(200), corner: (.topRight, 80)), action: .staffDoor)]
        }
        let opened = Locked<[StaffDoorOpens]>([])
        server.onServerThread { server, _ in server.port.onStaffDoorOpened = { opens in opened.withLock { $0.append(opens) } } }
        // The gesture's action is the host's (GestureActions); here the test is the host,
        // and keeps the delegate the server holds weakly.
        let listener = KnockListener()
        server.onServerThread { server, _ in
            listener.port = server.port
            server.port.gestureDelegate = listener
        }
        return (server, client, window, opened, listener)
    }

    final class KnockListener: GestureDelegate, @unchecked Sendable {
        var port: ServerPort?
        func gesture(_ event: GestureEvent, of binding: GestureBinding) {
            if event.state == .began, binding.action == .staffDoor { port?.staffKnocked(at: event.detail.location) }
        }
    }

    /// A finger held 600 ms at `point`: well past the door's 200 ms press, even under a
    /// sanitizer's slowdown.
    static func hold(_ client: TestClient, at point: (Double, Double)) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(point.0), f(point.1))
            tactile_test_input_v1_touch_frame(input)
        }
        Thread.sleep(forTimeInterval: 0.6)
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
    }

    static func knock(_ client: TestClient) throws {
        try Self.hold(client, at: (1250, 30))
        try client.tap(1252, 32, id: 2)
        try client.tap(1248, 28, id: 3)
        try client.roundtrip()
    }

    /// Taps the pad's keys for `digits`, then OK.
    static func type(_ digits: String, on client: TestClient, id: inout Int32, ok: Bool = true) throws {
        let keys = PinPad.keys(in: Rect(x: 0, y: 0, width: 1280, height: 800))
        for character in digits + (ok ? "K" : "") {
            let key: PinPad.Key = character == "K" ? .ok : .digit(UInt8(String(character))!)
            let rect = try #require(keys.first { $0.key == key }?.rect)
            try client.tap(Double(rect.x + rect.width / 2), Double(rect.y + rect.height / 2), id: id)
            id += 1
        }
        try client.roundtrip()
    }

    @Test func theRightPINOpensTheDoorAndNoDigitReachesTheApp() throws {
        let (server, client, _, opened, listener) = try Self.door()
        defer { withExtendedLifetime(listener) {} }
        try Self.knock(client)
        #expect(Self.shaded(try Screenshot(socket: server.socket).colour(at: 5, 5)), "the pad is shown over the app")
        _ = Self.touches(client)
        let trace = TraceOverTheWireTests.Lines(server)
        var id: Int32 = 10
        try Self.type("24", on: client, id: &id, ok: false)
        try Screenshot.savePNG(socket: server.socket, at: "\(Self.products)/screenshots/staff-pin-pad.png")
        try Self.type("68", on: client, id: &id)
        #expect(trace.take().filter { $0.hasPrefix("touch") }.isEmpty, "the trace shows none of the pad's touches")
        #expect(opened.withLock { $0 } == [.run("true")])
        #expect(Self.touches(client) == [], "no key's touch reached the app")
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "the pad went")
        #expect(Self.statistics(server).staffPinAttempts == ["right": 1])
    }

    @Test func fiveWrongPINsLockThePadAndTheRightOneThenOpensNothing() throws {
        let (server, client, _, opened, listener) = try Self.door()
        defer { withExtendedLifetime(listener) {} }
        try Self.knock(client)
        let knocked = Self.touches(client)
        #expect(knocked.last == .touchCancel, "the knock's long press took its touch from the app: \(knocked)")
        var id: Int32 = 10
        for _ in 1...5 { try Self.type("1111", on: client, id: &id) }
        try Self.type("2468", on: client, id: &id)
        #expect(opened.withLock { $0 } == [], "locked out for a minute after five wrong PINs")
        #expect(Self.statistics(server).staffPinAttempts == ["wrong": 5, "locked": 1])
        #expect(Self.touches(client) == [])
    }

    @Test func aKnockWithoutItsTapsOpensNothingAndTheNextTouchIsTheApps() throws {
        let (server, client, window, _, listener) = try Self.door()
        defer { withExtendedLifetime(listener) {} }
        try Self.hold(client, at: (1250, 30))
        _ = Self.touches(client)
        try client.tap(400, 400, id: 2)
        #expect(Self.touches(client).first == .touchDown(surface: client.id(window.surface), id: 2, x: f(400), y: f(400)), "a touch away from the corner")
        #expect(try Screenshot(socket: server.socket).colour(at: 5, 5) == Self.windowColour, "no pad")
    }

    @Test func aLongPressAwayFromTheCornerIsNoKnock() throws {
        let (server, client, _, _, listener) = try Self.door()
        defer { withExtendedLifetime(listener) {} }
        try Self.hold(client, at: (640, 400))
        let seen = Self.touches(client)
        #expect(seen.count == 2 && seen.last == .touchUp(id: 1), "the app had the whole press: \(seen)")
        #expect(Self.statistics(server).gesturesRecognized.values.allSatisfy { $0 == 0 })
    }
}
