import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_toplevel (or zxdg_toplevel_v6): a window. Placed and sized by the window policy, mapped once
/// it commits a buffer (WLCS and some clients commit before acking the first configure, so
/// mapping does not wait for the ack).
final class XdgToplevel: ResourceObject, XdgRole, ListedWindow {
    let xdg: XdgSurface
    var isAlive: Bool { resource != nil }
    var isMapped: Bool { resource != nil }
    /// What the client asked for (maximized, fullscreen); the policy says what it gets.
    private(set) var state = WindowState()
    private var hasCommitted = false
    private var hasMapped = false
    /// Hidden by the user (xdg_toplevel.set_minimized, or a dock's foreign-toplevel handle)
    /// until something activates, maximizes or fullscreens it.
    var isMinimized = false
    /// The size an interactive resize asked for; kept as the window's size afterwards.
    private var requestedSize: Size?
    private var isResizing = false
    /// Not shown anywhere (xdg_toplevel 6's suspended), as last configured.
    private var isSuspended = false
    /// The output edges it may not grow past (xdg_toplevel 7's constrained states), as last
    /// configured: `ConstrainedEdges`' bits.
    private var constrained: UInt8 = 0
    /// Its zxdg_toplevel_decoration_v1, while the client keeps one.
    weak var decoration: ToplevelDecoration?
    /// The window it belongs to (xdg_toplevel.set_parent): a dialog's.
    private(set) weak var parent: XdgToplevel?
    /// Its xdg_dialog_v1, while the client keeps one.
    weak var dialog: XdgDialogObject?
    /// Its own icon (xdg_toplevel_icon_v1) as last committed, and one set since.
    private(set) var icon: ToplevelIcon?
    var pendingIcon: ToplevelIcon??
    /// Set as its resource goes, before its node does: it no longer blocks its parent.
    private(set) var isClosing = false
    /// Over its surface while a modal dialog of its is mapped: catches its input. `shielded`
    /// says so at once; the node exists once the scene change made it applied.
    private var shielded = false
    private var modalShield: NodeID?
    /// As the client set them, for traces and the inspector (`printableLabel`).
    private(set) var title: String?
    private(set) var appID: String?
    /// xdg_toplevel_tag_v1's tag, as set (`printableLabel`).
    private(set) var tag: String?
    /// The `windows` rule last applied for its app id and tag.
    private var rule: WindowRule?
    let roleName = "toplevel"

    init(xdg: XdgSurface) { self.xdg = xdg }

    var windowSurface: Surface? { xdg.surface }
    var windows: Windows { xdg.windows }

    static func create(_ xdg: XdgSurface, _ client: OpaquePointer, _ id: UInt32) -> XdgToplevel? {
        guard let surface = xdg.surface else { return nil }
        let toplevel = XdgToplevel(xdg: xdg)
        guard toplevel.bind(client: client, interface: xdg.flavor.interface(.toplevel), version: xdg.version, id: id, implementation: requests) else { return nil }
        let windows = xdg.windows
        let position = windows.policy.placeNewWindow(in: windows.outputs.layout)
        surface.createNode(.surface(of: surface.owner.id, isToplevel: true, position: position, isMapped: false), under: windows.context.scene.root,
                           at: windows.windowStackPosition)
        // Configured at once as well as on the initial commit: WLCS 1.5's clients wait for a
        // configure without committing, and a second configure costs a spec-following client
        // nothing (it acks the latest).
        toplevel.sendConfigure()
        return toplevel
    }

    /// Configures on the initial commit, and again when the window first maps (as Mir and
    /// GNOME do; WLCS 1.5's clients wait for that one).
    /// The first map also takes keyboard focus, which configures the window as activated;
    /// then that configure is the map's.
    func committed(surface: Surface, hadBuffer: Bool) {
        // A dialog mapping or unmapping blocks or frees its parent; a parent resized resizes
        // its shield.
        parent?.updateModalShield()
        if shielded { updateModalShield() }
        if let pendingIcon {
            icon = pendingIcon
            self.pendingIcon = nil
        }
        let maps = !hadBuffer && surface.hasBuffer
        guard !hasCommitted || maps else { return }
        if !hasCommitted { applyRule() }
        hasCommitted = true
        if maps, !hasMapped, let node = surface.node {
            hasMapped = true
            windows.windowMapped(node, surface: surface)
            windows.listings.mapped(self)
            if windows.activated === self { return }
        }
        sendConfigure()
    }

