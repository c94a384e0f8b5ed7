import CWaylandServer
import Responder
import WaylandProtocols

extension WaylandServer {
    static let xdgWmBaseVersion: Int32 = 5

    func createXdgShellGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_global_create(display, tactile_xdg_wm_base_interface(), Self.xdgWmBaseVersion, me) { client, data, version, id in
            let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
            _ = server.bindGlobal(client, tactile_xdg_wm_base_interface(), version, id, WaylandServer.xdgWmBaseRequests)
        }
    }

    static let xdgWmBaseRequests = RequestTable(xdg_wm_base_interface(
        destroy: destroyResource,
        create_positioner: { client, base, id in
            guard let client else { return }
            XdgPositioner().bind(client: client, interface: tactile_xdg_positioner_interface(), version: wl_resource_get_version(base), id: id, implementation: XdgPositioner.requests)
        },
        get_xdg_surface: { client, base, id, surfaceResource in
            guard let client, let base, let surface = Surface.from(surfaceResource) else { return }
            guard surface.role == nil, surface.xdgSurface == nil else {
                return tactile_post_error(base, XDG_WM_BASE_ERROR_ROLE.rawValue, "wl_surface already has a role")
            }
            guard !surface.hasBuffer, !surface.hasPendingBuffer else {
                return tactile_post_error(base, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "wl_surface already has a buffer")
            }
            let xdg = XdgSurface(surface: surface)
            guard xdg.bind(client: client, interface: tactile_xdg_surface_interface(), version: wl_resource_get_version(base), id: id, implementation: XdgSurface.requests) else { return }
            surface.xdgSurface = xdg
        },
        pong: { _, _, _ in }
    ))
}

/// xdg_surface: the configure/ack handshake shared by toplevels and popups.
final class XdgSurface: ResourceObject {
    weak var surface: Surface?
    /// Weak: the role object holds this xdg_surface (it needs it to configure), not the reverse.
    weak var roleObject: XdgRole?
    /// Whether a configure went out; the first commit of the role triggers it.
    var hasConfigured = false

    init(surface: Surface) { self.surface = surface }

    override func resourceDestroyed() {
        surface?.xdgSurface = nil
    }

    /// xdg_surface.configure after the role's own configure event.
    func sendConfigure() {
        guard let resource, let server = surface?.server else { return }
        hasConfigured = true
        xdg_surface_send_configure(resource, server.nextSerial())
    }

    private func makeRole(_ kind: String, _ make: () -> XdgRole?) {
        guard let surface else { return }
        guard roleObject == nil, surface.role == nil else {
            return postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role; cannot become \(kind)")
        }
        guard let role = make() else { return }
        roleObject = role
        surface.role = role
    }

    static let requests = RequestTable(xdg_surface_interface(
        destroy: { _, resource in
            if let xdg = XdgSurface.from(resource), xdg.roleObject?.isAlive == true {
                return xdg.postError(XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue, "xdg_surface destroyed before its role object")
            }
            wl_resource_destroy(resource)
        },
        get_toplevel: { client, resource, id in
            guard let client, let xdg = XdgSurface.from(resource) else { return }
            xdg.makeRole("a toplevel") { XdgToplevel.create(xdg, client, id) }
        },
        get_popup: { client, resource, id, parent, positioner in
            guard let client, let xdg = XdgSurface.from(resource) else { return }
            guard let positioner = XdgPositioner.from(positioner), positioner.isComplete else {
                return tactile_post_error(resource, XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "positioner needs a size and an anchor rectangle")
            }
            xdg.makeRole("a popup") { XdgPopup.create(xdg, XdgSurface.from(parent), positioner.placement, client, id) }
        },
        set_window_geometry: { _, resource, _, _, width, height in
            guard width > 0, height > 0 else {
                XdgSurface.from(resource)?.postError(XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry must have a positive size")
                return
            }
        },
        ack_configure: { _, _, _ in }
    ))
}

/// What a toplevel and a popup have in common for their xdg_surface.
protocol XdgRole: SurfaceRole {
    var isAlive: Bool { get }
}

/// xdg_toplevel: a window. Placed by the placement policy, mapped once it commits a buffer
/// (WLCS and some clients commit before acking the first configure, so mapping does not wait).
final class XdgToplevel: ResourceObject, XdgRole {
    let xdg: XdgSurface
    var isAlive: Bool { resource != nil }
    var isMapped: Bool { resource != nil }

    init(xdg: XdgSurface) { self.xdg = xdg }

    static func create(_ xdg: XdgSurface, _ client: OpaquePointer, _ id: UInt32) -> XdgToplevel? {
        guard let surface = xdg.surface else { return nil }
        let toplevel = XdgToplevel(xdg: xdg)
        guard toplevel.bind(client: client, interface: tactile_xdg_toplevel_interface(), version: xdg.version, id: id, implementation: requests) else { return nil }
        let position = surface.server.placement.nextToplevelPosition()
        surface.createNode(.surface(of: surface.owner.id, isToplevel: true, position: position, isMapped: false), under: surface.server.router.scene.root)
        return toplevel
    }

    func committed(surface: Surface, hadBuffer: Bool) {
        guard !xdg.hasConfigured else { return }
        sendConfigure()
    }

    func surfaceDestroyed() {}

    override func resourceDestroyed() {
        xdg.surface?.removeNode()
    }

    private func sendConfigure() {
        guard let resource, let server = xdg.surface?.server else { return }
        let size = server.placement.initialToplevelSize
        let states: [UInt32] = server.configuration.kioskMode
            ? [XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue, XDG_TOPLEVEL_STATE_ACTIVATED.rawValue]
            : [XDG_TOPLEVEL_STATE_ACTIVATED.rawValue]
        withArray(states) { xdg_toplevel_send_configure(resource, Int32(size.width), Int32(size.height), $0) }
        xdg.sendConfigure()
    }

    /// Window management requests a kiosk does not act on are accepted and ignored; the size
    /// ones are checked, as the protocol requires.
    static let requests = RequestTable(xdg_toplevel_interface(
        destroy: destroyResource,
        set_parent: { _, _, _ in },
        set_title: { _, _, _ in },
        set_app_id: { _, _, _ in },
        show_window_menu: { _, _, _, _, _, _ in },
        move: { _, _, _, _ in },
        resize: { _, resource, _, _, edges in
            guard edges <= XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT.rawValue else {
                XdgToplevel.from(resource)?.postError(XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "resize edge \(edges) is not an xdg_toplevel.resize_edge")
                return
            }
        },
        set_max_size: { _, resource, width, height in checkSize(resource, width, height) },
        set_min_size: { _, resource, width, height in checkSize(resource, width, height) },
        set_maximized: { _, _ in },
        unset_maximized: { _, _ in },
        set_fullscreen: { _, _, _ in },
        unset_fullscreen: { _, _ in },
        set_minimized: { _, _ in }
    ))

    private static func checkSize(_ resource: OpaquePointer?, _ width: Int32, _ height: Int32) {
        guard width >= 0, height >= 0 else {
            XdgToplevel.from(resource)?.postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "size limits must not be negative")
            return
        }
    }
}
