import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// The per-surface hints' wrong uses (wp_alpha_modifier_v1, wp_content_type_v1): each its
/// protocol error, on the client that made it.
@Suite(.serialized) struct SurfaceHintTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    func bind(_ client: TestClient, _ name: String, _ interface: UnsafePointer<wl_interface>) throws -> OpaquePointer {
        OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames[name], "\(name) offered"), interface, 1))
    }

    /// Sends what `body` does and expects the connection to end with `error` on `interface`.
    func expectError(_ interface: String, _ code: UInt32, _ body: (TestClient) throws -> Void) throws {
        let client = try TestClient(socket: server.socket)
        try body(client)
        #expect(throws: (any Error).self) { try client.roundtrip() }
        #expect(client.lastError.hasPrefix("\(interface)#") && client.lastError.hasSuffix(": \(code)"), "\(client.lastError)")
    }

    @Test func aSecondModifierOrContentTypeForOneSurfaceIsAnError() throws {
        try expectError("wp_alpha_modifier_v1", WP_ALPHA_MODIFIER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue) { client in
            let manager = try bind(client, "wp_alpha_modifier_v1", tactile_wp_alpha_modifier_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_alpha_modifier_v1_get_surface(manager, surface)
            _ = wp_alpha_modifier_v1_get_surface(manager, surface)
        }
        try expectError("wp_content_type_manager_v1", WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue) { client in
            let manager = try bind(client, "wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
            _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
        }
    }

    @Test func aMultiplierForASurfaceThatWentIsAnError() throws {
        try expectError("wp_alpha_modifier_surface_v1", WP_ALPHA_MODIFIER_SURFACE_V1_ERROR_NO_SURFACE.rawValue) { client in
            let manager = try bind(client, "wp_alpha_modifier_v1", tactile_wp_alpha_modifier_v1_interface())
            let surface = wl_compositor_create_surface(client.compositor)
            let modifier = wp_alpha_modifier_v1_get_surface(manager, surface)
            wl_surface_destroy(surface)
            wp_alpha_modifier_surface_v1_set_multiplier(modifier, 7)
        }
    }

    /// A content type outside the enum is the core's invalid_method; one for a surface that
    /// went is ignored (the object is inert), and the client goes on.
    @Test func aContentTypeOutsideTheEnumIsAnErrorAndOneForAGoneSurfaceIsIgnored() throws {
        try expectError("wp_content_type_v1", 1) { client in
            let manager = try bind(client, "wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
            let type = wp_content_type_manager_v1_get_surface_content_type(manager, wl_compositor_create_surface(client.compositor))
            wp_content_type_v1_set_content_type(type, 4)
        }
        let client = try TestClient(socket: server.socket)
        let manager = try bind(client, "wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface())
        let surface = wl_compositor_create_surface(client.compositor)
        let type = wp_content_type_manager_v1_get_surface_content_type(manager, surface)
        wl_surface_destroy(surface)
        wp_content_type_v1_set_content_type(type, WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue)
        try client.roundtrip()
    }
}
