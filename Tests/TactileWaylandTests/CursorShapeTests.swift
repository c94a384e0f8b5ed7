import CWaylandClient
import CXcursor
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// wp_cursor_shape_manager_v1: a client names `text` and grim -c shows the installed Xcursor
/// theme's text cursor at the pointer, hotspot on it.
@Suite(.serialized) struct CursorShapeTests {
    static let red: UInt32 = 0xffd0_2020

    @Test func aNamedShapeIsDrawnFromTheCursorTheme() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 300, height: 300, at: (0, 0))
        try client.commitBuffer(window.surface, width: 300, height: 300, colour: Self.red)
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(150), f(150)) }
        let device = wp_cursor_shape_manager_v1_get_pointer(client.cursorShapeManager, client.pointer)
        wp_cursor_shape_device_v1_set_shape(device, try #require(client.lastEnterSerial), WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT.rawValue)
        try client.roundtrip()

        // The theme's own picture of it (Adwaita here, scripts/setup installs it), at the
        // server's default size: its fully opaque pixels, placed hotspot on the pointer.
        let xcursor = try #require(XcursorLibraryLoadImage("text", nil, 24), "no Xcursor theme has a text cursor")
        defer { XcursorImageDestroy(xcursor) }
        let image = xcursor.pointee
        let shot = try Screenshot(socket: server.socket, cursor: true)
        var compared = 0
        for y in 0..<Int(image.height) {
            for x in 0..<Int(image.width) {
                let pixel = image.pixels[y * Int(image.width) + x]
                guard pixel >> 24 == 0xff else { continue }
                let at = (x: 150 - Int(image.xhot) + x, y: 150 - Int(image.yhot) + y)
                #expect(shot.colour(at: at.x, at.y) == pixel & 0xff_ffff, "cursor pixel (\(x), \(y)) at \(at)")
                compared += 1
            }
        }
        #expect(compared > 10, "the text cursor has opaque pixels to compare")
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 140, 160) == Self.red & 0xff_ffff, "beside the beam, the window")
    }

    @Test func aShapeOutsideTheListIsInvalidShape() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let device = wp_cursor_shape_manager_v1_get_pointer(client.cursorShapeManager, client.pointer)
        wp_cursor_shape_device_v1_set_shape(device, 0, 35)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError == "wp_cursor_shape_device_v1#\(wl_proxy_get_id(device)): \(WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue)")
    }
}