    /// The compositor asks the window to close (a gesture's close-focused action).
    func sendClose() {
        guard let resource else { return }
        xdg_toplevel_send_close(resource)
    }

    /// Keyboard focus came or went (see `Windows.focusChanged`).
    func activationChanged() { sendConfigure() }

    /// Outputs came or went, or layer surfaces took space: a window that fills its output is
    /// told the size it has now, and one whose rule names an output that came goes there.
    func layoutChanged() {
        guard hasCommitted else { return }
        let moved = placeByRule()
        guard moved || windows.policy.configure(state, on: output).size != nil else { return }
        sendConfigure()
    }

    /// Its app id or tag changed after its initial commit: a rule that now matches applies.
    private func identityChanged() {
        windows.listings.changed(self)
        guard hasCommitted, windows.policy.rule(appID: appID, tag: tag) != rule else { return }
        applyRule()
        sendConfigure()
    }

    /// The configuration's rule for its app id and tag (`WindowRule`), as the window is first
    /// configured or its identity changes: full screen or not, as if the app had asked, and
    /// on the rule's output while that is connected.
    private func applyRule() {
        let matching = windows.policy.rule(appID: appID, tag: tag)
        guard matching != rule else { return }
        rule = matching
        guard let matching else { return }
        if let fullscreen = matching.fullscreen { state.isFullscreen = fullscreen }
        let placed = placeByRule()
        let identity = [appID.map { "app_id=\($0)" }, tag.map { "tag=\"\($0)\"" }].compactMap { $0 }.joined(separator: " ")
        let fullscreen = matching.fullscreen.map { $0 ? ", full screen" : ", not full screen" } ?? ""
        let target = matching.output.map { name in placed || ruleOutput != nil ? " on \(name)" : " on \(name) once it is connected (until then where it would go)" } ?? ""
        windows.context.logger.info("window \(identity): \(matching.label) puts it\(target)\(fullscreen)")
    }

    /// The connected output the rule names.
    private var ruleOutput: PlacedOutput? {
        guard let name = rule?.output else { return nil }
        return windows.outputs.layout.first { $0.description.name == name }
    }

    /// Moves the window onto its rule's output when it is elsewhere: whether it moved.
    private func placeByRule() -> Bool {
        guard let target = ruleOutput, sceneOutput?.id != target.id else { return false }
        xdg.surface?.placeWindow(at: target.usableArea.origin)
        return true
    }

    /// Puts a shield over the window while a modal dialog of its is mapped (sized as its
    /// surface, above its subsurfaces), and takes it away once there is none: touches and
    /// the pointer there reach no client, and keyboard focus moves to the dialog.
    func updateModalShield() {
        guard let surface = xdg.surface, let node = surface.node else { return }
        let dialogs = isClosing ? [] : modalDialogs
        let blocked = !dialogs.isEmpty
        let size = surface.size
        let context = windows.context
        switch (blocked, shielded) {
        case (true, false):
            shielded = true
            context.updateScene { [weak self] scene in
                guard let self else { return }
                modalShield = scene.add(.compositor(size: size, inputRegion: .infinite), to: node, at: .top)
            }
            if context.focus.keyboard.flatMap({ context.scene.toplevel(containing: $0) }) == node,
               let dialogNode = dialogs.first?.windowSurface?.node {
                context.focusKeyboard(on: dialogNode, because: "modal dialog")
            }
        case (true, true):
            context.updateScene { [weak self] scene in
                if let shield = self?.modalShield { scene.update(shield) { $0.size = size } }
            }
        case (false, true):
            shielded = false
            context.updateScene { [weak self] scene in
                if let shield = self?.modalShield { _ = scene.remove(shield) }
                self?.modalShield = nil
            }
        case (false, false):
            break
        }
    }

    private func setParent(_ resource: OpaquePointer?) {
        let new = XdgToplevel.from(resource)
        var ancestor = new
        while let each = ancestor {
            guard each !== self else { return postError(XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue, "the parent would be the toplevel itself or its descendant") }
            ancestor = each.parent
        }
        let old = parent
        parent = new
        old?.updateModalShield()
        new?.updateModalShield()
    }

    /// After each repaint: a window that shows no pixel is told it is suspended, and told
    /// again once it shows (version 6); one moved to or from an output edge hears its new
    /// constrained edges (version 7). Only once mapped.
    func repainted(shown: Bool) {
        guard hasMapped else { return }
        let suspended = !shown && xdg.version >= XDG_TOPLEVEL_STATE_SUSPENDED_SINCE_VERSION
        guard suspended != isSuspended || constrainedEdges(windows.policy.configure(state, on: output)) != constrained else { return }
        isSuspended = suspended
        sendConfigure()
    }

