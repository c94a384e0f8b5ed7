/// A pen in proximity, and where its events go.
struct PenState {
    let id: Int32
    var tipDown = false
    var position: Point
    var axes = PenAxes()
    /// Nobody until it is first routed.
    var target = PenTarget.nobody
    /// Its barrel buttons held (BTN_STYLUS...), until the pen lets go of them.
    var buttons: [UInt32] = []
    /// The pointer buttons it pressed itself (not those a mouse held already), which it
    /// releases.
    var pressed: [UInt32] = []

    /// The recognizers that took its stroke (those whose `inputTypes` has `.pen`).
    var contenders: [GestureID] = []

    /// The finger the recognizers know its stroke as: far from any touch id a device gives.
    var finger: Int32 { Int32.min + Int32(truncatingIfNeeded: UInt16(truncatingIfNeeded: id)) }

    /// Its tip or a button is down: it stays with whoever heard the press.
    var holds: Bool { tipDown || !buttons.isEmpty || !pressed.isEmpty }
}

/// Who hears a pen: the pointer (a client without tablet-v2, or nothing under the pen), or a
/// tablet-v2 client's surface, the one under the pen while it hovers and the one it touched
/// while its tip is down; or nobody: before the pen is first routed, and once its tablet
/// surface went with the tip still down, until the tip lifts.
enum PenTarget: Equatable {
    case pointer
    case tablet(InputRouter.Focus)
    case nobody
}

/// A pen in proximity as a tablet tool: which, whose surface hears it, and where it is.
public struct PenOverTablet: Hashable, Sendable {
    public var pen: Int32
    public var client: ClientID
    public var position: Point
}

extension InputRouter {
    /// The pen that came near last of those heard as tablet tools (a pen driving the pointer
    /// is the pointer): where a tool's cursor is drawn.
    public var penOverTablet: PenOverTablet? {
        for pen in pens.reversed() {
            if case .tablet(let focus) = pen.target { return PenOverTablet(pen: pen.id, client: focus.client, position: pen.position) }
        }
        return nil
    }

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

    /// A pen goes to the client under it as tablet-v2 events when that client bound a tablet
    /// seat (`InputCapabilities.tablet`); otherwise it drives the pointer (tablet-v2's
    /// guidance for clients without it): hover moves the pointer, the tip presses the left
    /// button and the barrel buttons the others. Either way the surface the tip touched
    /// keeps the pen until the tip lifts, as a touch keeps its owner. A pen leaving lifts
    /// whatever it still presses.
    mutating func penProximity(_ id: Int32, _ entering: Bool, _ global: Point, _ axes: PenAxes, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        let index = pens.firstIndex { $0.id == id }
        guard entering else {
            guard let index else { return sink.report(.ignored(event, because: .unknownPen)) }
            endStroke(index, .cancel(id: pens[index].finger, time: time), time, &sink)
            guard let index = pens.firstIndex(where: { $0.id == id }) else { return }
            let pen = pens.remove(at: index)
            switch pen.target {
            case .pointer:
                for button in pen.pressed.reversed() where pointer.pressed.contains(button) { pressPointer(button, .released, time, &sink) }
            case .tablet(let focus): leave(pen, focus, time, &sink)
            case .nobody: break
            }
            if pens.isEmpty { lastPenLeft(at: time, &sink) }
            return
        }
        guard index == nil else { return sink.report(.ignored(event, because: .penAlreadyInProximity)) }
        guard global.isRoutable else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard pens.count < Self.maximumPens else { return sink.report(.ignored(event, because: .tooManyPens)) }
        guard axes.isFinite else { return sink.report(.ignored(event, because: .nonFiniteAxes)) }
        pens.append(PenState(id: id, position: global, axes: axes.clamped.held))
        retarget(pens.count - 1, motion: nil, time, &sink)
    }

