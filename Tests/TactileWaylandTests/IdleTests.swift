import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Screens that sleep (`idle`): after the timeout with no input every output's panel is off
/// (an output-power client hears it); the input that wakes them goes nowhere with `wake:
/// swallow`, the whole touch or key, and reaches the app with `deliver`; a held finger and a
/// visible window's idle inhibitor keep them on; swayidle runs its commands; a tool turns a
/// panel off and on.
@Suite(.serialized) struct IdleTests {
    static func idleServer(timeout: Int = 1, wake: IdleSettings.Wake = .swallow, kiosk: Bool = true) throws -> TestServer {
        var configuration = ServerConfiguration(kioskMode: kiosk)
        configuration.idle = IdleSettings(timeout: timeout, wake: wake)
        return try TestServer(configuration)
    }

    /// Listens to the first output's power mode, through a control of it.
    @discardableResult
    static func watchPower(_ client: TestClient) throws -> OpaquePointer {
        let control = try #require(zwlr_output_power_manager_v1_get_output_power(try #require(client.outputPowerManager), client.outputs[0]))
        zwlr_output_power_v1_add_listener(control, Listeners.outputPower, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        return control
    }

    /// Roundtrips until `condition` holds, for at most `seconds`.
    static func wait(_ client: TestClient, seconds: Double = 5, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline {
            usleep(20_000)
            try client.roundtrip()
        }
    }

    static func tap(_ client: TestClient, at point: (Double, Double) = (50, 60), id: Int32 = 1) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, id, f(point.0), f(point.1))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, id, f(point.0 + 5), f(point.1))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, id)
            tactile_test_input_v1_touch_frame(input)
        }
    }

    @Test(arguments: [true, false])
    func theScreensSleepAndTheWakingTouchGoesNowhere(kiosk: Bool) throws {
        let server = try Self.idleServer(kiosk: kiosk)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        try Self.watchPower(client)
        #expect(client.outputPowerEvents == ["on"])
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        #expect(client.outputPowerEvents == ["on", "off"], "asleep after a second without input")
        _ = client.take()
        try Self.tap(client)
        try client.roundtrip()
        #expect(client.outputPowerEvents.last == "on", "the touch woke the screen")
        #expect(client.take().filter { !$0.isKeyboard }.isEmpty, "no part of the waking touch reached the app")
        try Self.tap(client, id: 2)
        let seen = client.take().filter { !$0.isKeyboard }
        #expect(seen.first == .touchDown(surface: client.id(window.surface), id: 2, x: f(50), y: f(60)), "the next touch is the app's: \(seen)")
        #expect(seen.count == 6, "down, motion and up, each with its frame: \(seen)")
    }

    /// An app animating on frame callbacks stops while the screens sleep (no frame is shown)
    /// and goes on once they wake.
    @Test func frameCallbacksWaitWhileTheScreensSleep() throws {
        let server = try Self.idleServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        try Self.watchPower(client)
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        let frame = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 200, height: 200)
        try Self.wait(client, seconds: 0.5) { frame.done }
        #expect(!frame.done, "no frame while asleep")
        try Self.tap(client)
        try Self.wait(client) { frame.done }
        #expect(frame.done, "the frame comes once awake")
    }

    @Test func withWakeDeliverTheWakingTouchReachesTheApp() throws {
        let server = try Self.idleServer(wake: .deliver)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        try Self.watchPower(client)
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        _ = client.take()
        try Self.tap(client)
        #expect(client.outputPowerEvents.last == "on")
        #expect(client.take().filter { !$0.isKeyboard }.first == .touchDown(surface: client.id(window.surface), id: 1, x: f(50), y: f(60)))
    }

    /// A key that wakes the screens is swallowed with its release; the next key is typed.
    @Test func aWakingKeyIsSwallowedWithItsRelease() throws {
        let server = try Self.idleServer()
        let client = try TestClient(socket: server.socket)
        _ = try client.toplevel(width: 200, height: 200)
        try Self.watchPower(client)
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_key(input, 30, 1)
            tactile_test_input_v1_key(input, 30, 0)
            tactile_test_input_v1_key(input, 48, 1)
            tactile_test_input_v1_key(input, 48, 0)
        }
        let keys = client.take().filter { if case .key = $0 { true } else { false } }
        #expect(keys == [.key(key: 48, state: 1), .key(key: 48, state: 0)], "only the second key: \(keys)")
    }

    /// A finger resting on the screen is someone there: no sleep while it is down.
    @Test func aHeldTouchKeepsTheScreensOn() throws {
        let server = try Self.idleServer()
        let client = try TestClient(socket: server.socket)
        _ = try client.toplevel(width: 200, height: 200)
        try Self.watchPower(client)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(50))
            tactile_test_input_v1_touch_frame(input)
        }
        try Self.wait(client, seconds: 2.5) { client.outputPowerEvents.last == "off" }
        #expect(client.outputPowerEvents == ["on"], "on while the finger rests")
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        #expect(client.outputPowerEvents == ["on", "off"], "asleep once it lifted and a timeout passed")
    }

    /// A video's inhibitor keeps the screens on while its surface is mapped (here a
    /// subsurface of a window); it goes with its surface, and one on a surface with nothing
    /// shown keeps nothing on.
    @Test func aVisibleSurfacesInhibitorKeepsTheScreensOnAndGoesWithIt() throws {
        let server = try Self.idleServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        let video = try client.subsurface(of: window.surface, width: 100, height: 100)
        wl_surface_commit(window.surface)
        try Self.watchPower(client)
        _ = zwp_idle_inhibit_manager_v1_create_inhibitor(try #require(client.idleInhibitManager), video.surface)
        try Self.wait(client, seconds: 2.5) { client.outputPowerEvents.last == "off" }
        #expect(client.outputPowerEvents == ["on"], "kept on by the visible surface's inhibitor")
        wl_subsurface_destroy(video.role)
        wl_surface_destroy(video.surface)
        let hidden = wl_compositor_create_surface(client.compositor)
        _ = zwp_idle_inhibit_manager_v1_create_inhibitor(client.idleInhibitManager, hidden)
        try Self.wait(client) { client.outputPowerEvents.last == "off" }
        #expect(client.outputPowerEvents == ["on", "off"], "the inhibitor went with its surface; one on an unmapped surface keeps nothing on")
    }

    /// `swayidle -w timeout 1 'touch IDLE' resume 'touch RESUMED'`: IDLE after a second
    /// without input, RESUMED at the next touch.
    @Test func swayidleRunsItsTimeoutAndResumeCommands() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let folder = NSTemporaryDirectory() + "tactile-swayidle-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let swayidle = try ClientProcess(["swayidle", "-w", "timeout", "1", "touch \(folder)/idle", "resume", "touch \(folder)/resumed"], socket: server.socket)
        defer { swayidle.stop() }
        let exists = { (name: String) in FileManager.default.fileExists(atPath: "\(folder)/\(name)") }
        try Self.wait(client) { exists("idle") }
        #expect(exists("idle"), "the timeout command ran: \(swayidle.outputSoFar)")
        #expect(!exists("resumed"))
        try Self.tap(client)
        try Self.wait(client) { exists("resumed") }
        #expect(exists("resumed"), "the resume command ran at the touch: \(swayidle.outputSoFar)")
    }

    /// A visible window's inhibitor holds swayidle's timeout back (on a server whose screens
    /// never sleep); once it goes, the timeout counts from then.
    @Test func aVisibleInhibitorHoldsIdleNotificationsBack() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200)
        let inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(try #require(client.idleInhibitManager), window.surface)
        try client.roundtrip()
        let folder = NSTemporaryDirectory() + "tactile-swayidle-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let swayidle = try ClientProcess(["swayidle", "-w", "timeout", "1", "touch \(folder)/idle"], socket: server.socket)
        defer { swayidle.stop() }
        let idle = { FileManager.default.fileExists(atPath: "\(folder)/idle") }
        try Self.wait(client, seconds: 2.5, until: idle)
        #expect(!idle(), "held back while the inhibiting window is shown")
        zwp_idle_inhibitor_v1_destroy(inhibitor)
        try Self.wait(client, until: idle)
        #expect(idle(), "idled a second after the inhibitor went: \(swayidle.outputSoFar)")
    }

    /// Version 2's input notification counts input alone: a visible window's inhibitor holds
    /// the plain notification back, not it (a kiosk's reset to its start page while a video
    /// plays), and the next touch resumes it.
    @Test func anInputIdleNotificationIgnoresInhibitors() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        #expect(client.globals["ext_idle_notifier_v1"] == 2)
        let window = try client.toplevel(width: 200, height: 200)
        _ = zwp_idle_inhibit_manager_v1_create_inhibitor(try #require(client.idleInhibitManager), window.surface)
        let notifier = try client.bind("ext_idle_notifier_v1", tactile_ext_idle_notifier_v1_interface(), version: 2)
        let plain = IdleEvents(), input = IdleEvents()
        plain.listen(to: try #require(ext_idle_notifier_v1_get_idle_notification(notifier, 300, client.seat)))
        input.listen(to: try #require(ext_idle_notifier_v1_get_input_idle_notification(notifier, 300, client.seat)))
        try Self.wait(client) { input.heard == ["idled"] }
        #expect(input.heard == ["idled"], "idled 300 ms after the last input, the inhibitor notwithstanding")
        try Self.wait(client, seconds: 1) { !plain.heard.isEmpty }
        #expect(plain.heard.isEmpty, "held back by the visible window's inhibitor")
        try Self.tap(client)
        try Self.wait(client) { input.heard.count == 2 }
        #expect(input.heard == ["idled", "resumed"], "resumed at the touch")
        #expect(plain.heard.isEmpty)
    }

    /// What one ext_idle_notification_v1 heard.
    final class IdleEvents {
        var heard: [String] = []
        nonisolated(unsafe) static let listener: UnsafeMutablePointer<ext_idle_notification_v1_listener> = {
            let pointer = UnsafeMutablePointer<ext_idle_notification_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: ext_idle_notification_v1_listener(
                idled: { data, _ in Unmanaged<IdleEvents>.fromOpaque(data!).takeUnretainedValue().heard.append("idled") },
                resumed: { data, _ in Unmanaged<IdleEvents>.fromOpaque(data!).takeUnretainedValue().heard.append("resumed") }
            ))
            return pointer
        }()

        func listen(to notification: OpaquePointer) {
            ext_idle_notification_v1_add_listener(notification, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// An output-power tool turns the panel off and on; a second control of the same output
    /// fails; a mode that is neither is the protocol's error. Input does not wake a panel a
    /// tool turned off: that tool decides.
    @Test func anOutputPowerToolTurnsThePanelOffAndOn() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let control = try Self.watchPower(client)
        let other = try TestClient(socket: server.socket)
        try Self.watchPower(other)
        #expect(client.outputPowerEvents == ["on"])
        #expect(other.outputPowerEvents == ["failed"], "one control per output: the first client holds it")

        zwlr_output_power_v1_set_mode(control, 0)
        try client.roundtrip()
        #expect(client.outputPowerEvents.last == "off")
        try Self.tap(other)
        try client.roundtrip()
        #expect(client.outputPowerEvents.last == "off", "input leaves a panel a tool turned off")
        zwlr_output_power_v1_set_mode(control, 1)
        try client.roundtrip()
        #expect(client.outputPowerEvents.last == "on")
        zwlr_output_power_v1_set_mode(control, 7)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": 1"), "invalid_mode: \(client.lastError)")
        try other.roundtrip()
    }

    /// The output a control is for goes: the control fails.
    @Test func aControlFailsWhenItsOutputGoes() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 320, height: 240)]))
        let client = try TestClient(socket: server.socket)
        let control = try #require(zwlr_output_power_manager_v1_get_output_power(try #require(client.outputPowerManager), client.outputs[1]))
        zwlr_output_power_v1_add_listener(control, Listeners.outputPower, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        server.onServerThread { _, headless in headless.removeOutput(headless.outputs[1]) }
        try client.roundtrip()
        #expect(client.outputPowerEvents == ["on", "failed"])
        zwlr_output_power_v1_set_mode(control, 0)
        try client.roundtrip()
    }
}
