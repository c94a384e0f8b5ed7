import CWaylandServer
import WaylandProtocols
import CXCB
import Glibc
import Logging
import Responder

/// The window manager's connection to one Xwayland: the XCB connection on the server's loop,
/// the atoms, the root, the windows X told it of, and the surfaces waiting to be paired.
/// Replies are waited for where a property is read (as weston's and wlroots' window managers
/// do): Xwayland answers its window manager before it waits on the Wayland side.
final class XConnection {
    let xcb: OpaquePointer
    let atoms: XAtoms
    let root: xcb_window_t
    /// The window _NET_SUPPORTING_WM_CHECK names, which owns WM_S0.
    let checkWindow: xcb_window_t
    /// Xwayland's own Wayland connection, whose surfaces X windows are shown with.
    let xwayland: OpaquePointer
    unowned(unsafe) let manager: XWindowManager
    var windows: [xcb_window_t: XWindow] = [:]
    /// Managed windows in the order they were mapped, for _NET_CLIENT_LIST.
    var clientList: [xcb_window_t] = []
    /// The longest side a window the window manager sizes is given: what Tactile shows.
    let largestSide: Int
    /// The window X's input focus was last given to.
    private var focused: xcb_window_t?
    private var source: EventSource?
    /// The clipboard and primary selection between X and Wayland (nil without XFixes).
    private(set) var selectionBridge: XSelectionBridge?
    private let ended: (String) -> Void
    private var isOpen = true

    var logger: Logger { manager.context.logger }

    init(socket: Int32, xwayland: OpaquePointer, manager: XWindowManager, selections: Selections, loop: OpaquePointer,
         ended: @escaping (String) -> Void) throws(XConnectionError) {
        guard let xcb = xcb_connect_to_fd(socket, nil) else { throw XConnectionError(description: "no XCB connection on fd \(socket)") }
        guard xcb_connection_has_error(xcb) == 0, let screen = xcb_setup_roots_iterator(xcb_get_setup(xcb)).data?.pointee else {
            xcb_disconnect(xcb)
            throw XConnectionError(description: "Xwayland refused the window manager's connection")
        }
        guard let atoms = XAtoms(connection: xcb) else {
            xcb_disconnect(xcb)
            throw XConnectionError(description: "Xwayland did not answer the window manager's atoms")
        }
        self.xcb = xcb
        self.atoms = atoms
        self.xwayland = xwayland
        ClientState.of(xwayland)?.isXwayland = true
        largestSide = ClientState.of(xwayland)?.limits.bufferSide ?? Int(Int16.max)
        self.manager = manager
        self.ended = ended
        root = screen.root
        checkWindow = xcb_generate_id(xcb)
        try becomeWindowManager(screen: screen)
        selectionBridge = XSelectionBridge(connection: self, selections: selections, root: root, loop: loop)
        if selectionBridge == nil { logger.warning("Xwayland has no XFixes: no clipboard between X and Wayland clients") }
        // A Wayland client's selection from before this Xwayland is X's too.
        for kind in SelectionKind.allCases { selectionBridge?.waylandSelectionChanged(kind) }
        source = EventSource.readable(xcb_get_file_descriptor(xcb), on: loop, loopOwner: nil) { [unowned self] in dispatch() }
        xcb_flush(xcb)
    }

    deinit {
        source = nil
        selectionBridge?.disconnected()
        xcb_disconnect(xcb)
    }

    /// Redirects the root's children (a wl_surface each, and no X stacking of its own to
    /// draw), takes over map and configure requests, and says so as ICCCM and EWMH ask: the
    /// WM_S0 selection and _NET_SUPPORTING_WM_CHECK.
    private func becomeWindowManager(screen: xcb_screen_t) throws(XConnectionError) {
        let composite = xcb_composite_query_version_reply(xcb, xcb_composite_query_version(xcb, 0, 4), nil)
        guard let composite else { throw XConnectionError(description: "Xwayland has no Composite extension") }
        free(composite)
        let mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        let cookie = withUnsafeBytes(of: mask) { xcb_change_window_attributes_checked(xcb, root, XCB_CW_EVENT_MASK.rawValue, $0.baseAddress) }
        if let error = xcb_request_check(xcb, cookie) {
            free(error)
            throw XConnectionError(description: "another window manager runs on this X display")
        }
        xcb_composite_redirect_subwindows(xcb, root, UInt8(XCB_COMPOSITE_REDIRECT_MANUAL.rawValue))
        xcb_create_window(xcb, UInt8(XCB_COPY_FROM_PARENT), checkWindow, root, 0, 0, 1, 1, 0,
                          UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual, 0, nil)
        setWindows(.netSupportingWMCheck, of: checkWindow, to: [checkWindow])
        setWindows(.netSupportingWMCheck, of: root, to: [checkWindow])
        setText(.netWMName, of: checkWindow, to: "Tactile")
        let supported: [XAtom] = [.netSupportingWMCheck, .netClientList, .netActiveWindow, .netWMName, .netWMPID, .netWMState,
                                  .netWMStateFullscreen, .netWMStateMaximizedVert, .netWMStateMaximizedHorz, .netWMStateHidden,
                                  .netWMStateFocused, .netWMWindowType]
        setAtoms(.netSupported, of: root, to: supported.map { atoms[$0] })
        setWindows(.netClientList, of: root, to: [])
        xcb_set_selection_owner(xcb, checkWindow, atoms[.wmS0], UInt32(XCB_CURRENT_TIME))
        xcb_set_selection_owner(xcb, checkWindow, atoms[.netWMCMS0], UInt32(XCB_CURRENT_TIME))
    }

