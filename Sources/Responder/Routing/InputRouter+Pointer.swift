struct PointerState {
    /// Global; nil until the first motion, so nothing is entered before the pointer exists.
    var position: Point?
    var focus: InputRouter.Focus?
    /// The position the focused surface last heard, in its coordinates.
    var local: Point?
    /// Held buttons; while any is held the focus is grabbed (does not follow the hit test).
    var pressed: [UInt32] = []
}

extension InputRouter {
    /// The surface under the pointer, or holding it while a button is down.
    public var pointerFocus: NodeID? { pointer.focus?.node }

    /// Global; nil until the pointer first moves.
    public var pointerPosition: Point? { pointer.position }

    /// The surface under the pointer and the position it last heard, when it is `client`'s:
    /// what a pointer the client binds now must hear entered.
    public func pointerFocus(heldBy client: ClientID) -> (node: NodeID, local: Point)? {
        guard let focus = pointer.focus, focus.client == client, let local = pointer.local else { return nil }
        return (focus.node, local)
    }

    /// Whether any button is down (the implicit grab, or the compositor's).
    public var pointerButtonsHeld: Bool { !pointer.pressed.isEmpty }

    /// The compositor takes the pointer for the rest of the implicit grab (an interactive move
    /// or resize): the pressed surface gets a leave now, no client hears this pointer until
    /// the last button is up, and then focus follows the hit test again. Changes nothing and
    /// returns false when no button is held.
    public mutating func takePointerUntilReleased(sink: inout some DeliverySink) -> Bool {
        guard pointerButtonsHeld else { return false }
        if sink.isTracing, pointer.focus != nil { sink.trace(.pointerFocus(nil, nil, .compositorGrab)) }
        if let focus = pointer.focus {
            sink.deliver(.pointerLeave(focus.client, surface: focus.node))
            sink.deliver(.pointerFrame(focus.client))
        }
        pointer.focus = nil
        pointer.local = nil
        return true
    }

    /// A gesture won the touch that holds the emulated left button. wl_pointer has no cancel,
    /// and a release would complete the client's click or drag, so the button goes up
    /// silently and the pointer leaves the surface: the client drops the press as a press
    /// that left. The next pointer activity enters afresh.
    mutating func abandonEmulatedPress(_ sink: inout some DeliverySink) {
        pointer.pressed.removeAll { $0 == Self.leftButton }
        guard let focus = pointer.focus else { return }
        if sink.isTracing { sink.trace(.pointerFocus(nil, nil, .pressAbandoned)) }
        sink.deliver(.pointerLeave(focus.client, surface: focus.node))
        sink.deliver(.pointerFrame(focus.client))
        pointer.focus = nil
        pointer.local = nil
    }

    mutating func pointerMotion(_ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard global.isRoutable else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        movePointer(to: global, time, &sink)
    }

    mutating func pointerButton(_ button: UInt32, _ state: PressState, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard button <= InputEvent.maximumKeyCode else { return sink.report(.ignored(event, because: .notAnEvdevCode)) }
        switch (state, pointer.pressed.contains(button)) {
        case (.pressed, true): sink.report(.ignored(event, because: .buttonAlreadyPressed))
        case (.released, false): sink.report(.ignored(event, because: .buttonNotPressed))
        default: pressPointer(button, state, time, &sink)
        }
    }

    mutating func pointerAxis(_ motion: AxisMotion, _ time: Instant, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let focus = pointer.focus else { return }
        sink.deliver(.pointerAxis(focus.client, motion, time: time))
        sink.deliver(.pointerFrame(focus.client))
    }

    /// Motion goes to the grabbing surface while a button is held, else focus follows the hit test.
    mutating func movePointer(to global: Point, _ time: Instant, _ sink: inout some DeliverySink) {
        pointer.position = global
        guard pointer.pressed.isEmpty else {
            guard let focus = pointer.focus, let local = local(global, in: focus.node) else { return }
            pointer.local = local
            sink.deliver(.pointerMotion(focus.client, surface: focus.node, local: local, time: time))
            return sink.deliver(.pointerFrame(focus.client))
        }
        refocusPointer(motionTime: time, because: .pointerMoved, &sink)
    }

    /// Hit-tests at the pointer: leave and enter when the surface under it changed, else a
    /// motion when this is a motion event. A compositor node under the pointer means no focus.
    mutating func refocusPointer(motionTime: Instant?, because cause: FocusCause, _ sink: inout some DeliverySink) {
        guard let position = pointer.position else { return }
        let hit = scene.hitTest(at: position)
        let target = focus(for: hit?.node)
        if let target, target == pointer.focus, let hit {
            // A motion event, or the surface moved under a still pointer.
            guard motionTime != nil || hit.local != pointer.local else { return }
            pointer.local = hit.local
            sink.deliver(.pointerMotion(target.client, surface: target.node, local: hit.local, time: motionTime ?? latestTime))
            return sink.deliver(.pointerFrame(target.client))
        }
        if target != pointer.focus, sink.isTracing { sink.trace(.pointerFocus(target?.node, target?.client, cause)) }
        if let old = pointer.focus {
            sink.deliver(.pointerLeave(old.client, surface: old.node))
            sink.deliver(.pointerFrame(old.client))
        }
        pointer.focus = target
        pointer.local = hit?.local
        if let target, let hit {
            sink.deliver(.pointerEnter(target.client, surface: target.node, local: hit.local))
            sink.deliver(.pointerFrame(target.client))
        }
    }

    /// A press starts the implicit grab and focuses the keyboard on the clicked toplevel; the
    /// last release ends the grab, and focus catches up with what is under the pointer.
    mutating func pressPointer(_ button: UInt32, _ state: PressState, _ time: Instant, _ sink: inout some DeliverySink) {
        if state == .pressed {
            pointer.pressed.append(button)
            if let focus = pointer.focus { focusKeyboard(onToplevelOf: focus.node, because: .clicked, &sink) }
        } else {
            pointer.pressed.removeAll { $0 == button }
        }
        if let focus = pointer.focus {
            sink.deliver(.pointerButton(focus.client, button: button, state: state, time: time))
            sink.deliver(.pointerFrame(focus.client))
        }
        if pointer.pressed.isEmpty { refocusPointer(motionTime: nil, because: .buttonsReleased, &sink) }
    }
}
