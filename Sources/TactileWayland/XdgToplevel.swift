import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_toplevel (or zxdg_toplevel_v6): a window. Placed by the placement policy, mapped once
/// it commits a buffer (WLCS and some clients commit before acking the first configure, so
/// mapping does not wait for the ack).
final class XdgToplevel: ResourceObject, XdgRole {
    let xdg: XdgSurface
    var isAlive: Bool { resource != nil }
    var isMapped: Bool { resource != nil }

    init(xdg: XdgSurface) { self.xdg = xdg }

    static func create(_ xdg: XdgSurface, _ client: OpaquePointer, _ id: UInt32) -> XdgToplevel? {
        guard let surface = xdg.surface else { return nil }
        let toplevel = XdgToplevel(xdg: xdg)
        let bound = switch xdg.flavor {
        case .stable: toplevel.bind(client: client, interface: tactile_xdg_toplevel_interface(), version: xdg.version, id: id, implementation: requests)
        case .unstableV6: toplevel.bind(client: client, interface: tactile_zxdg_toplevel_v6_interface(), version: 1, id: id, implementation: v6Requests)
        }
        guard bound else { return nil }
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

    /// The first configure: the size the placement policy wants (0 × 0: "your choice"),
    /// activated, and maximized in kiosk mode. The state values are the same in both flavors.
    private func sendConfigure() {
        guard let resource, let server = xdg.surface?.server else { return }
        let size = server.placement.initialToplevelSize
        let states: [UInt32] = server.configuration.kioskMode
            ? [XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue, XDG_TOPLEVEL_STATE_ACTIVATED.rawValue]
            : [XDG_TOPLEVEL_STATE_ACTIVATED.rawValue]
        withArray(states) { array in
            switch xdg.flavor {
            case .stable: xdg_toplevel_send_configure(resource, Int32(size.width), Int32(size.height), array)
            case .unstableV6: zxdg_toplevel_v6_send_configure(resource, Int32(size.width), Int32(size.height), array)
            }
        }
        xdg.sendConfigure()
    }

    private func checkResizeEdge(_ edges: UInt32) {
        guard edges <= XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT.rawValue else {
            return postError(XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "resize edge \(edges) is not an xdg_toplevel.resize_edge")
        }
    }

    private func checkSize(_ width: Int32, _ height: Int32) {
        guard width >= 0, height >= 0 else {
            return postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "size limits must not be negative")
        }
    }

    /// Window management requests a kiosk does not act on are accepted and ignored; the ones
    /// the protocol constrains are checked (v6 defines no errors for them).
    static let requests = RequestTable(xdg_toplevel_interface(
        destroy: destroyResource,
        set_parent: { _, _, _ in },
        set_title: { _, _, _ in },
        set_app_id: { _, _, _ in },
        show_window_menu: { _, _, _, _, _, _ in },
        move: { _, _, _, _ in },
        resize: { _, resource, _, _, edges in XdgToplevel.from(resource)?.checkResizeEdge(edges) },
        set_max_size: { _, resource, width, height in XdgToplevel.from(resource)?.checkSize(width, height) },
        set_min_size: { _, resource, width, height in XdgToplevel.from(resource)?.checkSize(width, height) },
        set_maximized: { _, _ in },
        unset_maximized: { _, _ in },
        set_fullscreen: { _, _, _ in },
        unset_fullscreen: { _, _ in },
        set_minimized: { _, _ in }
    ))

    static let v6Requests = RequestTable(zxdg_toplevel_v6_interface(
        destroy: destroyResource,
        set_parent: { _, _, _ in },
        set_title: { _, _, _ in },
        set_app_id: { _, _, _ in },
        show_window_menu: { _, _, _, _, _, _ in },
        move: { _, _, _, _ in },
        resize: { _, _, _, _, _ in },
        set_max_size: { _, _, _, _ in },
        set_min_size: { _, _, _, _ in },
        set_maximized: { _, _ in },
        unset_maximized: { _, _ in },
        set_fullscreen: { _, _, _ in },
        unset_fullscreen: { _, _ in },
        set_minimized: { _, _ in }
    ))
}
