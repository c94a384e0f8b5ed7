import CXCB
import Glibc
import Responder

/// What X tells its window manager, and the answers.
extension XConnection {
    func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let raw = UnsafeRawPointer(event)
        switch Int32(tactile_xcb_event_kind(event)) {
        case 0:
            // An error: a request about a window that was destroyed meanwhile, usually.
            let error = raw.load(as: xcb_generic_error_t.self)
            logger.debug("X error \(error.error_code) on request \(error.major_code) (resource 0x\(String(error.resource_id, radix: 16)))")
        case XCB_CREATE_NOTIFY: created(raw.load(as: xcb_create_notify_event_t.self))
        case XCB_DESTROY_NOTIFY: destroyed(raw.load(as: xcb_destroy_notify_event_t.self).window)
        case XCB_MAP_REQUEST: mapRequested(raw.load(as: xcb_map_request_event_t.self).window)
        case XCB_MAP_NOTIFY: mapped(raw.load(as: xcb_map_notify_event_t.self))
        case XCB_UNMAP_NOTIFY: unmapped(raw.load(as: xcb_unmap_notify_event_t.self).window)
        case XCB_CONFIGURE_REQUEST: configureRequested(raw.load(as: xcb_configure_request_event_t.self))
        case XCB_CONFIGURE_NOTIFY: configured(raw.load(as: xcb_configure_notify_event_t.self))
        case XCB_PROPERTY_NOTIFY: propertyChanged(raw.load(as: xcb_property_notify_event_t.self))
        case XCB_CLIENT_MESSAGE: message(raw.load(as: xcb_client_message_event_t.self), sent: event.pointee.response_type & 0x80 != 0)
        default: _ = selectionBridge?.handle(tactile_xcb_event_kind(event), raw)
        }
    }

    private func created(_ event: xcb_create_notify_event_t) {
        guard event.window != checkWindow, event.parent == root else { return }
        let frame = Rect(x: Int(event.x), y: Int(event.y), width: Int(event.width), height: Int(event.height))
        windows[event.window] = XWindow(id: event.window, frame: frame, overrideRedirect: event.override_redirect != 0)
        // Property changes of its own: titles, WM_HINTS, states set after mapping.
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_change_window_attributes(xcb, event.window, XCB_CW_EVENT_MASK.rawValue, &mask)
    }

    private func destroyed(_ id: xcb_window_t) {
        guard let window = windows.removeValue(forKey: id) else { return }
        unlist(window)
        window.role?.unmapped()
    }

    /// A client maps a window: the policy places it, and it is mapped there.
    private func mapRequested(_ id: xcb_window_t) {
        guard let window = windows[id] else { return }
        window.properties = readProperties(of: id)
        window.state = readState(of: id)
        window.isManaged = true
        place(window, first: true)
        set(.wmState, of: id, type: atoms[.wmState], [1, UInt32(XCB_NONE)])  // NormalState, no icon
        xcb_map_window(xcb, id)
        if !clientList.contains(id) {
            clientList.append(id)
            setWindows(.netClientList, of: root, to: clientList)
        }
        writeState(of: window)
    }

    /// Menus and tooltips map themselves; their properties are read for the trace.
    private func mapped(_ event: xcb_map_notify_event_t) {
        guard let window = windows[event.window], window.overrideRedirect, event.override_redirect != 0 else { return }
        window.properties = readProperties(of: event.window)
    }

    /// Unmapped: out of the scene at once (Xwayland destroys its surface in a moment).
    private func unmapped(_ id: xcb_window_t) {
        guard let window = windows[id] else { return }
        if window.isManaged {
            window.isManaged = false
            set(.wmState, of: id, type: atoms[.wmState], [0, UInt32(XCB_NONE)])  // WithdrawnState
            unlist(window)
        }
        window.role?.unmapped()
        window.role = nil
    }

    private func unlist(_ window: XWindow) {
        guard let index = clientList.firstIndex(of: window.id) else { return }
        clientList.remove(at: index)
        setWindows(.netClientList, of: root, to: clientList)
    }

    /// Before it is mapped, or when the policy lets it choose, a window gets the geometry it
    /// asks for; a window the policy sizes keeps its place and is told so (ICCCM 4.1.5).
    private func configureRequested(_ event: xcb_configure_request_event_t) {
        guard let window = windows[event.window] else { return }
        var frame = window.frame
        let mask = UInt32(event.value_mask)
        if mask & UInt32(XCB_CONFIG_WINDOW_X.rawValue) != 0 { frame.x = Int(event.x) }
        if mask & UInt32(XCB_CONFIG_WINDOW_Y.rawValue) != 0 { frame.y = Int(event.y) }
        if mask & UInt32(XCB_CONFIG_WINDOW_WIDTH.rawValue) != 0 { frame.width = Int(event.width) }
        if mask & UInt32(XCB_CONFIG_WINDOW_HEIGHT.rawValue) != 0 { frame.height = Int(event.height) }
        if window.isManaged, let fixed = policyFrame(for: window) {
            frame = fixed
        } else if window.isManaged, !manager.windows.policy.isMovable(window.state) {
            frame.x = window.frame.x
            frame.y = window.frame.y
        }
        configure(window, to: frame)
        if frame == window.frame { sendSyntheticConfigure(window) }
    }

    /// X says where a window is now: its surface follows.
    private func configured(_ event: xcb_configure_notify_event_t) {
        guard let window = windows[event.window] else { return }
        window.frame = Rect(x: Int(event.x), y: Int(event.y), width: Int(event.width), height: Int(event.height))
        window.overrideRedirect = event.override_redirect != 0
        window.role?.surface?.placeWindow(at: window.frame.origin)
    }

    private func propertyChanged(_ event: xcb_property_notify_event_t) {
        guard let window = windows[event.window] else { return }
        let watched: [xcb_atom_t] = [xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), xcb_atom_t(XCB_ATOM_WM_HINTS.rawValue),
                                     xcb_atom_t(XCB_ATOM_WM_TRANSIENT_FOR.rawValue), atoms[.netWMName], atoms[.wmProtocols], atoms[.netWMWindowType], atoms[.netWMPID]]
        guard watched.contains(event.atom) else { return }
        window.properties = readProperties(of: event.window)
        if let role = window.role, window.isManaged { manager.windows.listings.changed(role) }
    }

    /// `sent`: by a client's SendEvent. Xwayland's own WL_SURFACE_ID never is, and one an X
    /// client forged (to show its window with another's surface) is ignored.
    private func message(_ event: xcb_client_message_event_t, sent: Bool) {
        let data = event.data.data32
        switch atoms.named(event.type) {
        case .wlSurfaceID:
            guard !sent, let window = windows[event.window] else { return }
            announced(surfaceID: data.0, for: window)
        case .netWMState:
            guard let window = windows[event.window] else { return }
            stateMessage(window, action: data.0, properties: [data.1, data.2])
        case .netActiveWindow:
            guard let window = windows[event.window], window.isManaged, let role = window.role else { return }
            activationRequested(role)
        case .wmChangeState:
            // IconicState: a minimize button drawn by the client.
            guard let window = windows[event.window], data.0 == 3, let role = window.role else { return }
            role.setMinimized(true)
        default:
            break
        }
    }

    /// _NET_WM_STATE's remove (0), add (1) or toggle (2) of fullscreen and maximized.
    private func stateMessage(_ window: XWindow, action: UInt32, properties: [xcb_atom_t]) {
        func wanted(_ current: Bool) -> Bool? {
            switch action {
            case 0: false
            case 1: true
            case 2: !current
            default: nil
            }
        }
        var maximized: Bool?, fullscreen: Bool?
        for property in properties {
            switch atoms.named(property) {
            case .netWMStateFullscreen: fullscreen = wanted(window.state.isFullscreen)
            case .netWMStateMaximizedVert, .netWMStateMaximizedHorz: maximized = wanted(window.state.isMaximized)
            default: break
            }
        }
        if !window.isManaged {
            // Before mapping, the state is the one to map with.
            if let maximized { window.state.isMaximized = maximized }
            if let fullscreen { window.state.isFullscreen = fullscreen }
            return
        }
        change(window, maximized: maximized, fullscreen: fullscreen)
    }

    /// An X client asked for one of its windows to be activated: granted when the X apps
    /// already hold keyboard focus (or nobody does), as an xdg activation token would be.
    private func activationRequested(_ role: XwaylandSurface) {
        let context = manager.context
        let holder = context.keyboardFocusClient
        guard let node = role.surface?.node, let owner = role.surface?.owner.id else { return }
        if holder == nil || holder == owner {
            role.activate()
        } else {
            manager.windows.withholdFocus(from: node, of: owner, because: "x11-activation-from-background")
        }
    }
}
