import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// The per-surface hints' wrong uses (wp_alpha_modifier_v1, wp_content_type_v1): each its
/// protocol error, on the client that made it.
@Suite(.serialized) struct SurfaceHintTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    @Test func aSecondModifierOrContentTypeForOneSurfaceIsAnError() throws {
        try server.expectProtocolError("wp_alpha_modifier_v1", WP_ALPHA_MODIFIER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue) { client in
            let manager = try client.bind("wp_alpha_modifier_v1", tactile_wp_alpha_modifier_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_alpha_modifier_v1_get_surface(manager, surface)
            _ = wp_alpha_modifier_v1_get_surface(manager, surface)
        }
        try server.expectProtocolError("wp_content_type_manager_v1", WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue) { client in
            let manager = try client.bind("wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
            _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
        }
    }

    @Test func aMultiplierForASurfaceThatWentIsAnError() throws {
        try server.expectProtocolError("wp_alpha_modifier_surface_v1", WP_ALPHA_MODIFIER_SURFACE_V1_ERROR_NO_SURFACE.rawValue) { client in
            let manager = try client.bind("wp_alpha_modifier_v1", tactile_wp_alpha_modifier_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            let modifier = wp_alpha_modifier_v1_get_surface(manager, surface)
            wl_surface_destroy(surface)
            wp_alpha_modifier_surface_v1_set_multiplier(modifier, 7)
        }
    }

    /// A content type outside the enum is the core's invalid_method; one for a surface that
    /// went is ignored (the object is inert), and the client goes on.
    @Test func aContentTypeOutsideTheEnumIsAnErrorAndOneForAGoneSurfaceIsIgnored() throws {
        try server.expectProtocolError("wp_content_type_v1", 1) { client in
            let manager = try client.bind("wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
            let type = wp_content_type_manager_v1_get_surface_content_type(manager, wl_compositor_create_surface(client.compositor))
            wp_content_type_v1_set_content_type(type, 4)
        }
        let client = try TestClient(socket: server.socket)
        let manager = try client.bind("wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
        let surface = wl_compositor_create_surface(client.compositor)
        let type = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
        wl_surface_destroy(surface)
        wp_content_type_v1_set_content_type(type, WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue)
        try client.roundtrip()
    }

    /// zwp_keyboard_shortcuts_inhibitor_v1: active while its surface has keyboard focus (the
    /// configuration grants it by default), inactive when focus leaves; never with `refuse`.
    @Test(arguments: [ShortcutsInhibitPolicy.grant, .refuse])
    func aShortcutsInhibitorIsActiveWhileItsSurfaceHasTheKeyboard(_ policy: ShortcutsInhibitPolicy) throws {
        var configuration = ServerConfiguration()
        configuration.shortcutsInhibit = policy
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        let viewer = try client.toplevel(width: 200, height: 200, at: (0, 0))
        try client.roundtrip()
        final class Heard { var events: [String] = [] }
        let heard = Heard()
        nonisolated(unsafe) let listener = UnsafeMutablePointer<zwp_keyboard_shortcuts_inhibitor_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: zwp_keyboard_shortcuts_inhibitor_v1_listener(
            active: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().events.append("active") },
            inactive: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().events.append("inactive") }
        ))
        let manager = try client.bind("zwp_keyboard_shortcuts_inhibit_manager_v1", tactile_zwp_keyboard_shortcuts_inhibit_manager_v1_interface())
        let inhibitor = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(manager, viewer.surface, client.seat)
        zwp_keyboard_shortcuts_inhibitor_v1_add_listener(inhibitor, listener, Unmanaged.passUnretained(heard).toOpaque())
        try client.roundtrip()
        #expect(heard.events == (policy == .grant ? ["active"] : []), "the viewer has the keyboard")
        // Another window of the client maps and takes the keyboard.
        _ = try client.toplevel(width: 100, height: 100, at: (300, 0))
        try client.roundtrip()
        #expect(heard.events == (policy == .grant ? ["active", "inactive"] : []))

        _ = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(manager, viewer.surface, client.seat)
        #expect(throws: (any Error).self) { try client.roundtrip() }
        #expect(client.lastError.hasPrefix("zwp_keyboard_shortcuts_inhibit_manager_v1#") && client.lastError.hasSuffix(": 0"), "already_inhibited")
    }

    /// xdg_toplevel_icon_v1's wrong uses: a picture that is not square, a change after the
    /// icon was set, an icon with nothing in it.
    @Test func toplevelIconMistakesAreErrors() throws {
        func icons(_ client: TestClient) throws -> OpaquePointer {
            try client.bind("xdg_toplevel_icon_manager_v1", tactile_xdg_toplevel_icon_manager_v1_interface())
        }
        try server.expectProtocolError("xdg_toplevel_icon_v1", XDG_TOPLEVEL_ICON_V1_ERROR_INVALID_BUFFER.rawValue) { client in
            let icon = xdg_toplevel_icon_manager_v1_create_icon(try icons(client))
            xdg_toplevel_icon_v1_add_buffer(icon, try client.buffer(width: 32, height: 16), 1)
        }
        try server.expectProtocolError("xdg_toplevel_icon_v1", XDG_TOPLEVEL_ICON_V1_ERROR_IMMUTABLE.rawValue) { client in
            let manager = try icons(client)
            let window = try client.toplevel(width: 100, height: 100)
            let icon = xdg_toplevel_icon_manager_v1_create_icon(manager)
            xdg_toplevel_icon_v1_set_name(icon, "utilities-terminal")
            xdg_toplevel_icon_manager_v1_set_icon(manager, window.toplevel, icon)
            xdg_toplevel_icon_v1_set_name(icon, "another")
        }
        try server.expectProtocolError("xdg_toplevel_icon_v1", XDG_TOPLEVEL_ICON_V1_ERROR_NO_BUFFER.rawValue) { client in
            let manager = try icons(client)
            let window = try client.toplevel(width: 100, height: 100)
            xdg_toplevel_icon_manager_v1_set_icon(manager, window.toplevel, xdg_toplevel_icon_manager_v1_create_icon(manager))
        }
    }
}
