import Responder

/// The server's window-focus policy, on top of the core's focus-on-touch/click:
/// - a toplevel that maps for the first time ends any popup grab, and takes keyboard focus
///   unless the configuration says new windows do not (`focusesNewWindows`);
/// - a popup that asked for a grab takes keyboard focus when it maps, and clicks or touches
///   inside it keep focus there; a press delivered to another client dismisses every grabbing
///   popup (xdg_popup.popup_done, topmost first);
/// - exactly the xdg toplevel that holds keyboard focus (itself or through its popups) is
///   configured `activated`.
extension WaylandServer {
    /// Moves keyboard focus by policy; nil unfocuses.
    func focusKeyboard(on node: NodeID?) {
        var sink = ProtocolSink(server: self)
        router.setKeyboardFocus(node, sink: &sink)
        updateActivation()
    }

    /// A toplevel mapped for the first time: it is what the user looks at now.
    func windowMapped(_ node: NodeID) {
        dismissPopupGrabs()
        if configuration.focusesNewWindows { focusKeyboard(on: node) }
    }

    /// Reconfigures the toplevel that gained keyboard focus and the one that lost it. Called
    /// after everything that can move keyboard focus; cheap when nothing moved.
    func updateActivation() {
        let focused = router.keyboardFocus.flatMap { surface(at: $0)?.xdgSurface?.toplevel }
        guard focused !== activatedToplevel else { return }
        let previous = activatedToplevel
        activatedToplevel = focused
        previous?.activationChanged()
        focused?.activationChanged()
    }

    /// A grabbing popup mapped: its node becomes a keyboard focus root, and it takes focus.
    func startGrab(of popup: XdgPopup) {
        guard let node = popup.xdg.surface?.node else { return }
        popupGrabs.append(popup)
        updateScene { $0.update(node) { $0.isToplevel = true } }
        focusKeyboard(on: node)
    }

    func endGrab(of popup: XdgPopup) {
        popupGrabs.removeAll { $0 === popup }
    }

    /// A press went to `client`: outside the grab if the grabbing client is another one.
    func pressDelivered(to client: ClientID) {
        guard let top = popupGrabs.last, top.xdg.surface?.owner.id != client else { return }
        dismissPopupGrabs()
    }

    /// Tells every grabbing popup, topmost first, that it is dismissed. The popups stay
    /// until their client destroys them; the grab ends now.
    func dismissPopupGrabs() {
        let grabs = popupGrabs
        popupGrabs.removeAll()
        for popup in grabs.reversed() { popup.sendDone() }
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
