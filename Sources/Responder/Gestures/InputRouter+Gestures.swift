/// A recognizer in the router: where it is attached, its options, and where it stands.
struct GestureSlot {
    let id: GestureID
    let node: NodeID
    var recognizer: any GestureRecognizer
    let options: GestureOptions
    /// Which fingers it is offered: the touchscreen's, or a touchpad gesture's.
    let device: GestureDevice
    let shouldBegin: ((GestureID) -> Bool)?
    var state: GestureState = .possible
    /// It won its touches (began or recognized, with nothing it must wait for).
    var isWinner = false
    /// The touches it took that are still down.
    var touches: [Int32] = []
    /// Every touch it took since it was last reset: what it claims when it wins (a tap
    /// wins after its touch has lifted).
    var taken: [Int32] = []

    /// Undecided: possible, or waiting for another recognizer to fail; its touches'
    /// delivery may still depend on it.
    var isUndecided: Bool { !isWinner && state != .failed && state != .cancelled }
}

/// The gesture arena (DESIGN.md §1.3). A touch-down is offered to the recognizers attached
/// to the nodes on its hit path (leaf to root; the root always). The first recognizer to
/// begin or recognize wins its touches: every other recognizer sharing one of them fails,
/// unless the two are declared simultaneous; a recognizer that must wait for another to
/// fail wins only then. A winner that cancels touches in view silences its touches' clients
/// with wl_touch.cancel, one per client, covering all of that client's touches. Events held
/// back by delaysTouchesBegan / delaysTouchesEnded are delivered, in order and with their
/// original times, once no undecided recognizer holds them; they are dropped if the touch
/// is won.
extension InputRouter {
    /// Attaches a recognizer to a node: the output's root for system gestures, a window's
    /// node for per-window ones. `shouldBegin` may veto the gesture as it would win. A
    /// touchpad recognizer reads the fingers of touchpad gestures instead of touches; the
    /// node does not matter to it.
    @discardableResult
    public mutating func addGesture(
        _ recognizer: some GestureRecognizer, on node: NodeID, options: GestureOptions = GestureOptions(),
        device: GestureDevice = .touchscreen, shouldBegin: ((GestureID) -> Bool)? = nil
    ) -> GestureID {
        nextGestureID += 1
        let id = GestureID(value: nextGestureID)
        gestures.append(GestureSlot(id: id, node: node, recognizer: recognizer, options: options, device: device, shouldBegin: shouldBegin))
        return id
    }

    /// `a` and `b` may both win the same touches.
    public mutating func recognizeSimultaneously(_ a: GestureID, _ b: GestureID) {
        simultaneousGestures.append((a, b))
    }

    /// `gesture` wins only once `other` has failed; if `other` wins, `gesture` fails.
    public mutating func require(_ gesture: GestureID, toFail other: GestureID) {
        failureRequirements.append((gesture, other))
    }

    /// The state a recognizer is in now.
    public func gestureState(_ id: GestureID) -> GestureState? {
        gestures.first { $0.id == id }?.state
    }

    /// The earliest time a recognizer wants to be woken at: the event loop arms a timer for
    /// it and then calls `fireGestureDeadlines(at:sink:)`.
    /// A long press's secondary click (`InputRouter+SecondaryClick`) waits on the same timer.
    public var nextGestureDeadline: Instant? {
        let gesture = gestures.lazy.filter { $0.state.isLive }.compactMap { $0.recognizer.deadline }.min()
        guard let press = longPress?.deadline else { return gesture }
        return min(gesture ?? press, press)
    }

    /// Hands every recognizer whose deadline has passed a `.deadline` input, then settles
    /// what that decided. Frames for any events released go out at once.
    public mutating func fireGestureDeadlines(at now: Instant, sink: inout some DeliverySink) {
        latestTime = max(latestTime, now)
        for k in gestures.indices where gestures[k].state.isLive {
            guard let deadline = gestures[k].recognizer.deadline, deadline <= now else { continue }
            feed(k, .deadline(now), time: now, &sink)
        }
        fireSecondaryClick(at: now, &sink)
        settleGestures(time: now, &sink)
        endTouchGroup(&sink)
    }

    /// Whether a touch coming down at `global` now would be offered to a system edge swipe:
    /// the touch accommodations leave such a touch as it is (`AccommodationExemption`).
    public func systemEdgeGestureStarts(at global: Point) -> Bool {
        gestures.contains { slot in
            slot.node == scene.root && slot.device == .touchscreen && slot.state.isLive && slot.recognizer.systemEdge != nil
                && slot.recognizer.wantsTouch(at: global, in: scene.absoluteFrame(of: scene.root) ?? .empty)
        }
    }

    // MARK: The touch path's hooks

