import CWaylandServer
import WaylandProtocols

/// wl_compositor and wl_subcompositor: surfaces, regions and subsurfaces. The surfaces it
/// makes are the server's (`makeSurface`): they live in its scene.
final class Compositor: ServerPart {
    private let makeSurface: (ClientState) -> Surface
    private var globals: [Global] = []
    /// Each surface made, once its resource stands (the X window manager pairs Xwayland's
    /// surfaces with X windows).
    private let surfaceCreated: Signal<Surface>

    init(display: OpaquePointer, makeSurface: @escaping (ClientState) -> Surface, surfaceCreated: Signal<Surface>) {
        self.makeSurface = makeSurface
        self.surfaceCreated = surfaceCreated
        globals = [
            Global(display: display, interface: tactile_wl_compositor_interface(), version: 6, context: self, requests: Self.compositorRequests),
            Global(display: display, interface: tactile_wl_subcompositor_interface(), version: 1, context: self, requests: Self.subcompositorRequests),
        ]
    }

    private static let compositorRequests = RequestTable(wl_compositor_interface(
        create_surface: { client, resource, id in
            guard let client, let part = Global.context(of: resource, as: Compositor.self), let owner = ClientState.of(client) else { return }
            let surface = part.makeSurface(owner)
            guard surface.bind(client: client, interface: tactile_wl_surface_interface(), version: wl_resource_get_version(resource), id: id, implementation: Surface.requests) else { return }
            surface.tellPreferredBuffer()
            part.surfaceCreated.send(surface)
        },
        create_region: { client, resource, id in
            guard let client, let owner = ClientState.of(client) else { return }
            WlRegion(owner: owner).bind(client: client, interface: tactile_wl_region_interface(), version: 1, id: id, implementation: WlRegion.requests)
        }
    ))
}