    mutating func penMotion(_ id: Int32, _ global: Point, _ axes: PenAxes, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let index = pens.firstIndex(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard global.isRoutable else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard axes.isFinite else { return sink.report(.ignored(event, because: .nonFiniteAxes)) }
        // A motion that moves nothing and changes no axis says nothing (backends follow a
        // proximity with the pen's axes, which may be those it came in with).
        let clamped = axes.clamped
        guard global != pens[index].position || clamped.held != pens[index].axes || clamped.turnsWheel else { return }
        pens[index].position = global
        // The wheel's turn goes with this motion only.
        pens[index].axes = clamped.held
        guard pens[index].holds else { return retarget(index, motion: clamped, time, &sink) }
        if !pens[index].contenders.isEmpty {
            feedGestures(pens[index].contenders, .motion(id: pens[index].finger, global: global, time: time), time: time, &sink)
            settleGestures(time: time, &sink)
        }
        switch pens[index].target {
        case .pointer:
            // Only pressure or tilt changed: nothing a pointer can say.
            guard global != pointer.position else { return }
            movePointer(to: global, time, &sink)
        case .tablet(let owner): deliverMotion(id, global, clamped, owner, time, &sink)
        case .nobody: break
        }
    }

    mutating func penTip(_ id: Int32, _ down: Bool, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let index = pens.firstIndex(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard pens[index].tipDown != down else { return sink.report(.ignored(event, because: down ? .tipAlreadyDown : .tipNotDown)) }
        pens[index].tipDown = down
        if down { penTouchedDown(&sink) }
        switch pens[index].target {
        case .pointer: press(Self.leftButton, down ? .pressed : .released, for: index, time, &sink)
        case .tablet(let focus):
            if down {
                sink.deliver(.penDown(focus.client, pen: id, time: time))
                focusKeyboard(onToplevelOf: focus.node, because: .clicked, &sink)
            } else {
                sink.deliver(.penUp(focus.client, pen: id, time: time))
            }
            sink.deliver(.penFrame(focus.client, pen: id, time: time))
        case .nobody: break
        }
        if down {
            offerStroke(index, time, &sink)
        } else {
            endStroke(index, .up(id: pens[index].finger, time: time), time, &sink)
            retarget(index, motion: nil, time, &sink)
        }
    }

    /// The tip went down: the recognizers on the path under it that take pens get the stroke.
    private mutating func offerStroke(_ index: Int, _ time: Instant, _ sink: inout some DeliverySink) {
        let pen = pens[index]
        if let hit = scene.hitTest(at: pen.position) {
            pens[index].contenders = offerToGestures(pen.finger, pen.position, path: hit.chain, time, from: .pen, &sink)
        } else {
            pens[index].contenders = offerToGestures(pen.finger, pen.position, path: EmptyCollection(), time, from: .pen, &sink)
        }
        if !pens[index].contenders.isEmpty { settleGestures(time: time, &sink) }
    }

    /// The stroke ended (`.up`) or was given up (`.cancel`, the pen leaving with its tip down).
    private mutating func endStroke(_ index: Int, _ input: GestureInput, _ time: Instant, _ sink: inout some DeliverySink) {
        let contenders = pens[index].contenders
        guard !contenders.isEmpty else { return }
        pens[index].contenders = []
        feedGestures(contenders, input, time: time, &sink)
        forgetGestureTouch(pens[index].finger, contenders)
        settleGestures(time: time, &sink)
    }

    /// A recognizer that takes pens won: each stroke it holds leaves its client, a tablet
    /// client with the tool's up and proximity_out (tablet-v2 has no cancel), a pointer client
    /// with its press abandoned. The pen is nobody's until its tip lifts.
    mutating func claimPens(by winner: GestureID, _ time: Instant, _ sink: inout some DeliverySink) {
        for index in pens.indices where pens[index].tipDown && pens[index].contenders.contains(winner) {
            let pen = pens[index]
            switch pen.target {
            case .tablet(let focus):
                if sink.isTracing { sink.trace(.penClaimed(pen: pen.id, by: winner, focus.client)) }
                leave(pen, focus, time, &sink)
            case .pointer:
                if sink.isTracing { sink.trace(.penClaimed(pen: pen.id, by: winner, pointer.focus?.client)) }
                if pen.pressed.contains(Self.leftButton) {
                    pens[index].pressed.removeAll { $0 == Self.leftButton }
                    abandonEmulatedPress(&sink)
                }
            case .nobody:
                if sink.isTracing { sink.trace(.penClaimed(pen: pen.id, by: winner, nil)) }
            }
            pens[index].target = .nobody
        }
    }

    mutating func penButton(_ id: Int32, _ button: UInt32, _ state: PressState, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let index = pens.firstIndex(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .unknownPen)) }
        guard let mapped = Self.pointerButton(forPenButton: button) else { return sink.report(.ignored(event, because: .notAPenButton)) }
        switch (state, pens[index].buttons.contains(button)) {
        case (.pressed, true): return sink.report(.ignored(event, because: .buttonAlreadyPressed))
        case (.released, false): return sink.report(.ignored(event, because: .buttonNotPressed))
        case (.pressed, false): pens[index].buttons.append(button)
        case (.released, true): pens[index].buttons.removeAll { $0 == button }
        }
        switch pens[index].target {
        case .pointer: press(mapped, state, for: index, time, &sink)
        case .tablet(let focus):
            sink.deliver(.penButton(focus.client, pen: id, button: button, state: state, time: time))
            sink.deliver(.penFrame(focus.client, pen: id, time: time))
        case .nobody:
            // A pointer press the pen made before a gesture took it still ends.
            if state == .released { press(mapped, .released, for: index, time, &sink) }
        }
        if state == .released { retarget(index, motion: nil, time, &sink) }
    }