    /// Offers a new touch to the recognizers on its path; returns those that took it.
    mutating func offerToGestures(_ id: Int32, _ global: Point, path: some Sequence<NodeID>, _ time: Instant, from kind: InputTypes = .touch,
                                  _ sink: inout some DeliverySink) -> [GestureID] {
        guard !gestures.isEmpty else { return [] }
        var nodes = Array(path)
        let leaf = nodes.first
        if !nodes.contains(scene.root) { nodes.append(scene.root) }
        var taken: [GestureID] = []
        for node in nodes {
            for k in gestures.indices where gestures[k].node == node && gestures[k].device == .touchscreen && gestures[k].state.isLive
                && gestures[k].options.inputTypes.contains(kind) {
                let bounds = scene.absoluteFrame(of: node) ?? .empty
                guard gestures[k].recognizer.wantsTouch(at: global, in: bounds) else { continue }
                if let edge = gestures[k].recognizer.systemEdge, let leaf, edgeGestureIsDeferred(at: global, edge, by: leaf, within: bounds) {
                    if sink.isTracing { sink.trace(.gestureDeferred(touch: id, gestures[k].id)) }
                    continue
                }
                gestures[k].touches.append(id)
                gestures[k].taken.append(id)
                taken.append(gestures[k].id)
                if sink.isTracing { sink.trace(.gestureOffered(touch: id, gestures[k].id)) }
                feed(k, .down(id: id, global: global, time: time), time: time, &sink)
            }
        }
        return taken
    }

    /// Passes a touch's later event to the recognizers that took the touch.
    mutating func feedGestures(_ contenders: [GestureID], _ input: GestureInput, time: Instant, _ sink: inout some DeliverySink) {
        for id in contenders {
            guard let k = gestures.firstIndex(where: { $0.id == id }), gestures[k].state.isLive else { continue }
            feed(k, input, time: time, &sink)
        }
    }

    /// The touch ended for the recognizers (after they saw its last event).
    mutating func forgetGestureTouch(_ id: Int32, _ contenders: [GestureID]) {
        for gesture in contenders {
            guard let k = gestures.firstIndex(where: { $0.id == gesture }) else { continue }
            gestures[k].touches.removeAll { $0 == id }
        }
    }

    /// Whether the touch's events are held back: it may be a palm (`InputRouter+Palms`), or an
    /// undecided recognizer of it delays them, with delaysTouchesBegan any event, with
    /// delaysTouchesEnded the up (when `up`). A touch no recognizer took and no pen hovers
    /// over costs two checks, which keeps plain touch routing fast. Inlined: it is asked for
    /// every touch event sent, and a call to a non-mutating method of the router copies the
    /// whole router (368 bytes) first where the router lives in a class, as the server's and
    /// libtactile's do.
    @inline(__always)
    func holds(touchAt k: Int, up: Bool) -> Bool {
        if touches[k].palmSince != nil { return true }
        guard !touches[k].contenders.isEmpty else { return false }
        return contendersDelay(touches[k].contenders, finger: touches[k].id, end: up)
    }

    /// Whether one of `contenders` is undecided about `finger` and delays its events: any
    /// event with delaysTouchesBegan, the end (`end`) with delaysTouchesEnded. A recognizer
    /// reset since it took the finger has let go of it. Touches and touchpad gestures ask alike.
    func contendersDelay(_ contenders: [GestureID], finger: Int32, end: Bool) -> Bool {
        contenders.contains { id in
            guard let slot = gestures.first(where: { $0.id == id }), slot.isUndecided, slot.taken.contains(finger) else { return false }
            return slot.options.delaysTouchesBegan || (end && slot.options.delaysTouchesEnded)
        }
    }

    // MARK: Arbitration

    mutating func feed(_ k: Int, _ input: GestureInput, time: Instant, _ sink: inout some DeliverySink) {
        let old = gestures[k].state
        let new = gestures[k].recognizer.handle(input)
        gestures[k].state = new
        if gestures[k].isWinner {
            if new != old || new == .changed { sink.gesture(GestureEvent(gesture: gestures[k].id, state: new, time: time, detail: gestures[k].recognizer.detail)) }
        } else if new == .failed, old != .failed {
            sink.gesture(GestureEvent(gesture: gestures[k].id, state: .failed, time: time, detail: gestures[k].recognizer.detail))
        }
    }

    /// Crowns the recognizers that began or recognized (in the order they were added) unless
    /// they must wait, fails their rivals, releases held events nobody delays any more, and
    /// resets recognizers that are done.
    mutating func settleGestures(time: Instant, _ sink: inout some DeliverySink) {
        guard !gestures.isEmpty else { return }
        var changed = true
        while changed {
            changed = false
            for k in gestures.indices where !gestures[k].isWinner && gestures[k].state != .possible && gestures[k].state != .failed {
                switch requirement(of: k) {
                case .wait: continue
                case .fail: fail(k, time, &sink)
                case .go:
                    if let veto = gestures[k].shouldBegin, !veto(gestures[k].id) { fail(k, time, &sink) } else { win(k, time, &sink) }
                }
                changed = true
            }
        }
        releaseHeldTouches(&sink)
        for k in gestures.indices where gestures[k].state.isFinal && gestures[k].touches.isEmpty
            && (gestures[k].isWinner || gestures[k].state == .failed) {
            gestures[k].recognizer.reset()
            gestures[k].state = .possible
            gestures[k].isWinner = false
            gestures[k].taken.removeAll()
        }
    }

