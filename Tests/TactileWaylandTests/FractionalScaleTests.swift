import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// A 1200x800 output at scale 1.5: clients that bind wp_fractional_scale_v1 are told 180
/// (120ths) and, drawing at 1.5 with a viewport, land pixel for pixel on the output; the rest
/// hear wl_output.scale 2; input stays exact in logical units.
@Suite(.serialized) struct FractionalScaleTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020

    static func server(scale: Double? = 1.5) throws -> TestServer {
        var configuration = ServerConfiguration()
        if let scale { configuration.outputs = [OutputSettings(scale: scale)] }
        return try TestServer(configuration, headless: .init(outputs: [Size(width: 1200, height: 800)]))
    }

    /// Asks for `surface`'s preferred scale; the object, once the server answered.
    static func fractionalScale(_ client: TestClient, _ surface: OpaquePointer) throws -> OpaquePointer {
        let object = try #require(wp_fractional_scale_manager_v1_get_fractional_scale(client.fractionalScaleManager, surface))
        wp_fractional_scale_v1_add_listener(object, Listeners.fractionalScale, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        return object
    }

    @Test func aClientDrawingAtThePreferredScaleLandsPixelForPixel() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let output = try #require(client.outputs.first)
        #expect(client.outputScales[output] == 2, "wl_output: the whole number above 1.5")
        let window = try client.toplevel(width: 200, height: 100, at: (0, 0))
        let scale = try Self.fractionalScale(client, window.surface)
        #expect(client.preferredScales[scale] == 180)
        // 200x100 logical at 1.5: a 300x150 buffer, red left of x = 150, green from it.
        let buffer = try client.buffer(width: 300, height: 150) { x, _ in x < 150 ? Self.red : Self.green }
        let viewport = wp_viewporter_get_viewport(client.viewporter, window.surface)
        wp_viewport_set_destination(viewport, 200, 100)
        wl_surface_attach(window.surface, buffer, 0, 0)
        wl_surface_damage_buffer(window.surface, 0, 0, 300, 150)
        wl_surface_commit(window.surface)
        try client.roundtrip()

        let capture = try ScreencopyCapture.copied(client: client)
        #expect(capture.colour(at: 0, 0) == Self.red & 0xff_ffff && capture.colour(at: 149, 149) == Self.red & 0xff_ffff)
        #expect(capture.colour(at: 150, 0) == Self.green & 0xff_ffff && capture.colour(at: 299, 149) == Self.green & 0xff_ffff, "a sharp edge: no resampling")
        #expect(capture.colour(at: 300, 10) == 0x20_2020 && capture.colour(at: 10, 150) == 0x20_2020, "300x150 output pixels, no more")

        // A touch in logical units reaches the surface in logical units, exactly.
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(100.5), f(50.25))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().first == .touchDown(surface: client.id(window.surface), id: 1, x: f(100.5), y: f(50.25)))
    }

    /// wlr-randr sets 1.5 at run time: the preferred scale follows, and wl_output says 2.
    @Test func aScaleSetAtRunTimeReachesThePreferredScale() throws {
        let server = try Self.server(scale: nil)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let scale = try Self.fractionalScale(client, window.surface)
        #expect(client.preferredScales[scale] == 120)
        let result = try runProcess("/usr/bin/wlr-randr", ["--output", "HEADLESS-1", "--scale", "1.5"],
                                    environment: ["WAYLAND_DISPLAY": server.socket, "XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(result.status == 0, "\(result.output)")
        try client.roundtrip()
        #expect(client.preferredScales[scale] == 180)
        #expect(client.outputScales[client.outputs[0]] == 2)
        let listing = try runProcess("/usr/bin/wlr-randr", [], environment: ["WAYLAND_DISPLAY": server.socket, "XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(listing.output.contains("Scale: 1.500000"), "\(listing.output)")
    }

    @Test func aSecondFractionalScaleForOneSurfaceIsAnError() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let surface = wl_compositor_create_surface(client.compositor)
        _ = wp_fractional_scale_manager_v1_get_fractional_scale(client.fractionalScaleManager, surface)
        _ = wp_fractional_scale_manager_v1_get_fractional_scale(client.fractionalScaleManager, surface)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": \(WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue)"), "\(client.lastError)")
    }
}
