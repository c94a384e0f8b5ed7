import CXCB
import Glibc

/// The atoms the window manager speaks, interned once per connection.
enum XAtom: String, CaseIterable {
    case wlSurfaceID = "WL_SURFACE_ID"
    case wmProtocols = "WM_PROTOCOLS"
    case wmDeleteWindow = "WM_DELETE_WINDOW"
    case wmTakeFocus = "WM_TAKE_FOCUS"
    case wmState = "WM_STATE"
    case wmChangeState = "WM_CHANGE_STATE"
    case wmS0 = "WM_S0"
    case netWMCMS0 = "_NET_WM_CM_S0"
    case utf8String = "UTF8_STRING"
    case clipboard = "CLIPBOARD"
    case targets = "TARGETS"
    case text = "TEXT"
    case incr = "INCR"
    case timestamp = "TIMESTAMP"
    /// Where the bridge has X clients put the selections it reads.
    case tactileSelection = "_TACTILE_SELECTION"
    case netSupported = "_NET_SUPPORTED"
    case netSupportingWMCheck = "_NET_SUPPORTING_WM_CHECK"
    case netClientList = "_NET_CLIENT_LIST"
    case netActiveWindow = "_NET_ACTIVE_WINDOW"
    case netWMName = "_NET_WM_NAME"
    case netWMPID = "_NET_WM_PID"
    case netWMState = "_NET_WM_STATE"
    case netWMStateFullscreen = "_NET_WM_STATE_FULLSCREEN"
    case netWMStateMaximizedVert = "_NET_WM_STATE_MAXIMIZED_VERT"
    case netWMStateMaximizedHorz = "_NET_WM_STATE_MAXIMIZED_HORZ"
    case netWMStateHidden = "_NET_WM_STATE_HIDDEN"
    case netWMStateFocused = "_NET_WM_STATE_FOCUSED"
    case netWMWindowType = "_NET_WM_WINDOW_TYPE"
    case netWMWindowTypeDialog = "_NET_WM_WINDOW_TYPE_DIALOG"
    case netWMWindowTypeUtility = "_NET_WM_WINDOW_TYPE_UTILITY"
    case netWMWindowTypeSplash = "_NET_WM_WINDOW_TYPE_SPLASH"
}

/// The atoms of one connection, both ways.
struct XAtoms {
    private var byName: [XAtom: xcb_atom_t] = [:]
    private var byAtom: [xcb_atom_t: XAtom] = [:]

    /// Interns every atom: all requests first, then the replies, one round trip in all.
    init?(connection: OpaquePointer) {
        let cookies = XAtom.allCases.map { atom in
            atom.rawValue.withCString { xcb_intern_atom(connection, 0, UInt16(strlen($0)), $0) }
        }
        for (atom, cookie) in zip(XAtom.allCases, cookies) {
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return nil }
            byName[atom] = reply.pointee.atom
            byAtom[reply.pointee.atom] = atom
            free(reply)
        }
    }

    subscript(_ atom: XAtom) -> xcb_atom_t { byName[atom] ?? xcb_atom_t(XCB_ATOM_NONE.rawValue) }

    /// Which of ours `atom` is, if any.
    func named(_ atom: xcb_atom_t) -> XAtom? { byAtom[atom] }
}