    private enum Requirement { case go, wait, fail }

    private func requirement(of k: Int) -> Requirement {
        for (gesture, other) in failureRequirements where gesture == gestures[k].id {
            guard let o = gestures.firstIndex(where: { $0.id == other }) else { continue }
            if gestures[o].isWinner { return .fail }
            if gestures[o].state != .failed, gestures[o].state.isLive || !gestures[o].touches.isEmpty { return .wait }
        }
        return .go
    }

    private mutating func fail(_ k: Int, _ time: Instant, _ sink: inout some DeliverySink) {
        gestures[k].state = .failed
        sink.gesture(GestureEvent(gesture: gestures[k].id, state: .failed, time: time, detail: gestures[k].recognizer.detail))
    }

    private mutating func win(_ k: Int, _ time: Instant, _ sink: inout some DeliverySink) {
        gestures[k].isWinner = true
        let winner = gestures[k]
        sink.gesture(GestureEvent(gesture: winner.id, state: winner.state, time: time, detail: winner.recognizer.detail))
        for j in gestures.indices where j != k && gestures[j].isUndecided {
            guard gestures[j].taken.contains(where: winner.taken.contains), !areSimultaneous(winner.id, gestures[j].id) else { continue }
            fail(j, time, &sink)
        }
        guard winner.options.cancelsTouchesInView else { return }
        for id in winner.taken { claimTouch(id, by: winner.id, &sink) }
        if winner.options.inputTypes.contains(.pen) { claimPens(by: winner.id, time, &sink) }
        if winner.device == .touchpad { claimTouchpadGesture(by: winner.id, &sink) }
    }

    private func areSimultaneous(_ a: GestureID, _ b: GestureID) -> Bool {
        simultaneousGestures.contains { ($0.0 == a && $0.1 == b) || ($0.0 == b && $0.1 == a) }
    }

    /// A won touch leaves its client: one wl_touch.cancel if the client saw any of it (which
    /// ends all of that client's touches), nothing at all if everything was still held. A
    /// touch that drove the pointer of a client without wl_touch ends its press unfinished.
    private mutating func claimTouch(_ id: Int32, by winner: GestureID, _ sink: inout some DeliverySink) {
        guard let k = touches.firstIndex(where: { $0.id == id && $0.contenders.contains(winner) }) else { return }
        if touches[k].owner == .emulatedPointer {
            touches[k].owner = .nobody
            if longPress?.touch == id { longPress = nil }
            if sink.isTracing, let client = pointer.focus?.client { sink.trace(.touchClaimed(touch: id, by: winner, .pressAbandoned(client))) }
            return abandonEmulatedPress(&sink)
        }
        guard case .surface(_, let client) = touches[k].owner else {
            if sink.isTracing { sink.trace(.touchClaimed(touch: id, by: winner, .unowned)) }
            return
        }
        if touches[k].delivered {
            if sink.isTracing { sink.trace(.touchClaimed(touch: id, by: winner, .cancelled(client))) }
            cancelTouches(of: client, &sink)
        } else {
            if sink.isTracing { sink.trace(.touchClaimed(touch: id, by: winner, .unseen(client, droppedEvents: touches[k].held.heldEventCount))) }
            touches[k].owner = .nobody
            touches[k].held.removeAll()
            removeSettledLiftedTouches()
        }
    }

    /// wl_touch.cancel: all of the client's touches end, and what was held for them is dropped.
    /// No frame follows: cancel ends every touch point of the client, it does not belong to
    /// a group of events that a frame would close.
    mutating func cancelTouches(of client: ClientID, _ sink: inout some DeliverySink) {
        dropTouches(of: client)
        sink.deliver(.touchCancel(client))
    }

    /// Delivers what touches held back once no undecided recognizer delays them; a held up
    /// ends its touch.
    mutating func releaseHeldTouches(_ sink: inout some DeliverySink) {
        for k in touches.indices where !touches[k].held.isEmpty {
            guard !holds(touchAt: k, up: touches[k].isLifted) else { continue }
            if sink.isTracing, case .surface(_, let client) = touches[k].owner {
                sink.trace(.touchReplayed(touch: touches[k].id, client, events: touches[k].held.heldEventCount))
            }
            for delivery in touches[k].held { sink.deliver(delivery) }
            touches[k].held.removeAll()
            touches[k].delivered = true
            if touches[k].owesHeldFrame, case .surface(_, let client) = touches[k].owner { owe(touchFrameTo: client) }
            touches[k].owesHeldFrame = false
        }
        removeSettledLiftedTouches()
        releaseHeldTouchpadGesture(&sink)
    }
}
