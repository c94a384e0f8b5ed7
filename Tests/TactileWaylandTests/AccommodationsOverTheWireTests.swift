import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// The touch accommodations and the secondary click as real clients see them: touches come
/// through test input, the held ones are let go by the server's own timer, and the ring is
/// read off the composed frame.
@Suite(.serialized) struct AccommodationsOverTheWireTests {
    static let windowColour: UInt32 = 0x30_3060

    /// A server with `settings`, a 600x500 window of `appID` at the corner, and its client.
    static func scene(_ settings: AccommodationSettings, appID: String = "org.example.Kiosk", rules: [WindowRule] = [],
                      secondaryClick: Duration? = nil, devices: Set<String> = ["touch", "pointer", "keyboard"]) throws -> (TestServer, TestClient, Window) {
        var configuration = ServerConfiguration()
        configuration.accommodations = settings
        configuration.windowRules = rules
        configuration.routingPolicy.secondaryClick = secondaryClick
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket, devices: devices)
        let window = try client.toplevel(width: 600, height: 500, at: (0, 0)) { xdg_toplevel_set_app_id($0, appID) }
        try client.commitBuffer(window.surface, width: 600, height: 500, colour: 0xff00_0000 | windowColour)
        try client.roundtrip()
        _ = client.take()
        return (server, client, window)
    }

    static func touches(_ client: TestClient) -> [Seen] { client.take().filter { !$0.isKeyboard && $0 != .touchFrame } }

    static func down(_ client: TestClient, _ id: Int32, _ x: Double, _ y: Double) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, id, f(x), f(y))
            tactile_test_input_v1_touch_frame(input)
        }
    }

    static func up(_ client: TestClient, _ id: Int32) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, id)
            tactile_test_input_v1_touch_frame(input)
        }
    }

    /// Under `hold-duration: 300` a quick tap reaches nobody; a press held on reaches the app
    /// once it counts, and meanwhile the server draws the ring under the finger (its centre
    /// white over the app), gone once the hold counted. The trace says both.
    @Test func aHoldCountsOnlyOnceHeldAndTheRingShowsMeanwhile() throws {
        let (server, client, window) = try Self.scene(AccommodationSettings(holdDuration: .milliseconds(300)))
        let trace = TraceOverTheWireTests.Lines(server)
        try client.tap(100, 100)
        Thread.sleep(forTimeInterval: 0.4)
        try client.roundtrip()
        #expect(Self.touches(client) == [], "a 0 ms tap under a 300 ms hold")

        try Self.down(client, 2, 200, 150)
        #expect(Self.touches(client) == [])
        var shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 200, 150) == 0xff_ffff, "the ring's centre under the finger")
        #expect(shot.colour(at: 200, 150 - 27) == 0xff_ffff || shot.colour(at: 200, 150 - 27) != Self.windowColour, "the ring's track above it")
        #expect(shot.colour(at: 300, 400) == Self.windowColour)
        Thread.sleep(forTimeInterval: 0.45)
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 2, x: f(200), y: f(150))])
        shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 200, 150) == Self.windowColour, "no ring once it counted")
        try Self.up(client, 2)
        #expect(Self.touches(client) == [.touchUp(id: 2)])
        let lines = trace.take()
        let counted = Locked<[String: Int]>([:])
        server.onServerThread { server, _ in counted.withLock { $0 = server.statistics.touchesAccommodated } }
        #expect(counted.withLock { $0 } == ["hold-duration": 2], "the metrics count both touches the hold acted on")
        #expect(lines.contains { $0.hasPrefix("touch 1 accommodated by=hold-duration") && $0.contains("verdict=too-short") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("touch 2 accommodated by=hold-duration") && $0.contains("verdict=counted held=300ms") }, "\(lines)")
    }

    /// A window rule with `accommodations: false` takes the app's touches as the finger
    /// makes them, while another app's wait.
    @Test func aWindowRuleExemptsItsApp() throws {
        let rule = WindowRule(appID: "org.example.Paint", accommodations: false, label: "windows[0]")
        let (server, client, window) = try Self.scene(AccommodationSettings(holdDuration: .milliseconds(300)), appID: "org.example.Paint", rules: [rule])
        defer { withExtendedLifetime(server) {} }
        try client.tap(100, 100)
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 1, x: f(100), y: f(100)), .touchUp(id: 1)])
        let (otherServer, other, _) = try Self.scene(AccommodationSettings(holdDuration: .milliseconds(300)), appID: "org.example.Kiosk", rules: [rule])
        defer { withExtendedLifetime(otherServer) {} }
        try other.tap(100, 100)
        #expect(Self.touches(other) == [])
    }

    /// New accommodations while the app runs: off, a tap arrives as it is; on again, it
    /// waits for the hold.
    @Test func accommodationsChangeUnderARunningApp() throws {
        let (server, client, window) = try Self.scene(AccommodationSettings(holdDuration: .milliseconds(300)))
        server.onServerThread { server, _ in server.setAccommodations(AccommodationSettings(), exempting: []) }
        try client.tap(100, 100)
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 1, x: f(100), y: f(100)), .touchUp(id: 1)])
        server.onServerThread { server, _ in server.setAccommodations(AccommodationSettings(ignoreRepeat: .milliseconds(2000)), exempting: []) }
        try client.tap(100, 100)
        try client.tap(104, 100, id: 2)
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 1, x: f(100), y: f(100)), .touchUp(id: 1)])
    }

    /// An app without wl_touch: a finger held still right-clicks where it is, after the
    /// secondary click's wait, with no left button; a quick tap is a left click.
    @Test func aLongPressRightClicksAnAppWithoutTouch() throws {
        let (server, client, _) = try Self.scene(AccommodationSettings(), secondaryClick: .milliseconds(300), devices: ["pointer", "keyboard"])
        defer { withExtendedLifetime(server) {} }
        try Self.down(client, 1, 120, 80)
        Thread.sleep(forTimeInterval: 0.45)
        try Self.up(client, 1)
        let buttons = client.take().filter { if case .pointerButton = $0 { true } else { false } }
        #expect(buttons == [.pointerButton(button: 0x111, state: 1), .pointerButton(button: 0x111, state: 0)])
        try client.tap(120, 80)
        let tap = client.take().filter { if case .pointerButton = $0 { true } else { false } }
        #expect(tap == [.pointerButton(button: 0x110, state: 1), .pointerButton(button: 0x110, state: 0)])
    }
}
