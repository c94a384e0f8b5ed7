import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// The configuration's `windows` rules on two screens: a window goes to the screen its tag or
/// app id names, full screen or not, whatever order the apps start in; one whose screen is
/// not there yet goes there once it comes, and back when it goes.
@Suite(.serialized) struct WindowRulesTests {
    static let rules = [
        WindowRule(tag: "menu board", output: "HEADLESS-2", fullscreen: true, label: "windows[0]"),
        WindowRule(appID: "org.example.till", output: "HEADLESS-1", label: "windows[1]"),
        WindowRule(appID: "org.freedesktop.weston.simple-shm", output: "HEADLESS-2", label: "windows[2]"),
    ]
    static let screens = [Size(width: 640, height: 480), Size(width: 320, height: 240)]

    static func server(kiosk: Bool, screens: [Size] = screens) throws -> TestServer {
        var configuration = ServerConfiguration(kioskMode: kiosk)
        configuration.windowRules = rules
        return try TestServer(configuration, headless: .init(outputs: screens))
    }

    /// The inspector's line for the window of `appID`.
    static func line(of appID: String, on server: TestServer) -> String? {
        server.inspected().first { $0.contains("app_id=\(appID) ") && $0.contains(" window=") }
    }

    /// A window of org.example.till, tagged when `tag` is given, made on `client`.
    static func till(_ client: TestClient, tag: String?) throws -> Window {
        let tags = try client.bind("xdg_toplevel_tag_manager_v1", tactile_xdg_toplevel_tag_manager_v1_interface())
        return try client.toplevel(width: 200, height: 100) { toplevel in
            xdg_toplevel_set_app_id(toplevel, "org.example.till")
            if let tag { xdg_toplevel_tag_manager_v1_set_toplevel_tag(tags, toplevel, tag) }
            xdg_toplevel_tag_manager_v1_set_toplevel_description(tags, toplevel, "Menu board (\u{1b}[31m)")
        }
    }

    /// The menu board (tagged) fills the second screen and the till's main window sits on the
    /// first, in a kiosk and on a desktop, whichever opened first: the tag's rule comes
    /// before the app id's, so the app's two windows part.
    @Test(arguments: [true, false], [true, false])
    func eachWindowGoesWhereItsTagOrAppIDSays(kiosk: Bool, menuFirst: Bool) throws {
        let server = try Self.server(kiosk: kiosk)
        let client = try TestClient(socket: server.socket)
        #expect(client.globals["xdg_toplevel_tag_manager_v1"] == 1)
        var menu: Window?, main: Window?
        if menuFirst { menu = try Self.till(client, tag: "menu board") }
        main = try Self.till(client, tag: nil)
        if !menuFirst { menu = try Self.till(client, tag: "menu board") }
        try client.roundtrip()
        try client.roundtrip()
        let (board, till) = (try #require(menu), try #require(main))
        #expect(board.outputs == [client.outputs[1]], "the menu board is on HEADLESS-2")
        #expect(board.configuredSize.map { [$0.width, $0.height] } == [320, 240])
        #expect(board.configuredStates.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue))
        #expect(till.outputs == [client.outputs[0]], "the till's main window is on HEADLESS-1")
        #expect(!till.configuredStates.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue))
        #expect(till.configuredSize.map { [$0.width, $0.height] } == (kiosk ? [640, 480] : [0, 0]))
    }

    /// weston-simple-shm, which nobody here wrote (app id org.freedesktop.weston.simple-shm),
    /// opens on the second screen in a kiosk and on a desktop.
    @Test(arguments: [true, false])
    func aThirdPartyAppGoesToTheScreenItsAppIDNames(kiosk: Bool) throws {
        let server = try Self.server(kiosk: kiosk)
        let app = try ClientProcess(["weston-simple-shm"], socket: server.socket)
        defer { app.stop() }
        var line: String?
        // Generous: in the full run the host pass has stalled whole seconds at a time while
        // the guests boot, and this only bounds a failure.
        let deadline = Date().addingTimeInterval(30)
        while line == nil, Date() < deadline {
            usleep(50_000)
            line = Self.line(of: "org.freedesktop.weston.simple-shm", on: server)
        }
        let found = try #require(line, "weston-simple-shm mapped: \(app.outputSoFar)")
        #expect(found.contains(" window=640,0,"), "on HEADLESS-2's corner: \(found)")
    }

    /// Its screen not connected yet, the menu board opens where windows go by default, moves
    /// to HEADLESS-2 when it is plugged in (full screen there), and back when it goes.
    @Test func aWindowWaitsForItsScreen() throws {
        let server = try Self.server(kiosk: true, screens: [Self.screens[0]])
        let client = try TestClient(socket: server.socket)
        let board = try Self.till(client, tag: "menu board")
        try client.roundtrip()
        #expect(board.outputs == [client.outputs[0]], "HEADLESS-2 is not there yet")
        server.onServerThread { _, headless in _ = headless.addOutput(size: Size(width: 320, height: 240)) }
        // (The client binds the new wl_output after the window moved there, so wl_surface.enter
        // cannot name it: where the window is comes from the inspector.)
        let there = { Self.line(of: "org.example.till", on: server)?.contains(" window=640,0,") == true }
        try IdleTests.wait(client) { board.configuredSize?.width == 320 && there() }
        #expect(there(), "moved to HEADLESS-2 as it came: \(server.inspected().joined(separator: "\n"))")
        #expect(board.configuredSize.map { [$0.width, $0.height] } == [320, 240])
        server.onServerThread { _, headless in headless.removeOutput(headless.outputs[1]) }
        try IdleTests.wait(client) { board.configuredSize?.width == 640 }
        #expect(board.configuredSize.map { [$0.width, $0.height] } == [640, 480], "back on HEADLESS-1, full screen there")
    }

    /// A tag set after the window mapped moves it to its screen, full screen.
    @Test func aLateTagMovesTheWindow() throws {
        let server = try Self.server(kiosk: false)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        try client.roundtrip()
        #expect(window.outputs == [client.outputs[0]])
        let tags = try client.bind("xdg_toplevel_tag_manager_v1", tactile_xdg_toplevel_tag_manager_v1_interface())
        xdg_toplevel_tag_manager_v1_set_toplevel_tag(tags, window.toplevel, "menu board")
        try IdleTests.wait(client) { window.configuredSize?.width == 320 && window.outputs == [client.outputs[1]] }
        #expect(window.configuredSize.map { [$0.width, $0.height] } == [320, 240], "tagged after it mapped, it went to HEADLESS-2")
        #expect(window.outputs == [client.outputs[1]])
        #expect(window.configuredStates.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue))
    }

    /// Something other than an xdg_toplevel given as the toplevel is the display's
    /// invalid_method error (invalid arguments) for that client alone.
    @Test func aSurfaceIsNoToplevelToTag() throws {
        let server = try Self.server(kiosk: true)
        let bystander = try TestClient(socket: server.socket)
        let hostile = try TestClient(socket: server.socket)
        let tags = try hostile.bind("xdg_toplevel_tag_manager_v1", tactile_xdg_toplevel_tag_manager_v1_interface())
        let surface = try #require(wl_compositor_create_surface(hostile.compositor))
        xdg_toplevel_tag_manager_v1_set_toplevel_tag(tags, surface, "menu board")
        #expect(throws: ClientError.self) { try hostile.roundtrip() }
        #expect(hostile.lastError == "wl_display#1: \(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue)")
        try bystander.roundtrip()
    }
}
