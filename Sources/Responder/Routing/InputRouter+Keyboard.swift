struct KeyboardState {
    var focus: InputRouter.Focus?
    /// Keys held now, in press order: sent with every keyboard enter.
    var pressed: [UInt32] = []
    var isPinned = false
}

extension InputRouter {
    /// Keys held now, in press order.
    public var pressedKeys: [UInt32] { keyboard.pressed }

    /// Whether a key event changes the held keys, as `handle` would take it: a press of a
    /// key not held or a release of one that is, with an evdev code. The protocol layer feeds
    /// XKB's state with exactly these, so the modifiers follow the keys clients hear of.
    public func changesHeldKeys(key: UInt32, state: PressState) -> Bool {
        key <= InputEvent.maximumKeyCode && keyboard.pressed.contains(key) == (state == .released)
    }

    /// The surface that receives keys: the toplevel last touched or clicked, or the compositor's choice.
    public var keyboardFocus: NodeID? { keyboard.focus?.node }

    /// The focused surface and the keys held, when `client` has the keyboard focus: what a
    /// keyboard the client binds now must hear entered, as its others did when focus came.
    public func keyboardFocus(heldBy client: ClientID) -> (node: NodeID, keys: [UInt32])? {
        guard let focus = keyboard.focus, focus.client == client else { return nil }
        return (focus.node, keyboard.pressed)
    }

    /// While set, touches and clicks leave keyboard focus where it is: a surface that holds
    /// it exclusively (a layer-shell panel asking for exclusive keyboard interactivity, a
    /// lock screen) keeps it until the compositor moves it or unpins it.
    public var keyboardFocusIsPinned: Bool {
        get { keyboard.isPinned }
        set { keyboard.isPinned = newValue }
    }

    /// Moves keyboard focus (a compositor policy such as focus-next); nil unfocuses. A node
    /// that is not a client surface unfocuses too.
    public mutating func setKeyboardFocus(_ node: NodeID?, because cause: FocusCause = .policy("compositor"), sink: inout some DeliverySink) {
        let target = focus(for: node)
        guard target != keyboard.focus else { return }
        if sink.isTracing { sink.trace(.keyboardFocus(target?.node, target?.client, cause)) }
        if let old = keyboard.focus { sink.deliver(.keyboardLeave(old.client, surface: old.node)) }
        keyboard.focus = target
        if let target { sink.deliver(.keyboardEnter(target.client, surface: target.node, pressedKeys: keyboard.pressed)) }
    }

    /// Touching or clicking inside a toplevel focuses it, unless focus is pinned; touching the
    /// background keeps focus.
    mutating func focusKeyboard(onToplevelOf node: NodeID, because cause: FocusCause, _ sink: inout some DeliverySink) {
        guard !keyboard.isPinned, let toplevel = scene.toplevel(containing: node) else { return }
        setKeyboardFocus(toplevel, because: cause, sink: &sink)
    }

    mutating func keyEvent(_ key: UInt32, _ state: PressState, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard key <= InputEvent.maximumKeyCode else { return sink.report(.ignored(event, because: .notAnEvdevCode)) }
        switch (state, keyboard.pressed.contains(key)) {
        case (.pressed, true): return sink.report(.ignored(event, because: .keyAlreadyPressed))
        case (.released, false): return sink.report(.ignored(event, because: .keyNotPressed))
        case (.pressed, false): keyboard.pressed.append(key)
        case (.released, true): keyboard.pressed.removeAll { $0 == key }
        }
        if let focus = keyboard.focus { sink.deliver(.key(focus.client, key: key, state: state, time: time)) }
    }
}
