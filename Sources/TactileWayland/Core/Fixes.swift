import CWaylandServer
import WaylandProtocols

/// wl_fixes (wayland 1.24's core): a wl_registry has no destructor, so without this a client
/// that lists the globals once holds its registry, and hears every later global, until it
/// disconnects. Debian 12's libwayland predates it; the table is ours (protocol/wl-fixes.xml).
final class Fixes: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wl_fixes_interface(), version: Self.version, context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(wl_fixes_interface(
        destroy: destroyResource,
        // libwayland checked that it is a wl_registry; destroying it unlinks it from the
        // display's list of registries and confirms the id's deletion to the client.
        destroy_registry: { _, _, registry in
            guard let registry else { return }
            wl_resource_destroy(registry)
        }
    ))
}
