import Foundation
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Debian's wvkbd (layer shell and virtual keyboard) against the server, with wev as the app
/// being typed into: what wev prints is the evidence.
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
}
