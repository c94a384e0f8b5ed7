import CXCB
import Responder

/// The role of a wl_surface Xwayland shows an X window with, given when the window manager
/// pairs them (WL_SURFACE_ID). A managed window is a toplevel like an xdg one: placed by the
/// window policy, focused, listed for docks, closed through WM_DELETE_WINDOW. An
/// override-redirect window (a menu, a tooltip) sits where X put it, above the windows.
final class XwaylandSurface: SurfaceRole, ListedWindow {
    let window: XWindow
    weak var surface: Surface?
    /// Unchecked: the window manager outlives every surface of its display.
    unowned(unsafe) let manager: XWindowManager
    private var hasMapped = false
    /// Docks were told of it (a managed window's first buffer), and must hear it go.
    private var isListed = false
    let roleName = "xwayland"

    init(window: XWindow, surface: Surface, manager: XWindowManager) {
        self.window = window
        self.surface = surface
        self.manager = manager
    }

    var windows: Windows { manager.windows }
    var isMapped: Bool { window.isManaged || window.overrideRedirect }
    var windowSurface: Surface? { surface }
    var title: String? { window.properties.title }
    var appID: String? { window.properties.appClass }
    var pid: Int32? { window.properties.pid }

    var isMinimized: Bool {
        get { window.isMinimized }
        set {
            window.isMinimized = newValue
            manager.writeState(of: window)
        }
    }

    /// A managed toplevel's first buffer shows it: it comes to the front and takes keyboard
    /// focus as the policy says, and docks hear of it. A menu's comes to the front only.
    func committed(surface: Surface, hadBuffer: Bool) {
        guard !hasMapped, surface.hasBuffer, let node = surface.node else { return }
        hasMapped = true
        if window.isManaged {
            windows.windowMapped(node, surface: surface)
            windows.listings.mapped(self)
            isListed = true
        } else {
            windows.context.updateScene { [position = windows.windowStackPosition] in _ = $0.restack(node, to: position) }
        }
        manager.restack()
    }

    /// X unmapped or destroyed the window: out of the scene and the docks' lists at once
    /// (Xwayland destroys the surface in a moment).
    func unmapped() {
        surfaceDestroyed()
        surface?.removeNode()
    }

    func surfaceDestroyed() {
        if isListed { windows.listings.closed(self) }
        isListed = false
    }

    func layoutChanged() { manager.placeAgain(window) }

    func sizeState() -> (maximized: Bool, fullscreen: Bool) { (window.state.isMaximized, window.state.isFullscreen) }

    func request(maximized: Bool?, fullscreen: Bool?) {
        manager.change(window, maximized: maximized, fullscreen: fullscreen)
    }

    func sendClose() { manager.close(window) }
}
