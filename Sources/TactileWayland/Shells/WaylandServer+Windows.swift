import Responder

/// Window focus on top of the core's focus-on-touch/click, with the policy's say:
/// - a toplevel that maps for the first time ends any popup grab, and takes keyboard focus
///   if the policy says new windows do (`WindowPolicy.focusesNewWindows`);
/// - a popup that asked for a grab takes keyboard focus when it maps, and clicks or touches
///   inside it keep focus there; a press delivered to another client dismisses every grabbing
///   popup (xdg_popup.popup_done, topmost first);
/// - exactly the xdg toplevel that holds keyboard focus (itself or through its popups) is
///   configured `activated`.
extension WaylandServer {
    /// A toplevel mapped for the first time: it is what the user looks at now.
    func windowMapped(_ node: NodeID) {
        dismissPopupGrabs()
        // It comes to the front of the windows, whenever its role was made.
        updateScene { [position = windowStackPosition] in _ = $0.restack(node, to: position) }
        // A layer surface holding focus exclusively (a lock, a launcher) keeps it.
        if windows.policy.focusesNewWindows, !router.keyboardFocusIsPinned { focusKeyboard(on: node, because: "window-mapped") }
    }

    /// Reconfigures the toplevel that gained keyboard focus and the one that lost it. Run
    /// after every routing step; cheap when nothing moved.
    func updateActivation() {
        let window = router.keyboardFocus.flatMap { router.scene.toplevel(containing: $0) }.flatMap { surface(at: $0)?.listedWindow }
        if window !== windows.focusedWindow {
            let previous = windows.focusedWindow
            windows.focusedWindow = window
            for changed in [previous, window].compactMap({ $0 }) { foreignToplevelChanged(changed) }
        }
        let focused = router.keyboardFocus.flatMap { surface(at: $0)?.addon(XdgSurface.self)?.toplevel }
        guard focused !== windows.activated else { return }
        let previous = windows.activated
        windows.activated = focused
        previous?.activationChanged()
        focused?.activationChanged()
    }

    /// A grabbing popup mapped: its node becomes a keyboard focus root, and it takes focus.
    func startGrab(of popup: XdgPopup) {
        guard let node = popup.xdg.surface?.node else { return }
        windows.popupGrabs.append(popup)
        updateScene { $0.update(node) { $0.isToplevel = true } }
        focusKeyboard(on: node, because: "popup-grab")
    }

    func endGrab(of popup: XdgPopup) {
        windows.popupGrabs.removeAll { $0 === popup }
    }

    /// A press went to `client`: outside the grab if the grabbing client is another one.
    func pressDelivered(to client: ClientID) {
        guard let top = windows.popupGrabs.last, top.xdg.surface?.owner.id != client else { return }
        dismissPopupGrabs()
    }

    /// Tells every grabbing popup, topmost first, that it is dismissed. The popups stay
    /// until their client destroys them; the grab ends now.
    func dismissPopupGrabs() {
        let grabs = windows.popupGrabs
        windows.popupGrabs.removeAll()
        for popup in grabs.reversed() { popup.sendDone() }
    }

    /// Raises the window the policy picks (the bottom-most, by default) and focuses it.
    public func focusNextWindow() {
        let (below, above) = router.scene.children(of: router.scene.root)
        // A surface behind the node makes it a client's window, not a compositor node.
        let windowNodes = (below + above).filter { id in
            guard let node = router.scene.node(id) else { return false }
            return node.isToplevel && node.isMapped && surface(at: id) != nil
        }
        let states = windowNodes.map { surface(at: $0)?.addon(XdgSurface.self)?.toplevel?.state ?? WindowState() }
        guard let index = windows.policy.nextFocus(bottomToTop: states), windowNodes.indices.contains(index) else {
            return logger.info("focus-next: no window")
        }
        let next = windowNodes[index]
        updateScene { [position = windowStackPosition] in _ = $0.restack(next, to: position) }
        guard !router.keyboardFocusIsPinned else { return }
        focusKeyboard(on: next, because: "focus-next")
    }

    /// Asks the window holding keyboard focus to close (xdg_toplevel.close).
    public func closeFocusedWindow() {
        guard let focus = router.keyboardFocus, let window = router.scene.toplevel(containing: focus),
              let toplevel = surface(at: window)?.addon(XdgSurface.self)?.toplevel else {
            return logger.info("close-focused: no focused xdg toplevel")
        }
        toplevel.sendClose()
    }
}

extension XdgSurface {
    /// The xdg toplevel this surface belongs to: itself, or the toplevel its popup chain
    /// starts from. The chain cannot loop: a popup's parent has its role before the popup.
    var toplevel: XdgToplevel? {
        var current: XdgSurface? = self
        while let xdg = current {
            if let toplevel = xdg.roleObject as? XdgToplevel { return toplevel }
            current = (xdg.roleObject as? XdgPopup)?.parent
        }
        return nil
    }
}
