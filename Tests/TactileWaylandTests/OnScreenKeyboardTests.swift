import CWaylandClient
import Foundation
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Debian's on-screen keyboards against the server: wvkbd (layer shell and virtual keyboard)
/// typing into wev, and squeekboard (layer shell and input method) typing into a GTK entry
/// through text-input. What the apps print, or their protocol logs, are the evidence.
@Suite struct OnScreenKeyboardTests {
    /// Where wvkbd 0.12's mobintl layout puts its "w" key on a 1280×800 output: it maps a
    /// 1280×120 panel along the bottom, whose first row (680–710) starts Esc, q, w.
    static let wKey = (x: 242.0, y: 695.0)

    /// In kiosk mode: wev fills the screen, wvkbd's panel takes the bottom 120 pixels from
    /// it, a tap on the panel's "w" reaches wev as that key (under wvkbd's own keymap) while
    /// wev keeps keyboard focus, and wev gets the whole screen back when wvkbd goes.
    @Test func wvkbdTypesIntoTheFocusedAppWhichShrinksAboveIt() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let injector = try TestClient(socket: server.socket, devices: [])
        let wev = try ClientProcess(["stdbuf", "-oL", "wev"], socket: server.socket)
        defer { wev.stop() }
        try wev.waitForOutput(containing: "wl_keyboard] enter")
        try wev.waitForOutput(containing: "configure: width: 1280; height: 800")

        let wvkbd = try ClientProcess(["wvkbd-mobintl"], socket: server.socket)
        defer { wvkbd.stop() }
        try wev.waitForOutput(containing: "configure: width: 1280; height: 680")
        // Tapped until the panel shows (the first taps may land on wev while wvkbd starts).
        try wev.waitUntil("sym: w ") {
            try injector.inject { input in
                tactile_test_input_v1_touch_down(input, 1, f(Self.wKey.x), f(Self.wKey.y))
                tactile_test_input_v1_touch_frame(input)
                tactile_test_input_v1_touch_up(input, 1)
                tactile_test_input_v1_touch_frame(input)
            }
        }
        let typed = try wev.waitForOutput(containing: "state: 0 (released)")
        #expect(typed.contains("key: 25; state: 1 (pressed)"), "wev did not get evdev key 25 (w)")
        #expect(!typed.contains("wl_keyboard] leave"), "the tap on the keyboard took focus from wev")

