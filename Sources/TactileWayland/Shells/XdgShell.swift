import CWaylandServer
import Responder
import WaylandProtocols

/// Which xdg-shell a client speaks: the stable one, or unstable v6 (older GTK and Qt).
/// The objects behind both are the same, and so are their tables: v6's requests and events
/// are the stable ones' first opcodes with the same arguments, so one request table serves
/// both and the stable senders write both (libwayland marshals an event by the resource's
/// own interface). Only the interfaces made and the errors defined differ.
enum XdgFlavor {
    case stable, unstableV6

    /// The objects a shell makes.
    enum Object { case surface, toplevel, popup, positioner }

    /// The flavor of a resource of either shell, from its interface's name.
    init(of resource: OpaquePointer?) {
        let name = resource.flatMap { wl_resource_get_class($0) }.map { String(cString: $0) } ?? ""
        self = name.hasPrefix("zxdg_") ? .unstableV6 : .stable
    }

    /// The interface `object` has in this flavor. Objects speak the version of the object
    /// they are made from (v6 has only version 1).
    func interface(_ object: Object) -> UnsafePointer<wl_interface> {
        switch (self, object) {
        case (.stable, .surface): tactile_xdg_surface_interface()
        case (.stable, .toplevel): tactile_xdg_toplevel_interface()
        case (.stable, .popup): tactile_xdg_popup_interface()
        case (.stable, .positioner): tactile_xdg_positioner_interface()
        case (.unstableV6, .surface): tactile_zxdg_surface_v6_interface()
        case (.unstableV6, .toplevel): tactile_zxdg_toplevel_v6_interface()
        case (.unstableV6, .popup): tactile_zxdg_popup_v6_interface()
        case (.unstableV6, .positioner): tactile_zxdg_positioner_v6_interface()
        }
    }
}

/// xdg_wm_base and zxdg_shell_v6: windows and popups, made on the window manager (`Windows`),
/// on one request table per object for both flavors (`XdgFlavor`).
final class XdgShell: ServerPart {
    let windows: Windows
    private var globals: [Global] = []
    private let display: OpaquePointer
    private(set) var pings = ShellPings()
    private var pingTimer: EventSource?

    init(display: OpaquePointer, windows: Windows) {
        self.windows = windows
        self.display = display
        let bound: Global.Bound = { [unowned self] resource, client in pings.bound(resource, client: client) }
        let destroyed: wl_resource_destroy_func_t = { resource in
            guard let resource, let shell = Global.context(of: resource, as: XdgShell.self) else { return }
            shell.pings.destroyed(resource)
        }
        globals = [
            Global(display: display, interface: tactile_xdg_wm_base_interface(), version: 7, context: self, requests: Self.requests,
                   destroyed: destroyed, bound: bound),
            Global(display: display, interface: tactile_zxdg_shell_v6_interface(), version: 1, context: self, requests: Self.requests,
                   destroyed: destroyed, bound: bound),
        ]
    }

    /// Pings every client's shell from now on (`ShellPings`), at once and then every period.
    func startPinging(now: @escaping () -> Instant) {
        guard pingTimer == nil else { return }
        pingTimer = EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in
            pings.pingAll(now: now())
            pingTimer?.arm(milliseconds: ShellPings.period)
        }
        pingTimer?.arm(milliseconds: 1)
    }

    func stop() {
        pingTimer = nil
    }

    private static let requests = RequestTable(xdg_wm_base_interface(
        destroy: destroyResource,
        create_positioner: { client, shell, id in XdgPositioner.create(XdgFlavor(of: shell), client, shell, id) },
        get_xdg_surface: { client, shell, id, surface in XdgSurface.create(XdgFlavor(of: shell), client, shell, id, surface) },
        pong: { _, shell, serial in
            guard let shell, let shells = Global.context(of: shell, as: XdgShell.self) else { return }
            shells.pings.pong(shell, serial: serial)
        }
    ))
}

/// xdg_surface (or zxdg_surface_v6): the configure handshake shared by toplevels and popups.
final class XdgSurface: ResourceObject, SurfaceAddon {
    let flavor: XdgFlavor
    weak var surface: Surface?
    /// Unchecked: the window manager outlives every resource of its display.
    unowned(unsafe) let windows: Windows
    /// Weak: the role object holds this xdg_surface (it needs it to configure), not the reverse.
    weak var roleObject: XdgRole?
    /// Whether a configure went out; the first commit of the role triggers it.
    var hasConfigured = false
    /// The last configure's serial until the client acks it: the window is then still to
    /// draw itself as asked (`tactile inspect --wait idle` waits for that).
    private(set) var unackedSerial: UInt32?
    /// The window's geometry within the surface (set_window_geometry), as last committed;
    /// placing a window places this rectangle's origin, not the surface's.
    private(set) var geometry: Rect?
    private var pendingGeometry: Rect?