    /// The edges of its output the window may not go past: all four where the policy sizes
    /// it (maximized, fullscreen, a kiosk), else those it touches now; for clients of version
    /// 7 or later. Bits (left, right, top, bottom from the lowest) rather than an array: it
    /// is worked out after every repaint.
    private func constrainedEdges(_ configuration: WindowConfiguration) -> UInt8 {
        guard xdg.version >= XDG_TOPLEVEL_STATE_CONSTRAINED_LEFT_SINCE_VERSION, let area = output?.usableArea else { return 0 }
        if configuration.size != nil || !windows.policy.isMovable(state) { return 0b1111 }
        guard let window = windowRect else { return 0 }
        return (window.x <= area.x ? 1 : 0) | (window.x + window.width >= area.x + area.width ? 2 : 0)
            | (window.y <= area.y ? 4 : 0) | (window.y + window.height >= area.y + area.height ? 8 : 0)
    }

    /// The constrained states of `edges`' bits, for a configure.
    private static func constrainedStates(_ edges: UInt8) -> [UInt32] {
        let all = [XDG_TOPLEVEL_STATE_CONSTRAINED_LEFT, XDG_TOPLEVEL_STATE_CONSTRAINED_RIGHT, XDG_TOPLEVEL_STATE_CONSTRAINED_TOP,
                   XDG_TOPLEVEL_STATE_CONSTRAINED_BOTTOM]
        return all.indices.filter { edges & (1 << $0) != 0 }.map { all[$0].rawValue }
    }

    /// The window geometry (or the whole surface), globally.
    private var windowRect: Rect? {
        guard let surface = xdg.surface, let node = surface.node, let frame = windows.context.scene.absoluteFrame(of: node) else { return nil }
        let geometry = xdg.geometry ?? Rect(size: frame.size)
        return geometry.offset(by: Position(x: frame.x, y: frame.y))
    }

    /// The output the window is on: the one holding its origin, else the first.
    /// Where it is configured for: its rule's output while that is connected (the scene may
    /// not have moved it yet), else the one it is on.
    private var output: PlacedOutput? { ruleOutput ?? sceneOutput }

    private var sceneOutput: PlacedOutput? {
        guard let surface = xdg.surface else { return nil }
        let origin = surface.node.flatMap { windows.context.scene.absolutePosition(of: $0) } ?? .zero
        return windows.output(at: origin + surface.windowOrigin)
    }

    func surfaceDestroyed() {}

    override func resourceDestroyed() {
        isClosing = true
        parent?.updateModalShield()
        windows.listings.closed(self)
        decoration?.orphaned()
        xdg.surface?.removeNode()
    }

    /// The decoration mode was answered: a configure makes it take effect.
    func decorationChanged() { sendConfigure() }