    /// Reads every event X has sent, then sends what handling them asked of X.
    private func dispatch() {
        while isOpen, let event = xcb_poll_for_event(xcb) {
            handle(event)
            free(event)
        }
        guard isOpen else { return }
        if xcb_connection_has_error(xcb) != 0 { return close(because: "Xwayland closed the window manager's connection") }
        xcb_flush(xcb)
    }

    private func close(because reason: String) {
        guard isOpen else { return }
        isOpen = false
        source = nil
        ended(reason)
    }

    // MARK: Pairing windows with surfaces

    /// WL_SURFACE_ID: the surface may already be on the server, or come in a moment (the
    /// window then waits with its `surfaceID`, one at most).
    func announced(surfaceID: UInt32, for window: XWindow) {
        if let surface = surface(withID: surfaceID) {
            pair(window, with: surface)
        } else {
            window.surfaceID = surfaceID
        }
    }

    /// Xwayland's wl_surface of that id: never another object of its.
    private func surface(withID id: UInt32) -> Surface? {
        Surface.from(wl_client_get_object(xwayland, id), madeFor: tactile_wl_surface_interface(), with: Surface.requests)
    }

    func surfaceCreated(_ surface: Surface) {
        guard surface.owner.client == xwayland, let resource = surface.resource,
              let window = windows.values.first(where: { $0.surfaceID == wl_resource_get_id(resource) }) else { return }
        // Its handler runs as the request is read; the surface is ready once the loop turns.
        manager.context.afterScene { [weak self, weak surface] in
            guard let self, let surface, window.surfaceID == wl_resource_get_id(resource) else { return }
            pair(window, with: surface)
        }
    }

    /// Gives the window's surface its role and puts it in the scene where X has the window: a
    /// managed one as a toplevel, a menu or tooltip above the windows.
    private func pair(_ window: XWindow, with surface: Surface) {
        window.surfaceID = nil
        guard !surface.hasRole else {
            return logger.warning("X window 0x\(String(window.id, radix: 16)): its wl_surface already has a role; not shown")
        }
        let role = XwaylandSurface(window: window, surface: surface, manager: manager)
        surface.role = role
        window.role = role
        surface.createNode(.surface(of: surface.owner.id, isToplevel: !window.overrideRedirect, position: window.frame.origin, isMapped: false),
                           under: manager.context.scene.root, at: manager.windows.windowStackPosition)
    }

    // MARK: Focus, state, closing