        wvkbd.stop()
        let restored = try wev.waitForOutput(containing: "configure: width: 1280; height: 800", after: "height: 680")
        #expect(restored.contains("height: 680"))
    }

    /// squeekboard 1.21 shows its panel only where the GNOME setting says an on-screen
    /// keyboard is wanted: a keyfile settings backend in a scratch directory says so.
    func squeekboardSettings() throws -> [String: String] {
        let home = NSTemporaryDirectory() + "tactile-squeekboard-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home + "/glib-2.0/settings", withIntermediateDirectories: true)
        try "[org/gnome/desktop/a11y/applications]\nscreen-keyboard-enabled=true\n"
            .write(toFile: home + "/glib-2.0/settings/keyfile", atomically: true, encoding: .utf8)
        return ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": home]
    }

    /// Where squeekboard 1.21's "us" layout puts "w" on a 1280×800 output (its 1280×144 panel
    /// at the bottom, keys centred), and gtk3-demo's entry_buffer window puts its first entry
    /// (the window cascades to (32, 32)); a point in its main window's list, which has no text.
    static let squeekboardW = (x: 478.0, y: 673.0)
    static let entry = (x: 280.0, y: 137.0)
    static let listRow = (x: 100.0, y: 400.0)

    /// A tap on a GTK entry focuses it; squeekboard, the input method, is activated and maps
    /// its panel as a layer surface; a tap on the panel's "w" commits "w" into the entry
    /// (text-input's commit_string, in GTK's protocol log) without taking focus from it; a
    /// tap on a window with no text field deactivates squeekboard, which hides its panel.
    @Test func squeekboardTypesIntoAGtkEntryAndHidesWhenFocusLeaves() throws {
        let server = try TestServer()
        let injector = try TestClient(socket: server.socket, devices: [])
        func tap(_ point: (x: Double, y: Double)) throws {
            try injector.inject { input in
                tactile_test_input_v1_touch_down(input, 1, f(point.x), f(point.y))
                tactile_test_input_v1_touch_frame(input)
                tactile_test_input_v1_touch_up(input, 1)
                tactile_test_input_v1_touch_frame(input)
            }
        }
        let gtk = try ClientProcess(["gtk3-demo", "--run=entry_buffer"], socket: server.socket, protocolLog: true)
        defer { gtk.stop() }
        try gtk.waitForOutput(containing: "zwp_text_input_manager_v3@")
        let squeekboard = try ClientProcess(["dbus-run-session", "--", "squeekboard"], socket: server.socket,
                                            protocolLog: true, environment: try squeekboardSettings())
        defer { squeekboard.stop() }
        try squeekboard.waitForOutput(containing: "get_input_method(")
        // GTK focuses the entry as its window maps; taps on it (a second apart: quicker ones
        // would be double clicks) until squeekboard is activated for it. Then squeekboard maps
        // a new panel (it also flashes one as it starts): a tap before that lands on the
        // window behind, which would take focus from the entry.
        for _ in 0..<10 where (try? squeekboard.waitForOutput(containing: ".activate()", within: 1)) == nil { try tap(Self.entry) }
        try squeekboard.waitForOutput(containing: "ack_configure(", after: ".activate()")
        let panel = try squeekboard.waitForOutput(containing: ".commit()", after: "ack_configure(")
        #expect(panel.contains("set_anchor(14)") && panel.contains("set_keyboard_interactivity(0)"), "not a bottom panel that leaves keys alone")
        usleep(200_000)
        for _ in 0..<5 where (try? gtk.waitForOutput(containing: "commit_string(\"w\")", within: 1)) == nil { try tap(Self.squeekboardW) }
        let typed = try gtk.waitForOutput(containing: ".done(", after: "commit_string(\"w\")")
        let afterTyping = typed[typed.range(of: "commit_string(\"w\")")!.lowerBound...].split(separator: "\n")
        #expect(!afterTyping.contains { $0.contains("wl_keyboard@") && $0.contains(".leave(") }, "typing took keyboard focus from the entry")

        try tap(Self.listRow)
        try squeekboard.waitForOutput(containing: ".deactivate()", after: "commit_string(")
        let mark = squeekboard.outputSoFar.count
        var panelGone = false
        for _ in 0..<50 where !panelGone {
            _ = try? squeekboard.waitForOutput(containing: "\u{1}", within: 0.1)
            panelGone = squeekboard.outputSoFar.dropFirst(mark).split(separator: "\n")
                .contains { $0.contains("zwlr_layer_surface_v1@") && $0.contains(".destroy()") }
        }
        #expect(panelGone, "squeekboard kept its panel after it was deactivated")
    }

    /// The scene's lines for layer surfaces (squeekboard's panel, when it has one).
    static func layerLines(_ server: TestServer) -> [String] {
        server.inspected().filter { $0.contains("role=layer-surface") }
    }

    /// text-input-v3 2 with squeekboard, on a desktop and in a kiosk: a field's
    /// hide_input_panel hides squeekboard's panel (not drawn, not hit, its space given back to
    /// a kiosk app), show_input_panel brings it back, and a field that says it shows its own
    /// on-screen input (on_screen_input_provided) gets no panel until it asks for one.
    @Test(arguments: [true, false])
    func aTextFieldHidesAndShowsSqueekboardsPanel(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let app = try TestClient(socket: server.socket)
        let window = try app.toplevel(width: 400, height: 300)
        let manager = try app.bind("zwp_text_input_manager_v3", tactile_zwp_text_input_manager_v3_interface(), version: 2)
        let field = try #require(zwp_text_input_manager_v3_get_text_input(manager, app.seat))
        try app.roundtrip()
        func commit(hint: UInt32 = 0) throws {
            zwp_text_input_v3_enable(field)
            zwp_text_input_v3_set_content_type(field, hint, 0)
            zwp_text_input_v3_commit(field)
            try app.roundtrip()
        }
        try commit()
        let squeekboard = try ClientProcess(["dbus-run-session", "--", "squeekboard"], socket: server.socket,
                                            protocolLog: true, environment: try squeekboardSettings())
        defer { squeekboard.stop() }
        try squeekboard.waitForOutput(containing: ".activate()")
        func panel(hidden: Bool) throws -> Bool {
            try IdleTests.wait(app) {
                let lines = Self.layerLines(server)
                return !lines.isEmpty && lines.allSatisfy { $0.contains(" hidden") == hidden }
                    && (!kiosk || (window.configuredSize?.height == 800) == hidden)
            }
            let lines = Self.layerLines(server)
            return !lines.isEmpty && lines.allSatisfy { $0.contains(" hidden") == hidden }
        }
        #expect(try panel(hidden: false), "squeekboard's panel shows for the enabled field: \(Self.layerLines(server))")
        if kiosk { #expect(window.configuredSize.map { $0.height < 800 } == true, "the kiosk app made room for the panel") }

        zwp_text_input_v3_hide_input_panel(field)
        #expect(try panel(hidden: true), "hidden at hide_input_panel: \(Self.layerLines(server))")
        if kiosk { #expect(window.configuredSize.map { [$0.width, $0.height] } == [1280, 800], "the app has the whole screen again") }
        zwp_text_input_v3_hide_input_panel(field)
        zwp_text_input_v3_show_input_panel(field)
        #expect(try panel(hidden: false), "back at show_input_panel: \(Self.layerLines(server))")

        // A second window takes focus: the field leaves, forgetting its requests, and enters
        // there with a hint that it shows its own keypad.
        _ = try app.toplevel(width: 300, height: 200)
        try app.roundtrip()
        try commit(hint: ZWP_TEXT_INPUT_V3_CONTENT_HINT_ON_SCREEN_INPUT_PROVIDED.rawValue)
        #expect(try panel(hidden: true), "no panel over a field with its own on-screen input: \(Self.layerLines(server))")
        zwp_text_input_v3_show_input_panel(field)
        #expect(try panel(hidden: false), "unless it asks for one: \(Self.layerLines(server))")
        #expect(squeekboard.isRunning)
    }

    /// set_available_actions: submit, once, is taken; none, an unknown action or one listed
    /// twice is invalid_action, for that client alone.
    @Test(arguments: [[UInt32(1)], [0], [1, 1], [7]])
    func availableActionsAreChecked(_ actions: [UInt32]) throws {
        let server = try TestServer()
        let bystander = try TestClient(socket: server.socket)
        let app = try TestClient(socket: server.socket)
        let manager = try app.bind("zwp_text_input_manager_v3", tactile_zwp_text_input_manager_v3_interface(), version: 2)
        let field = try #require(zwp_text_input_manager_v3_get_text_input(manager, app.seat))
        var array = wl_array()
        wl_array_init(&array)
        defer { wl_array_release(&array) }
        for action in actions { wl_array_add(&array, 4)!.storeBytes(of: action, as: UInt32.self) }
        zwp_text_input_v3_set_available_actions(field, &array)
        zwp_text_input_v3_commit(field)
        if actions == [1] {
            try app.roundtrip()
        } else {
            #expect(throws: ClientError.self) { try app.roundtrip() }
            #expect(app.lastError == "zwp_text_input_v3#\(wl_proxy_get_id(field)): \(ZWP_TEXT_INPUT_V3_ERROR_INVALID_ACTION.rawValue)")
        }
        try bystander.roundtrip()
    }
}