    /// The committed geometry's origin: where the window starts inside its surface.
    var windowOrigin: Position? { geometry.map { Position(x: $0.x, y: $0.y) } }

    /// An xdg_surface excludes every other role, before it has its own.
    var reservesRole: Bool { true }

    /// Window geometry is double-buffered: it takes effect with the surface's commit.
    func applied(_ surface: Surface) {
        if let pendingGeometry { geometry = pendingGeometry }
        pendingGeometry = nil
    }

    /// A toplevel's docks hear which outputs it is on.
    func outputsChanged(_ surface: Surface) {
        if let toplevel = roleObject as? XdgToplevel { windows.listings.changed(toplevel) }
    }

    init(flavor: XdgFlavor, surface: Surface, windows: Windows) {
        self.flavor = flavor
        self.surface = surface
        self.windows = windows
    }

    /// get_xdg_surface: `shell` is the xdg_wm_base (or zxdg_shell_v6) the request came on.
    static func create(_ flavor: XdgFlavor, _ client: OpaquePointer?, _ shell: OpaquePointer?, _ id: UInt32, _ surfaceResource: OpaquePointer?) {
        guard let client, let shell, let part = Global.context(of: shell, as: XdgShell.self), let surface = Surface.from(surfaceResource) else { return }
        guard !surface.hasRole else {
            return tactile_post_error(shell, XDG_WM_BASE_ERROR_ROLE.rawValue, "wl_surface already has a role")
        }
        guard !surface.hasBuffer, !surface.hasPendingBuffer else {
            return tactile_post_error(shell, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, "wl_surface already has a buffer")
        }
        let xdg = XdgSurface(flavor: flavor, surface: surface, windows: part.windows)
        if xdg.bind(client: client, interface: flavor.interface(.surface), version: wl_resource_get_version(shell), id: id, implementation: requests) {
            surface.attachAddon(xdg)
        }
    }

    override func resourceDestroyed() {
        if let surface { surface.detachAddon(self) }
    }

    /// A buffer attached before the first configure went out is a client error (the value
    /// is the same in both flavors). Toplevels are configured as they are created, so only a
    /// surface without a role yet, or an unconfigured popup, can trip this.
    func mayAttachBuffer() -> Bool {
        guard !hasConfigured else { return true }
        postError(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "buffer attached before the first configure")
        return false
    }

    /// The surface-level configure, after the role's own configure event.
    func sendConfigure() {
        guard let resource else { return }
        hasConfigured = true
        let serial = windows.context.nextSerial()
        unackedSerial = serial
        xdg_surface_send_configure(resource, serial)
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

    private func destroyRequested() {
        if roleObject?.isAlive == true {
            return postError(XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue, "xdg_surface destroyed before its role object")
        }
        if let resource { wl_resource_destroy(resource) }
    }

    private func getToplevel(_ client: OpaquePointer?, _ id: UInt32) {
        guard let client else { return }
        makeRole("a toplevel") { XdgToplevel.create(self, client, id) }
    }

    private func getPopup(_ client: OpaquePointer?, _ id: UInt32, _ parent: OpaquePointer?, _ positionerResource: OpaquePointer?) {
        guard let client else { return }
        guard let positioner = XdgPositioner.from(positionerResource), positioner.isComplete else {
            return postError(XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "positioner needs a size and an anchor rectangle")
        }
        makeRole("a popup") { XdgPopup.create(self, XdgSurface.from(parent), positioner.placement, client, id) }
    }

    private func setWindowGeometry(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        guard width > 0, height > 0 else {
            return postError(XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry must have a positive size")
        }
        pendingGeometry = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }

    static let requests = RequestTable(xdg_surface_interface(
        destroy: { _, resource in XdgSurface.from(resource)?.destroyRequested() },
        get_toplevel: { client, resource, id in XdgSurface.from(resource)?.getToplevel(client, id) },
        get_popup: { client, resource, id, parent, positioner in XdgSurface.from(resource)?.getPopup(client, id, parent, positioner) },
        set_window_geometry: { _, resource, x, y, width, height in XdgSurface.from(resource)?.setWindowGeometry(x, y, width, height) },
        ack_configure: { _, resource, serial in
            guard let xdg = XdgSurface.from(resource), xdg.unackedSerial == serial else { return }
            xdg.unackedSerial = nil
        }
    ))
}

/// What a toplevel and a popup have in common for their xdg_surface.
protocol XdgRole: SurfaceRole {
    var isAlive: Bool { get }
}
