import CWaylandClient
import CXcursor
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// wp_cursor_shape_manager_v1 2: a client names a shape and grim -c shows the installed
/// Xcursor theme's cursor of that name at the pointer, hotspot on it.
@Suite(.serialized) struct CursorShapeTests {
    static let red: UInt32 = 0xffd0_2020

    /// `text`, and version 2's `all_resize` and `dnd_ask`: where the theme lacks a newer
    /// name (Debian 12's Adwaita has no `all-resize`), its older look (`fleur`).
    @Test(arguments: [(WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT.rawValue, ["text"]), (WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_ALL_RESIZE.rawValue, ["all-resize", "fleur"]),
                      (WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DND_ASK.rawValue, ["dnd-ask", "copy"])])
    func aNamedShapeIsDrawnFromTheCursorTheme(_ shape: UInt32, _ names: [String]) throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        #expect(client.globals["wp_cursor_shape_manager_v1"] == 2)
        let window = try client.toplevel(width: 300, height: 300, at: (0, 0))
        try client.commitBuffer(window.surface, width: 300, height: 300, colour: Self.red)
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(150), f(150)) }
        let manager = try client.bind("wp_cursor_shape_manager_v1", tactile_wp_cursor_shape_manager_v1_interface(), version: 2)
        let device = wp_cursor_shape_manager_v1_get_pointer(manager, client.pointer)
        wp_cursor_shape_device_v1_set_shape(device, try #require(client.lastEnterSerial), shape)
        try client.roundtrip()

        // The theme's own picture of it (Adwaita here, scripts/setup installs it), at the
        // server's default size: its fully opaque pixels, placed hotspot on the pointer.
        // A loop, not lazy.compactMap(...).first: that calls the loader twice and leaks one image.
        var found: UnsafeMutablePointer<XcursorImage>?
        for name in names where found == nil { found = XcursorLibraryLoadImage(name, nil, 24) }
        let xcursor = try #require(found, "no Xcursor theme has \(names)")
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
        #expect(compared > 10, "the \(names[0]) cursor has opaque pixels to compare")
        if shape == WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT.rawValue {
            #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 140, 160) == Self.red & 0xff_ffff, "beside the beam, the window")
        }
    }

    /// 35 is version 2's first shape: a version-1 device naming it is as wrong as one naming
    /// 37 at version 2.
    @Test(arguments: [(UInt32(1), UInt32(35)), (2, 37), (2, 0)])
    func aShapeOutsideTheVersionsListIsInvalidShape(version: UInt32, shape: UInt32) throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let manager = try client.bind("wp_cursor_shape_manager_v1", tactile_wp_cursor_shape_manager_v1_interface(), version: version)
        let device = wp_cursor_shape_manager_v1_get_pointer(manager, client.pointer)
        wp_cursor_shape_device_v1_set_shape(device, 0, shape)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError == "wp_cursor_shape_device_v1#\(wl_proxy_get_id(device)): \(WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue)")
    }
}
