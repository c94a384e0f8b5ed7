/// A touchpad gesture under way: who hears it, and the fingers the compositor's touchpad
/// recognizers read.
struct ActiveTouchpadGesture {
    let kind: TouchpadGesture
    let fingers: Int
    /// The surface with pointer focus at begin: it hears the whole gesture, wherever the
    /// pointer goes. Nil when nobody does (no focus, or it was claimed or went away).
    private(set) var owner: InputRouter.Focus?
    /// The touchpad recognizers that took its fingers.
    var contenders: [GestureID] = []
    /// Events kept from the owner while a recognizer delays them.
    var held: [Delivery] = []
    /// Whether the owner has seen its begin (so taking it away needs an end, cancelled).
    var delivered = false
    /// The fingers lifted, but the end may still be held.
    var hasEnded = false
    /// Where the recognizers' fingers are gathered: the pointer at begin, then moved by
    /// each update's delta, and spread by the pinch's scale.
    private var centroid: Point
    private var scale = 1.0

    init(kind: TouchpadGesture, fingers: Int, owner: InputRouter.Focus?, at point: Point) {
        self.kind = kind
        self.fingers = fingers
        self.owner = owner
        centroid = point
    }

    /// The recognizers' fingers are numbered from the bottom of the id space; they are never
    /// offered to touchscreen recognizers, so a touch of the same id cannot be confused.
    func fingerID(_ k: Int) -> Int32 { Int32.min + Int32(k) }

    /// Finger `k` in a row through the centroid, `spacing` apart at begin: the row's spread
    /// is what a pinch recognizer scales, its centre what a swipe recognizer translates.
    /// (Rotation turns nothing: no recognizer judges it.)
    func fingerPosition(_ k: Int) -> Point {
        let offset = (Double(k) - Double(fingers - 1) / 2) * Self.spacing * scale
        return Point(x: centroid.x + offset, y: centroid.y)
    }

    /// How far apart the fingers are at begin, in pixels: a touchpad's fingers, on screen scale.
    static let spacing = 40.0

    /// Applies an update; false, changing nothing, if it would take the fingers off the
    /// finite plane (hostile or broken input).
    mutating func move(by delta: Point, scale newScale: Double) -> Bool {
        let moved = Point(x: centroid.x + delta.x, y: centroid.y + delta.y)
        guard moved.isFinite, newScale.isFinite, newScale >= 0 else { return false }
        centroid = moved
        scale = min(newScale, 1000)
        return true
    }

    /// The owner saw the begin but not yet the end: taking the gesture away owes it one.
    var owesEnd: Bool { owner != nil && delivered && (!hasEnded || !held.isEmpty) }

    mutating func loseOwner() {
        owner = nil
        held.removeAll()
    }
}

/// Touchpad gestures (zwp_pointer_gestures_v1) go to the surface with pointer focus as they
/// begin, for their whole life, like a touch to its owner. Touchpad recognizers meet them in
/// the same arena as touches (DESIGN.md §1.3): the gesture's fingers are laid out around the
/// pointer and moved as libinput reports, so a configured 3-finger swipe reads a touchpad
/// swipe as it reads three fingers on the screen. The options mean what they mean for
/// touches: a winner that cancels touches in view ends the client's gesture as cancelled (or
/// the client never hears of it, if everything was held), delaysTouchesBegan holds the
/// gesture back while a recognizer is undecided, delaysTouchesEnded its end.
extension InputRouter {
    mutating func touchpadGestureBegin(_ kind: TouchpadGesture, _ fingers: Int, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard (1...InputEvent.maximumGestureFingers).contains(fingers) else {
            return sink.report(.ignored(event, because: .fingerCountOutOfRange))
        }
        if let previous = touchpadGesture, !previous.hasEnded { touchpadGestureEnd(true, time, event, &sink) }
        // Nothing can still be deciding a gesture whose fingers are all up and that a new one follows.
        for delivery in touchpadGesture?.held ?? [] { sink.deliver(delivery) }
        let owner = pointer.focus.flatMap { acceptsPointer($0.client) ? $0 : nil }
        var gesture = ActiveTouchpadGesture(kind: kind, fingers: fingers, owner: owner, at: pointer.position ?? Point(x: 0, y: 0))
        let bounds = scene.absoluteFrame(of: scene.root) ?? .empty
        for k in gestures.indices where gestures[k].device == .touchpad && gestures[k].state.isLive {
            guard (gestures[k].recognizer.fingerCount ?? fingers) == fingers, (gestures[k].recognizer.touchpadKind ?? kind) == kind,
                  gestures[k].recognizer.wantsTouch(at: gesture.fingerPosition(0), in: bounds) else { continue }
            gesture.contenders.append(gestures[k].id)
            for f in 0..<fingers {
                gestures[k].touches.append(gesture.fingerID(f))
                gestures[k].taken.append(gesture.fingerID(f))
                feed(k, .down(id: gesture.fingerID(f), global: gesture.fingerPosition(f), time: time), time: time, &sink)
            }
        }
        touchpadGesture = gesture
        // As for touches, the recognizers judge an event before its owner hears it: the
        // event that makes one win is the compositor's.
        settleGestures(time: time, &sink)
        if let owner = touchpadGesture?.owner {
            sendTouchpadGesture(.touchpadGestureBegin(owner.client, surface: owner.node, kind, fingers: fingers, time: time), &sink)
        }
    }