    /// Gives X's input focus to the window holding the seat's keyboard focus (as ICCCM's
    /// input models say: SetInputFocus, WM_TAKE_FOCUS, or both), and says which is active.
    func focus(_ window: XWindow?) {
        guard isOpen, window?.id != focused else { return }
        let previous = focused.flatMap { windows[$0] }
        focused = window?.id
        if let window {
            if window.properties.acceptsInput {
                xcb_set_input_focus(xcb, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window.id, UInt32(XCB_CURRENT_TIME))
            }
            if window.properties.takesFocus { sendProtocol(.wmTakeFocus, to: window) }
            manager.restack()
        } else {
            xcb_set_input_focus(xcb, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), UInt32(XCB_NONE), UInt32(XCB_CURRENT_TIME))
        }
        setWindows(.netActiveWindow, of: root, to: window.map { [$0.id] } ?? [])
        for changed in [previous, window].compactMap({ $0 }) where changed.isManaged { writeState(of: changed) }
        xcb_flush(xcb)
    }

    /// Stacks the X windows as the scene stacks their surfaces: X picks the window under a
    /// touch by its own stacking, which must agree with what Tactile shows and hit-tests.
    func restackLikeScene() {
        guard isOpen else { return }
        let context = manager.context
        let scene = context.scene
        let (below, above) = scene.children(of: scene.root)
        var top = XCB_STACK_MODE_ABOVE.rawValue
        // Each raised to the top in turn, bottom first.
        for node in below + above {
            guard let role = context.surface(at: node)?.role as? XwaylandSurface else { continue }
            xcb_configure_window(xcb, role.window.id, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), &top)
        }
        xcb_flush(xcb)
    }

    /// _NET_WM_STATE as the window is now.
    func writeState(of window: XWindow) {
        guard isOpen, window.isManaged else { return }
        var states: [XAtom] = []
        if window.state.isFullscreen { states.append(.netWMStateFullscreen) }
        if window.state.isMaximized { states += [.netWMStateMaximizedVert, .netWMStateMaximizedHorz] }
        if window.isMinimized { states.append(.netWMStateHidden) }
        if focused == window.id { states.append(.netWMStateFocused) }
        setAtoms(.netWMState, of: window.id, to: states.map { atoms[$0] })
        xcb_flush(xcb)
    }

    /// Maximizes or fullscreens a window (a dock's request, or _NET_WM_STATE) and places it
    /// as the policy says for that state.
    func change(_ window: XWindow, maximized: Bool?, fullscreen: Bool?) {
        var state = window.state
        if let maximized { state.isMaximized = maximized }
        if let fullscreen { state.isFullscreen = fullscreen }
        guard state != window.state else { return }
        window.state = state
        if window.isManaged {
            place(window)
            window.role.map { manager.windows.listings.changed($0) }
        }
        writeState(of: window)
    }

    /// WM_DELETE_WINDOW for a window that takes it; otherwise its client is disconnected, as
    /// every X window manager closes a window that cannot be asked.
    func close(_ window: XWindow) {
        guard isOpen else { return }
        if window.properties.deletesWindow {
            sendProtocol(.wmDeleteWindow, to: window)
        } else {
            logger.info("X window 0x\(String(window.id, radix: 16)) has no WM_DELETE_WINDOW: its client is disconnected")
            xcb_kill_client(xcb, window.id)
        }
        xcb_flush(xcb)
    }

    /// A WM_PROTOCOLS client message (WM_DELETE_WINDOW, WM_TAKE_FOCUS).
    private func sendProtocol(_ name: XAtom, to window: XWindow) {
        var message = xcb_client_message_event_t()
        message.response_type = UInt8(XCB_CLIENT_MESSAGE)
        message.format = 32
        message.window = window.id
        message.type = atoms[.wmProtocols]
        message.data.data32 = (atoms[name], UInt32(XCB_CURRENT_TIME), 0, 0, 0)
        send(message, to: window.id)
    }

    /// An event of ours to `window`'s client (SendEvent), padded to X's 32 bytes.
    func send<Event>(_ event: Event, to window: xcb_window_t, mask: UInt32 = XCB_EVENT_MASK_NO_EVENT.rawValue) {
        var padded = [CChar](repeating: 0, count: 32)
        withUnsafeBytes(of: event) { bytes in
            for (k, byte) in bytes.prefix(32).enumerated() { padded[k] = CChar(bitPattern: byte) }
        }
        _ = xcb_send_event(xcb, 0, window, mask, padded)
    }

    // MARK: Properties the window manager writes

    func setAtoms(_ property: XAtom, of window: xcb_window_t, to values: [xcb_atom_t]) {
        set(property, of: window, type: xcb_atom_t(XCB_ATOM_ATOM.rawValue), values)
    }

    func setWindows(_ property: XAtom, of window: xcb_window_t, to values: [xcb_window_t]) {
        set(property, of: window, type: xcb_atom_t(XCB_ATOM_WINDOW.rawValue), values)
    }

    func set(_ property: XAtom, of window: xcb_window_t, type: xcb_atom_t, _ values: [UInt32]) {
        set(atoms[property], of: window, type: type, values)
    }

    func set(_ property: xcb_atom_t, of window: xcb_window_t, type: xcb_atom_t, _ values: [UInt32]) {
        values.withUnsafeBytes { bytes in
            _ = xcb_change_property(xcb, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 32, UInt32(values.count), bytes.baseAddress)
        }
    }

    private func setText(_ property: XAtom, of window: xcb_window_t, to text: String) {
        let bytes = Array(text.utf8)
        _ = xcb_change_property(xcb, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, atoms[property], atoms[.utf8String], 8, UInt32(bytes.count), bytes)
    }
}
