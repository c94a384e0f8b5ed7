import CWaylandServer
import WaylandProtocols

/// The globals every server offers, whose requests act on the server itself. The seat and
/// each output make their own (`Seat`, `Output`), as their resources act on them.
extension WaylandServer {
    func makeGlobals() -> [Global] {
        return [
            createGlobal(interface: tactile_wl_compositor_interface(), version: 5, requests: Self.compositorRequests),
            createGlobal(interface: tactile_wl_subcompositor_interface(), version: 1, requests: Self.subcompositorRequests),
            createGlobal(interface: tactile_xdg_wm_base_interface(), version: 5, requests: Self.xdgShellRequests),
            // Older GTK and Qt speak unstable v6; its requests share the stable tables.
            createGlobal(interface: tactile_zxdg_shell_v6_interface(), version: 1, requests: Self.xdgShellRequests),
            createGlobal(interface: tactile_wl_shell_interface(), version: 1, requests: Self.shellRequests),
            createGlobal(interface: tactile_zxdg_decoration_manager_v1_interface(), version: 1, requests: Self.decorationManagerRequests),
            createGlobal(interface: tactile_zwlr_layer_shell_v1_interface(), version: Layers.version, requests: Self.layerShellRequests),
            foreignToplevelManagerGlobal(),
        ]
    }

    /// A global whose resources carry the server as user data (`WaylandServer.from`).
    func createGlobal(interface: UnsafePointer<wl_interface>, version: Int32, requests: RequestTable) -> Global {
        Global(display: display, interface: interface, version: version, context: self, requests: requests)
    }

    /// The server behind a resource of one of its own globals.
    static func from(_ resource: OpaquePointer?) -> WaylandServer? {
        Global.context(of: resource, as: WaylandServer.self)
    }
}