    /// The window's state as the policy has it: a size it is told to take (its output's,
    /// by default, when maximized, fullscreen or in kiosk mode), else "your choice" (0 × 0);
    /// activated while it holds keyboard focus. The state values are the same in both flavors.
    private func sendConfigure() {
        guard let resource else { return }
        let configuration = windows.policy.configure(state, on: output)
        if let origin = configuration.origin { xdg.surface?.placeWindow(at: origin) }
        let size = configuration.size ?? requestedSize ?? .zero
        var states: [UInt32] = []
        if configuration.isMaximized { states.append(XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue) }
        if state.isFullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) }
        if isResizing { states.append(XDG_TOPLEVEL_STATE_RESIZING.rawValue) }
        if windows.activated === self { states.append(XDG_TOPLEVEL_STATE_ACTIVATED.rawValue) }
        if isSuspended { states.append(XDG_TOPLEVEL_STATE_SUSPENDED.rawValue) }
        constrained = constrainedEdges(configuration)
        states += Self.constrainedStates(constrained)
        // A resize grows the client's own window geometry, which may already be near Int32.max.
        let (width, height) = (Int32(clamping: size.width), Int32(clamping: size.height))
        withArray(states) { xdg_toplevel_send_configure(resource, width, height, $0) }
        xdg.sendConfigure()
        windows.listings.changed(self)
    }

    /// A maximize or fullscreen request (or its undoing), from the client or a dock: the
    /// answer is a configure. Either brings a minimized window back.
    func request(maximized: Bool?, fullscreen: Bool?) {
        if let maximized { state.isMaximized = maximized }
        if let fullscreen { state.isFullscreen = fullscreen }
        if maximized == true || fullscreen == true { setMinimized(false) }
        sendConfigure()
    }

    /// Maximized as configured (a kiosk window always is).
    func sizeState() -> (maximized: Bool, fullscreen: Bool) {
        (windows.policy.configure(state, on: output).isMaximized, state.isFullscreen)
    }

    fileprivate func titleChanged() {
        windows.listings.changed(self)
    }

    /// xdg_toplevel_tag_v1's set_toplevel_tag.
    func setTag(_ tag: String?) {
        self.tag = tag
        identityChanged()
    }

    /// Whether a move or resize may start: the policy lets the window move (by default,
    /// not in kiosk mode, maximized or fullscreen), and the request names one of the
    /// client's recent input serials (the press it was made for, in practice).
    private func mayStartGrab(serial: UInt32) -> Bool {
        guard let surface = xdg.surface else { return false }
        return windows.policy.isMovable(state) && windows.seat.isRecentInput(serial, of: surface.owner.id)
    }

    private func move(serial: UInt32) {
        guard mayStartGrab(serial: serial) else { return }
        _ = windows.beginInteractiveGrab(.move, of: self)
    }

    private func resize(_ edges: UInt32, serial: UInt32) {
        // The resize_edge values (v6 uses the same numbers); none (0) is valid and resizes nothing.
        guard [0, 1, 2, 4, 5, 6, 8, 9, 10].contains(edges) else {
            if xdg.flavor == .unstableV6 { return }
            return postError(XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, "resize edge \(edges) is not an xdg_toplevel.resize_edge")
        }
        guard edges != 0, mayStartGrab(serial: serial), windows.beginInteractiveGrab(.resize(edges: edges), of: self) else { return }
        isResizing = true
    }

    /// The pointer moved during this window's grab: place it, and ask for a new size.
    func follow(to window: Rect) {
        xdg.surface?.placeWindow(at: Position(x: window.x, y: window.y))
        guard isResizing, requestedSize != Size(width: window.width, height: window.height) else { return }
        requestedSize = Size(width: window.width, height: window.height)
        sendConfigure()
    }

    func interactiveGrabEnded() {
        guard isResizing else { return }
        isResizing = false
        sendConfigure()
    }

    /// v6 defines no error for this.
    private func checkSize(_ width: Int32, _ height: Int32) {
        guard xdg.flavor == .unstableV6 || (width >= 0 && height >= 0) else {
            return postError(XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, "size limits must not be negative")
        }
    }

    /// Window management requests a kiosk does not act on are accepted and ignored; the ones
    /// the protocol constrains are checked (v6 defines no errors for them). Move and resize
    /// are interactive grabs (`InteractiveGrab`).
    static let requests = RequestTable(xdg_toplevel_interface(
        destroy: destroyResource,
        set_parent: { _, resource, parent in XdgToplevel.from(resource)?.setParent(parent) },
        set_title: { _, resource, title in
            guard let toplevel = XdgToplevel.from(resource) else { return }
            toplevel.title = printableLabel(title)
            toplevel.titleChanged()
        },
        set_app_id: { _, resource, appID in
            guard let toplevel = XdgToplevel.from(resource) else { return }
            toplevel.appID = printableLabel(appID, limit: appIDLabelLimit)
            toplevel.identityChanged()
        },
        show_window_menu: { _, _, _, _, _, _ in },
        move: { _, resource, _, serial in XdgToplevel.from(resource)?.move(serial: serial) },
        resize: { _, resource, _, serial, edges in XdgToplevel.from(resource)?.resize(edges, serial: serial) },
        set_max_size: { _, resource, width, height in XdgToplevel.from(resource)?.checkSize(width, height) },
        set_min_size: { _, resource, width, height in XdgToplevel.from(resource)?.checkSize(width, height) },
        set_maximized: { _, r in XdgToplevel.from(r)?.request(maximized: true, fullscreen: nil) },
        unset_maximized: { _, r in XdgToplevel.from(r)?.request(maximized: false, fullscreen: nil) },
        set_fullscreen: { _, r, _ in XdgToplevel.from(r)?.request(maximized: nil, fullscreen: true) },
        unset_fullscreen: { _, r in XdgToplevel.from(r)?.request(maximized: nil, fullscreen: false) },
        set_minimized: { _, r in XdgToplevel.from(r)?.setMinimized(true) }
    ))
}
