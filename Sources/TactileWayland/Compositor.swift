import CWaylandServer

extension WaylandServer {
    static let compositorVersion: Int32 = 5

    static let compositorRequests = RequestTable(wl_compositor_interface(
        create_surface: { client, resource, id in
            guard let client, let server = WaylandServer.from(resource), let owner = server.clients[client] else { return }
            let surface = Surface(server: server, owner: owner)
            surface.bind(client: client, interface: tactile_wl_surface_interface(), version: wl_resource_get_version(resource), id: id, implementation: Surface.requests)
        },
        create_region: { client, resource, id in
            guard let client, let server = WaylandServer.from(resource), let owner = server.clients[client] else { return }
            WlRegion(owner: owner).bind(client: client, interface: tactile_wl_region_interface(), version: 1, id: id, implementation: WlRegion.requests)
        }
    ))

    /// The server a global's resource carries as user data (globals have no object of their own).
    static func from(_ resource: OpaquePointer?) -> WaylandServer? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<WaylandServer>.fromOpaque(data).takeUnretainedValue()
    }

    /// Binds a global's resource with the server as user data (not retained: the server outlives them).
    func bindGlobal(_ client: OpaquePointer?, _ interface: UnsafePointer<wl_interface>, _ version: UInt32, _ id: UInt32,
                    _ requests: RequestTable, destroyed: wl_resource_destroy_func_t? = nil) -> OpaquePointer? {
        guard let client, let resource = wl_resource_create(client, interface, Int32(version), id) else {
            if let client { wl_client_post_no_memory(client) }
            return nil
        }
        wl_resource_set_implementation(resource, requests.pointer, Unmanaged.passUnretained(self).toOpaque(), destroyed)
        return resource
    }

    func createGlobals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_global_create(display, tactile_wl_compositor_interface(), Self.compositorVersion, me) { client, data, version, id in
            let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
            _ = server.bindGlobal(client, tactile_wl_compositor_interface(), version, id, WaylandServer.compositorRequests)
        }
        createSubcompositorGlobal()
        createOutputGlobal()
        createSeatGlobal()
        createXdgShellGlobals()
        createShellGlobal()
        createDataDeviceManagerGlobal()
        createEdgeDeferralGlobal()
        if configuration.enablesTestInput { createTestInputGlobal() }
    }
}