    mutating func touchpadGestureUpdate(_ delta: Point, _ scale: Double, _ rotation: Double, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard var gesture = touchpadGesture else { return sink.report(.ignored(event, because: .noTouchpadGesture)) }
        guard !gesture.hasEnded else { return sink.report(.ignored(event, because: .noTouchpadGesture)) }
        guard rotation.isFinite, gesture.move(by: delta, scale: scale) else {
            return sink.report(.ignored(event, because: .nonFiniteCoordinates))
        }
        touchpadGesture = gesture
        // One finger at a time, settling after each, as touches arrive: a recognizer wins
        // as it begins, so its first event is `began`.
        for f in 0..<gesture.fingers {
            feedGestures(gesture.contenders, .motion(id: gesture.fingerID(f), global: gesture.fingerPosition(f), time: time), time: time, &sink)
            settleGestures(time: time, &sink)
        }
        if let owner = touchpadGesture?.owner {
            sendTouchpadGesture(.touchpadGestureUpdate(owner.client, gesture.kind, delta: delta, scale: scale, rotation: rotation, time: time), &sink)
        }
    }

    mutating func touchpadGestureEnd(_ cancelled: Bool, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let gesture = touchpadGesture, !gesture.hasEnded else { return sink.report(.ignored(event, because: .noTouchpadGesture)) }
        for f in 0..<gesture.fingers {
            let id = gesture.fingerID(f)
            feedGestures(gesture.contenders, cancelled ? .cancel(id: id, time: time) : .up(id: id, time: time), time: time, &sink)
            forgetGestureTouch(id, gesture.contenders)
        }
        settleGestures(time: time, &sink)
        if let owner = touchpadGesture?.owner {
            sendTouchpadGesture(.touchpadGestureEnd(owner.client, gesture.kind, cancelled: cancelled, time: time), &sink)
        }
        touchpadGesture?.hasEnded = true
        if touchpadGesture?.held.isEmpty ?? false { touchpadGesture = nil }
    }

    /// Delivers to the gesture's owner now, or holds it while a recognizer delays the gesture
    /// (or earlier events are still held, to keep the order).
    private mutating func sendTouchpadGesture(_ delivery: Delivery, _ sink: inout some DeliverySink) {
        guard touchpadGesture != nil else { return }
        let isEnd = if case .touchpadGestureEnd = delivery { true } else { false }
        if touchpadGesture!.held.isEmpty, !touchpadGestureIsHeld(end: isEnd) {
            touchpadGesture!.delivered = true
            sink.deliver(delivery)
        } else {
            touchpadGesture!.held.append(delivery)
        }
    }

    private func touchpadGestureIsHeld(end: Bool) -> Bool {
        guard let gesture = touchpadGesture else { return false }
        return contendersDelay(gesture.contenders, finger: gesture.fingerID(0), end: end)
    }

    /// A touchpad recognizer won and cancels touches in view: the owner's gesture ends as
    /// cancelled if it saw the begin, and is never heard of otherwise.
    mutating func claimTouchpadGesture(by winner: GestureID, _ sink: inout some DeliverySink) {
        guard let gesture = touchpadGesture, gesture.contenders.contains(winner), let owner = gesture.owner else { return }
        if sink.isTracing { sink.trace(.touchpadGestureClaimed(by: winner, owner.client, seen: gesture.delivered)) }
        if gesture.owesEnd { sink.deliver(.touchpadGestureEnd(owner.client, gesture.kind, cancelled: true, time: latestTime)) }
        touchpadGesture?.loseOwner()
        if gesture.hasEnded { touchpadGesture = nil }
    }

    /// The owner's surface went: like a touch's, its gesture ends at once (cancelled: it
    /// did not end as the user meant), unless the client itself went.
    mutating func endTouchpadGestureOfRemovedSurface(_ sink: inout some DeliverySink) {
        guard let gesture = touchpadGesture, let owner = gesture.owner, !scene.contains(owner.node) else { return }
        if gesture.owesEnd, capabilities[owner.client] != nil {
            sink.deliver(.touchpadGestureEnd(owner.client, gesture.kind, cancelled: true, time: latestTime))
        }
        touchpadGesture?.loseOwner()
        if gesture.hasEnded { touchpadGesture = nil }
    }

    /// Delivers what the gesture held back once no undecided recognizer delays it.
    mutating func releaseHeldTouchpadGesture(_ sink: inout some DeliverySink) {
        guard let gesture = touchpadGesture, !gesture.held.isEmpty else { return }
        let endHeld = gesture.held.contains { if case .touchpadGestureEnd = $0 { true } else { false } }
        guard !touchpadGestureIsHeld(end: endHeld) else { return }
        for delivery in gesture.held { sink.deliver(delivery) }
        touchpadGesture?.held.removeAll()
        touchpadGesture?.delivered = true
        if gesture.hasEnded { touchpadGesture = nil }
    }
}
