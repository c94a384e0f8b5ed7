import CXCB
import Responder

/// What the window manager knows of one X window: where X has it, what its properties say,
/// and the wl_surface Xwayland shows it with, once paired.
final class XWindow {
    let id: xcb_window_t
    /// Where X has it, in root coordinates (Tactile's global layout coordinates), as its last
    /// ConfigureNotify said.
    var frame: Rect
    /// A menu or tooltip X places itself: never managed, shown where it says, above the rest.
    var overrideRedirect: Bool
    /// Mapped through a MapRequest the window manager granted (override-redirect windows map
    /// themselves).
    var isManaged = false
    /// The id of its wl_surface in Xwayland's connection (WL_SURFACE_ID), until paired.
    var surfaceID: UInt32?
    /// The role of its wl_surface, once paired.
    weak var role: XwaylandSurface?
    var properties = XWindowProperties()
    /// What the client asked of it through _NET_WM_STATE (and the window manager granted).
    var state = WindowState()
    var isMinimized = false

    init(id: xcb_window_t, frame: Rect, overrideRedirect: Bool) {
        self.id = id
        self.frame = frame
        self.overrideRedirect = overrideRedirect
    }

    /// A dialog, a transient of another window, or a splash: shown at its own size over its
    /// parent (or centred on the output), never stretched to fill it.
    var isDialog: Bool {
        properties.transientFor != nil || properties.isDialogType
    }
}

/// The ICCCM and EWMH properties a kiosk's apps set, read with bounds: a hostile client's
/// property is at most `XWindowProperties.longestRead` long, and titles are made printable.
struct XWindowProperties {
    var title: String?
    /// WM_CLASS's class, the app id docks and the trace show.
    var appClass: String?
    /// _NET_WM_PID, else the pid XRes finds behind the window.
    var pid: Int32?
    var deletesWindow = false
    var takesFocus = false
    /// WM_HINTS' input field: false for windows that take focus only through WM_TAKE_FOCUS.
    var acceptsInput = true
    var transientFor: xcb_window_t?
    /// _NET_WM_WINDOW_TYPE names a dialog, a utility window or a splash.
    var isDialogType = false

    /// In 32-bit units: 64 KiB of title is far more than any window shows.
    static let longestRead: UInt32 = 16_384
}
