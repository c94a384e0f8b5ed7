import CWaylandServer

extension WaylandServer {
    /// wl_compositor: surfaces and regions, each a Swift object behind its resource.
    static let compositorRequests = RequestTable(wl_compositor_interface(
        create_surface: { client, resource, id in
            guard let client, let server = WaylandServer.from(resource), let owner = ClientState.of(client) else { return }
            let surface = Surface(server: server, owner: owner)
            surface.bind(client: client, interface: tactile_wl_surface_interface(), version: wl_resource_get_version(resource), id: id, implementation: Surface.requests)
        },
        create_region: { client, resource, id in
            guard let client, let owner = ClientState.of(client) else { return }
            WlRegion(owner: owner).bind(client: client, interface: tactile_wl_region_interface(), version: 1, id: id, implementation: WlRegion.requests)
        }
    ))
}