    /// A hovering pen, nothing held: the surface under it decides who hears it. Leaving a
    /// tablet client's surface is its proximity_out; coming over one, its proximity_in. The
    /// same surface hears a motion only when the pen moved: `motion` holds the axes it
    /// moved with (a wheel's turn included).
    private mutating func retarget(_ index: Int, motion: PenAxes?, _ time: Instant, _ sink: inout some DeliverySink) {
        // The pen's fields, not a copy of it (which retains its arrays): a hovering pen's
        // every motion comes through here.
        guard !pens[index].holds else { return }
        let (id, position, current) = (pens[index].id, pens[index].position, pens[index].target)
        let hit = scene.hitTest(at: position)
        let under = focus(for: hit?.node)
        let target: PenTarget = if let under, acceptsTablet(under.client) { .tablet(under) } else { .pointer }
        guard target != current else {
            switch target {
            case .tablet(let focus): if let motion { deliverMotion(id, position, motion, focus, time, &sink) }
            case .pointer where position != pointer.position: movePointer(to: position, time, &sink)
            default: break
            }
            return
        }
        if case .tablet(let old) = current { leave(pens[index], old, time, &sink) }
        pens[index].target = target
        switch target {
        case .tablet(let focus):
            guard let local = local(position, in: focus.node) else { return }
            sink.deliver(.penProximityIn(focus.client, surface: focus.node, pen: id, local: local, axes: pens[index].axes, time: time))
            sink.deliver(.penFrame(focus.client, pen: id, time: time))
        case .pointer:
            sink.report(.penEmulatesPointer(pen: id))
            movePointer(to: position, time, &sink)
        case .nobody: break
        }
    }

    /// Takes the pen's fields, not the pen: a copy of `PenState` retains its arrays, and
    /// every motion of a stroke comes through here.
    private func deliverMotion(_ pen: Int32, _ position: Point, _ axes: PenAxes, _ focus: Focus, _ time: Instant, _ sink: inout some DeliverySink) {
        guard let local = local(position, in: focus.node) else { return }
        sink.deliver(.penMotion(focus.client, pen: pen, local: local, axes: axes, time: time))
        sink.deliver(.penFrame(focus.client, pen: pen, time: time))
    }

    /// The tablet client hears the pen go: its tip lifts and its buttons are released first.
    private func leave(_ pen: PenState, _ focus: Focus, _ time: Instant, _ sink: inout some DeliverySink) {
        if pen.tipDown { sink.deliver(.penUp(focus.client, pen: pen.id, time: time)) }
        for button in pen.buttons.reversed() {
            sink.deliver(.penButton(focus.client, pen: pen.id, button: button, state: .released, time: time))
        }
        sink.deliver(.penProximityOut(focus.client, pen: pen.id, time: time))
        sink.deliver(.penFrame(focus.client, pen: pen.id, time: time))
    }

    /// After a scene change: a pen whose tablet surface went is heard by nobody until its tip
    /// lifts (the surface's client got its up and proximity_out), or, hovering, by what is
    /// under it.
    mutating func followPensOnRemovedSurfaces(_ sink: inout some DeliverySink) {
        for index in pens.indices {
            guard case .tablet(let focus) = pens[index].target, !scene.contains(focus.node) else { continue }
            leave(pens[index], focus, latestTime, &sink)
            pens[index].target = .nobody
            retarget(index, motion: nil, latestTime, &sink)
        }
    }

    /// A client went: its pens are heard by nobody until they lift (nothing is sent to it).
    mutating func forgetPens(of client: ClientID) {
        for index in pens.indices {
            guard case .tablet(let focus) = pens[index].target, focus.client == client else { continue }
            pens[index].target = .nobody
        }
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
}

extension PenAxes {
    var isFinite: Bool {
        pressure.isFinite && distance.isFinite && tiltX.isFinite && tiltY.isFinite && rotation.isFinite && slider.isFinite && wheel.isFinite
    }

    /// Within what tablet-v2 can say: pressure and distance 0 to 1, tilt ±90°, rotation in
    /// 0..<360, the slider -1 to 1, a wheel turn of at most a full turn.
    var clamped: PenAxes {
        PenAxes(pressure: min(max(pressure, 0), 1), distance: min(max(distance, 0), 1),
                tiltX: min(max(tiltX, -90), 90), tiltY: min(max(tiltY, -90), 90), rotation: rotation.wrappedDegrees,
                slider: min(max(slider, -1), 1), wheel: min(max(wheel, -360), 360), wheelClicks: min(max(wheelClicks, -360), 360))
    }

    /// Without the wheel's turn: what the pen keeps between motions.
    var held: PenAxes {
        var axes = self
        (axes.wheel, axes.wheelClicks) = (0, 0)
        return axes
    }

    var turnsWheel: Bool { wheel != 0 || wheelClicks != 0 }
}

extension Double {
    /// A finite angle in degrees as one in 0..<360, as tablet-v2's rings and rotations say
    /// it (a tiny negative one, which would round to 360, is 0).
    var wrappedDegrees: Double {
        let turned = truncatingRemainder(dividingBy: 360)
        let wrapped = turned < 0 ? turned + 360 : turned
        return wrapped < 360 ? wrapped : 0
    }
}
