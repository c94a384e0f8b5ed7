import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Chromium (Debian's) in a kiosk on a 1200x800 output at scale 1.5: it binds
/// wp_fractional_scale_v1, is told 180, draws its 800x533 window into a 1200x800 buffer (one
/// buffer pixel per output pixel), and a touch reaches it in exact logical coordinates.
@Suite(.serialized) struct ChromiumTests {
    @Test func chromiumRendersAtTheFractionalScaleAndTakesATouch() throws {
        var configuration = ServerConfiguration(kioskMode: true)
        configuration.outputs = [OutputSettings(scale: 1.5)]
        let server = try TestServer(configuration, headless: .init(outputs: [Size(width: 1200, height: 800)]))
        let profile = NSTemporaryDirectory() + "tactile-chromium-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let chromium = try ClientProcess(
            ["chromium", "--no-sandbox", "--ozone-platform=wayland", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
             "data:text/html,<body style='margin:0;background:%23ff0000'></body>"],
            socket: server.socket, protocolLog: true)
        defer { chromium.stop() }
        try chromium.waitForOutput(containing: "preferred_scale(180)", within: 60)
        try chromium.waitForOutput(containing: "configure(800, 533, ", within: 30)
        try chromium.waitForOutput(containing: ", 1200, 800, 4800, ", within: 30)

        let client = try TestClient(socket: server.socket)
        var centre: UInt32 = 0
        for _ in 0..<100 {
            let capture = try ScreencopyCapture.copied(client: client)
            centre = capture.colour(at: 600, 500)
            if centre == 0xff_0000 { break }
            usleep(100_000)
        }
        #expect(centre == 0xff_0000, "the page's red at the output's centre")

        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(400.5), f(300.25))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let log = try chromium.waitForOutput(containing: ".down(", within: 30)
        let down = log.split(separator: "\n").first { $0.contains("wl_touch#") && $0.contains(".down(") } ?? ""
        #expect(down.hasSuffix(", 1, 400.50000000, 300.25000000)"), "Chromium's wl_touch.down: \(down)")
    }
}
