import CWaylandServer
import Responder

/// wl_shell, deprecated but still what older kiosk Qt apps speak (and WLCS's clients).
final class WlShell: ServerPart {
    let windows: Windows
    private var global: Global?

    init(display: OpaquePointer, windows: Windows) {
        self.windows = windows
        global = Global(display: display, interface: tactile_wl_shell_interface(), version: 1, context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(wl_shell_interface(
        get_shell_surface: { client, shell, id, surfaceResource in
            guard let client, let part = Global.context(of: shell, as: WlShell.self), let surface = Surface.from(surfaceResource) else { return }
            guard !surface.hasRole else {
                return tactile_post_error(shell, WL_SHELL_ERROR_ROLE.rawValue, "wl_surface already has a role")
            }
            let shellSurface = ShellSurface(surface: surface, windows: part.windows)
            guard shellSurface.bind(client: client, interface: tactile_wl_shell_surface_interface(), version: 1, id: id, implementation: ShellSurface.requests) else { return }
            surface.role = shellSurface
        }
    ))
}

/// wl_shell_surface: a toplevel (set_toplevel, maximized, fullscreen) or a surface placed
/// relative to a parent (set_transient, set_popup). Nothing is shown until one of those says
/// which; then the surface is mapped by its next buffer.
final class ShellSurface: ResourceObject, SurfaceRole, ListedWindow {
    weak var surface: Surface?
    private var isPlaced = false
    /// set_title and set_class (the app id of wl_shell), for traces and the inspector.
    private(set) var title: String?
    private(set) var appID: String?
    let roleName = "wl_shell_surface"

    /// Unchecked: the window manager outlives every resource of its display.
    unowned(unsafe) let windows: Windows

    init(surface: Surface, windows: Windows) {
        self.surface = surface
        self.windows = windows
    }

    private(set) var isToplevel = false
    private var hasMapped = false
    /// What set_toplevel, set_maximized or set_fullscreen asked for.
    private var state = WindowState()
    var isMinimized = false

    var windowSurface: Surface? { surface }

    /// wl_shell has no requests to change a window's state after the fact, nor to close it:
    /// a dock may only minimize and activate it.
    func request(maximized: Bool?, fullscreen: Bool?) {}
    func sendClose() {}

    func sizeState() -> (maximized: Bool, fullscreen: Bool) {
        (state.isMaximized, state.isFullscreen)
    }

    var isMapped: Bool { resource != nil && isPlaced }

    /// A toplevel's first buffer maps it, and a new window takes keyboard focus.
    func committed(surface: Surface, hadBuffer: Bool) {
        guard isToplevel, !hasMapped, surface.hasBuffer, let node = surface.node else { return }
        hasMapped = true
        windows.windowMapped(node, surface: surface)
        windows.listings.mapped(self)
    }

    func surfaceDestroyed() {}

    override func resourceDestroyed() {
        windows.listings.closed(self)
        surface?.removeNode()
    }

    /// A window where the window policy puts it; one the policy sizes (maximized and
    /// fullscreen ones, every one in kiosk mode, by default) sits at its output's origin and
    /// is told that size.
    private func placeToplevel(_ state: WindowState) {
        guard let surface, !isPlaced, let resource else { return }
        isPlaced = true
        isToplevel = true
        self.state = state
        let output = windows.outputs.primary
        let size = windows.policy.configure(state, on: output).size
        let position = size != nil ? output?.usableArea.origin ?? .zero : windows.policy.placeNewWindow(in: windows.outputs.layout)
        surface.createNode(.surface(of: surface.owner.id, isToplevel: true, position: position, isMapped: false), under: windows.context.scene.root,
                           at: windows.windowStackPosition)
        if let size {
            wl_shell_surface_send_configure(resource, WL_SHELL_SURFACE_RESIZE_NONE.rawValue, Int32(clamping: size.width), Int32(clamping: size.height))
        }
    }

    /// Relative to the parent surface, as transients and popups are.
    private func place(relativeTo parentResource: OpaquePointer?, x: Int32, y: Int32) {
        guard let surface, !isPlaced, let parentNode = Surface.from(parentResource)?.node else { return }
        isPlaced = true
        surface.createNode(.surface(of: surface.owner.id, position: Position(x: Int(x), y: Int(y)), isMapped: false), under: parentNode)
    }

    static let requests = RequestTable(wl_shell_surface_interface(
        pong: { _, _, _ in },
        move: { _, _, _, _ in },
        resize: { _, _, _, _, _ in },
        set_toplevel: { _, r in ShellSurface.from(r)?.placeToplevel(WindowState()) },
        set_transient: { _, r, parent, x, y, _ in ShellSurface.from(r)?.place(relativeTo: parent, x: x, y: y) },
        set_fullscreen: { _, r, _, _, _ in ShellSurface.from(r)?.placeToplevel(WindowState(isFullscreen: true)) },
        set_popup: { _, r, _, _, parent, x, y, _ in ShellSurface.from(r)?.place(relativeTo: parent, x: x, y: y) },
        set_maximized: { _, r, _ in ShellSurface.from(r)?.placeToplevel(WindowState(isMaximized: true)) },
        set_title: { _, r, title in
            guard let shell = ShellSurface.from(r) else { return }
            shell.title = printableLabel(title)
            shell.windows.listings.changed(shell)
        },
        set_class: { _, r, appID in
            guard let shell = ShellSurface.from(r) else { return }
            shell.appID = printableLabel(appID, limit: appIDLabelLimit)
            shell.windows.listings.changed(shell)
        }
    ))
}
