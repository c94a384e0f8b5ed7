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
}
