/// A pen in proximity, and what of the pointer it holds.
struct PenState {
    let id: Int32
    var tipDown = false
    /// Its barrel buttons held, as the pointer buttons they stand for.
    var buttons: [UInt32] = []
    /// The pointer buttons it pressed itself (not those a mouse held already), which it
    /// releases.
    var pressed: [UInt32] = []
}

extension InputRouter {
    /// Pens in proximity at once; more come only from a broken or hostile source.
    public static let maximumPens = 16

    /// The pointer buttons a pen's barrel buttons press: BTN_STYLUS the right one,
    /// BTN_STYLUS2 the middle one, BTN_STYLUS3 the side one, as compositors that emulate a
    /// pointer for pens do.
    static func pointerButton(forPenButton button: UInt32) -> UInt32? {
        switch button {
        case 0x14b: 0x111 // BTN_STYLUS: BTN_RIGHT
        case 0x14c: 0x112 // BTN_STYLUS2: BTN_MIDDLE
        case 0x149: 0x113 // BTN_STYLUS3: BTN_SIDE
        default: nil
        }
    }

    /// Pens drive the pointer (tablet-v2's guidance for clients without it): a pen entering
    /// proximity moves the pointer there, its motion moves it, its tip presses the left
    /// button (so the surface under the tip keeps the pen, the pointer's implicit grab, until
    /// it lifts) and its barrel buttons press the others. A pen leaving lifts whatever it
    /// still presses, and the pointer stays where it was.
    mutating func penProximity(_ id: Int32, _ entering: Bool, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        let index = pens.firstIndex { $0.id == id }
        guard entering else {
            guard let index else { return sink.report(.ignored(event, because: .unknownPen)) }
            let pen = pens.remove(at: index)
            for button in pen.pressed.reversed() where pointer.pressed.contains(button) { pressPointer(button, .released, time, &sink) }
            return
        }
        guard index == nil else { return sink.report(.ignored(event, because: .penAlreadyInProximity)) }
        guard global.isFinite else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard pens.count < Self.maximumPens else { return sink.report(.ignored(event, because: .tooManyPens)) }
        pens.append(PenState(id: id))
        sink.report(.penEmulatesPointer(pen: id))
        movePointer(to: global, time, &sink)
    }

    mutating func penMotion(_ id: Int32, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard pens.contains(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard global.isFinite else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        // Only pressure or tilt changed: nothing a pointer can say.
        guard global != pointer.position else { return }
        movePointer(to: global, time, &sink)
    }

    mutating func penTip(_ id: Int32, _ down: Bool, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let index = pens.firstIndex(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard pens[index].tipDown != down else { return sink.report(.ignored(event, because: down ? .tipAlreadyDown : .tipNotDown)) }
        pens[index].tipDown = down
        press(Self.leftButton, down ? .pressed : .released, for: index, time, &sink)
    }

    /// Presses or releases a pointer button for the pen: a press only when the pointer does
    /// not hold the button already (a mouse's), a release only of a press of the pen's own.
    private mutating func press(_ button: UInt32, _ state: PressState, for index: Int, _ time: Instant, _ sink: inout some DeliverySink) {
        if state == .pressed {
            guard !pointer.pressed.contains(button) else { return }
            pens[index].pressed.append(button)
        } else {
            guard pens[index].pressed.contains(button) else { return }
            pens[index].pressed.removeAll { $0 == button }
            guard pointer.pressed.contains(button) else { return }
        }
        pressPointer(button, state, time, &sink)
    }

    mutating func penButton(_ id: Int32, _ button: UInt32, _ state: PressState, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let index = pens.firstIndex(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard let mapped = Self.pointerButton(forPenButton: button) else { return sink.report(.ignored(event, because: .notAPenButton)) }
        switch (state, pens[index].buttons.contains(mapped)) {
        case (.pressed, true): return sink.report(.ignored(event, because: .buttonAlreadyPressed))
        case (.released, false): return sink.report(.ignored(event, because: .buttonNotPressed))
        case (.pressed, false): pens[index].buttons.append(mapped)
        case (.released, true): pens[index].buttons.removeAll { $0 == mapped }
        }
        press(mapped, state, for: index, time, &sink)
    }
}
