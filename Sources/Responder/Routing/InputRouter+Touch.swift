/// One finger that is down, and who gets its events.
struct ActiveTouch {
    enum Owner: Equatable {
        /// Delivered as wl_touch to this surface.
        case surface(NodeID, ClientID)
        /// Delivered as the pointer's left button (the owner has no wl_touch).
        case emulatedPointer
        /// Nobody gets it (nothing hit, owner destroyed or gone, or cancelled); the touch is
        /// kept only so its id stays taken until the device lets go of it.
        case nobody
    }

    let id: Int32
    var owner: Owner
    /// Where the finger is, globally, and where its owner last heard it was (surface-local):
    /// a scene change that moves the owner under a still finger owes the owner a motion.
    var global: Point
    var local: Point
    /// The gesture recognizers that took this touch at its down.
    var contenders: [GestureID] = []
    /// Events kept from the owner while a recognizer delays them, with frame markers.
    var held: [Delivery] = []
    /// Whether `held` has events after its last frame marker.
    var owesHeldFrame = false
    /// Whether the owner has seen any event of this touch (so ending it needs a cancel).
    var delivered = false
    /// The device let go, but the up is still held; the id is free for a new touch.
    var isLifted = false
    /// Held since its down, at this time, as maybe a palm: a pen hovers over its client
    /// (`InputRouter+Palms`).
    var palmSince: Instant?

    init(id: Int32, global: Point) {
        self.id = id
        self.owner = .nobody
        self.global = global
        self.local = global
    }
}

extension InputRouter {
    mutating func touchDown(_ id: Int32, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard global.isRoutable else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard activeTouch(id) == nil else { return sink.report(.ignored(event, because: .touchAlreadyDown)) }
        releaseLiftedTouch(id, &sink)
        // Asked once: a sink is a generic parameter, and across modules each ask is a call.
        let tracing = sink.isTracing
        let hit: HitTestResult?
        if tracing {
            let explanation = scene.explainHitTest(at: global)
            hit = explanation.result
            sink.trace(.hitTest(touch: id, at: global, explanation))
        } else {
            hit = scene.hitTest(at: global)
        }
        var touch = ActiveTouch(id: id, global: global)
        if let hit {
            touch.contenders = offerToGestures(id, global, path: hit.chain, time, &sink)
        } else {
            touch.contenders = offerToGestures(id, global, path: EmptyCollection(), time, &sink)
        }
        var owner = touchOwner(for: hit, at: global)
        if case .surface(_, let client, _) = owner {
            switch palmVerdict(for: client) {
            case .palm?: owner = .nobody(.palm)
            case .maybe?: touch.palmSince = time
            case nil: break
            }
        }
        // A hand resting on the screen moves no focus.
        if let hit, scene.node(hit.node)?.client != nil, touch.palmSince == nil, owner != .nobody(.palm) {
            focusKeyboard(onToplevelOf: hit.node, because: .touched, &sink)
        }
        var emulatedFor: ClientID?
        switch owner {
        case .surface(let node, let client, let local):
            touch.owner = .surface(node, client)
            touch.local = local
        case .emulatedPointer(let client):
            touch.owner = .emulatedPointer
            emulatedFor = client
        case .nobody(let reason):
            sink.report(.touchDropped(id: id, because: reason))
        }
        if tracing { sink.trace(.touchOwner(touch: id, owner)) }
        touches.append(touch)
        settleGestures(time: time, &sink)
        guard let k = activeTouch(id) else { return }
        switch touches[k].owner {
        case .surface(let node, let client):
            send(.touchDown(client, surface: node, id: id, local: touches[k].local, time: time), forTouchAt: k, client: client, &sink)
        case .emulatedPointer:
            if let emulatedFor { sink.report(.touchEmulatesPointer(id: id, emulatedFor)) }
            beginEmulatedPress(id, at: global, time, &sink)
        case .nobody:
            break
        }
    }

    /// What a touch-down at `global` would do now, without doing it: the explained hit test
    /// and who would own the touch (`tactile inspect --at`).
    public mutating func explainTouch(at global: Point) -> (HitTestExplanation, TraceEvent.TouchOwner) {
        let explanation = scene.explainHitTest(at: global)
        return (explanation, touchOwner(for: explanation.result, at: global))
    }

    /// The touch's owner: the first surface up the responder chain whose client reads touch;
    /// else the hit client's pointer (the compositor end of the chain), if emulation is on
    /// and the pointer is free; else nobody.
    private func touchOwner(for hit: HitTestResult?, at global: Point) -> TraceEvent.TouchOwner {
        guard let hit, let client = scene.node(hit.node)?.client else { return .nobody(.noSurface) }
        if let (node, owner, local) = touchResponder(for: hit, global) { return .surface(node, owner, local: local) }
        if policy.emulatesPointerForTouch, acceptsPointer(client), !pointer.pressed.contains(Self.leftButton),
           !touches.contains(where: { $0.owner == .emulatedPointer }) {
            return .emulatedPointer(client)
        }
        return .nobody(.noTouchBinding)
    }

    /// The responder chain: the first surface up from the leaf whose client reads touch.
    private func touchResponder(for hit: HitTestResult, _ global: Point) -> (NodeID, ClientID, Point)? {
        for node in hit.chain {
            guard let owner = scene.node(node)?.client, acceptsTouch(owner),
                  let local = node == hit.node ? hit.local : local(global, in: node) else { continue }
            return (node, owner, local)
        }
        return nil
    }

    mutating func touchMotion(_ id: Int32, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard global.isRoutable else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard var k = indexOfTouch(id, for: event, &sink) else { return }
        touches[k].global = global
        if !touches[k].contenders.isEmpty {
            feedGestures(touches[k].contenders, .motion(id: id, global: global, time: time), time: time, &sink)
            settleGestures(time: time, &sink)
            guard let settled = activeTouch(id) else { return }
            k = settled
        }
        switch touches[k].owner {
        case .surface(let node, let client):
            guard let local = local(global, in: node) else { return }
            touches[k].local = local
            send(.touchMotion(client, surface: node, id: id, local: local, time: time), forTouchAt: k, client: client, &sink)
        case .emulatedPointer:
            if emulatedMotionMovesPointer(id, to: global, time, &sink) { movePointer(to: global, time, &sink) }
        case .nobody:
            break
        }
    }

    mutating func touchUp(_ id: Int32, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard var k = indexOfTouch(id, for: event, &sink) else { return }
        let contenders = touches[k].contenders
        if !contenders.isEmpty {
            feedGestures(contenders, .up(id: id, time: time), time: time, &sink)
            settleGestures(time: time, &sink)
            guard let settled = activeTouch(id) else { return }
            k = settled
        }
        switch touches[k].owner {
        case .surface(_, let client):
            if !touches[k].held.isEmpty || holds(touchAt: k, up: true) {
                hold(.touchUp(client, id: id, time: time), forTouchAt: k, &sink)
                touches[k].isLifted = true
            } else {
                touches.remove(at: k)
                sink.deliver(.touchUp(client, id: id, time: time))
                owe(touchFrameTo: client)
            }
        case .emulatedPointer:
            touches.remove(at: k)
            endEmulatedPress(id, time, &sink)
        case .nobody:
            touches.remove(at: k)
        }
        forgetGestureTouch(id, contenders)
        settleGestures(time: time, &sink)
    }

    /// wl_touch.cancel ends all of a client's touches at once, so every other touch the
    /// client holds goes quiet too; the device still ends those, and the core swallows that.
    /// A touch the client never saw (all of it held) ends without telling it.
    mutating func touchCancel(_ id: Int32, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let k = indexOfTouch(id, for: event, &sink) else { return }
        let contenders = touches[k].contenders
        let touch = touches.remove(at: k)
        switch touch.owner {
        case .surface(_, let client) where touch.delivered:
            cancelTouches(of: client, &sink)
        case .emulatedPointer:
            cancelEmulatedPress(id, time, &sink)
        case .surface, .nobody:
            break
        }
        feedGestures(contenders, .cancel(id: id, time: time), time: time, &sink)
        forgetGestureTouch(id, contenders)
        settleGestures(time: time, &sink)
    }

    mutating func endTouchGroup(_ sink: inout some DeliverySink) {
        for k in touches.indices where touches[k].owesHeldFrame && !touches[k].held.isEmpty {
            guard case .surface(_, let client) = touches[k].owner else { continue }
            touches[k].held.append(.touchFrame(client))
            touches[k].owesHeldFrame = false
        }
        guard !touchFrameOwed.isEmpty else { return }
        for client in touchFrameOwed { sink.deliver(.touchFrame(client)) }
        // Emptying an empty array still checks it is unique and calls into the stdlib.
        touchFrameOwed.removeAll(keepingCapacity: true)
    }

    /// A touch whose surface was destroyed ends now, with a frame of its own; the rest of
    /// the touch is swallowed, and nobody underneath inherits it. A client that saw nothing
    /// of the touch yet (all of it held) hears nothing.
    mutating func endTouchesOnRemovedSurfaces(_ sink: inout some DeliverySink) {
        for k in touches.indices {
            guard case .surface(let node, let client) = touches[k].owner, !scene.contains(node) else { continue }
            touches[k].owner = .nobody
            touches[k].held.removeAll()
            guard touches[k].delivered else { continue }
            sink.deliver(.touchUp(client, id: touches[k].id, time: latestTime))
            sink.deliver(.touchFrame(client))
            touchFrameOwed.removeAll { $0 == client }
        }
        removeSettledLiftedTouches()
    }

    /// A still finger whose owner moved is somewhere else on it now: tell the owner, with a
    /// frame, as a motion stamped with the latest event time. Ownership does not change.
    /// Touches whose events are held are left to their replay.
    mutating func followMovedOwners(_ sink: inout some DeliverySink) {
        var moved: [ClientID] = []
        for k in touches.indices where touches[k].held.isEmpty && !touches[k].isLifted {
            guard case .surface(let node, let client) = touches[k].owner,
                  let local = local(touches[k].global, in: node), local != touches[k].local else { continue }
            touches[k].local = local
            sink.deliver(.touchMotion(client, surface: node, id: touches[k].id, local: local, time: latestTime))
            if !moved.contains(client) { moved.append(client) }
        }
        for client in moved {
            sink.deliver(.touchFrame(client))
            touchFrameOwed.removeAll { $0 == client }
        }
    }

    /// Silences a client's touches without telling it (it is gone, or was just cancelled);
    /// whatever was held for them is dropped.
    mutating func dropTouches(of client: ClientID) {
        for k in touches.indices {
            guard case .surface(_, client) = touches[k].owner else { continue }
            touches[k].owner = .nobody
            touches[k].held.removeAll()
        }
        removeSettledLiftedTouches()
        touchFrameOwed.removeAll { $0 == client }
    }

    /// Delivers a touch event to the touch's owner now, or holds it while a recognizer
    /// delays the touch (or earlier events are still held, to keep the order).
    private mutating func send(_ delivery: Delivery, forTouchAt k: Int, client: ClientID, _ sink: inout some DeliverySink) {
        if !touches[k].held.isEmpty || holds(touchAt: k, up: false) { return hold(delivery, forTouchAt: k, &sink) }
        touches[k].delivered = true
        sink.deliver(delivery)
        owe(touchFrameTo: client)
    }

    private mutating func hold(_ delivery: Delivery, forTouchAt k: Int, _ sink: inout some DeliverySink) {
        if sink.isTracing, touches[k].held.isEmpty, !touches[k].delivered { sink.trace(.touchHeld(touch: touches[k].id, delivery.client)) }
        touches[k].held.append(delivery)
        touches[k].owesHeldFrame = true
    }

    /// A device reuses a touch's id as soon as the finger lifts. If that touch's up is still
    /// held (a recognizer deciding, with delaysTouchesEnded), its owner would see a second
    /// down for an id it holds: the old touch's held events go out first, as the device has
    /// moved on. A double tap on a kiosk with a double-tap gesture does this.
    private mutating func releaseLiftedTouch(_ id: Int32, _ sink: inout some DeliverySink) {
        guard let k = touches.firstIndex(where: { $0.id == id && $0.isLifted }) else { return }
        let touch = touches.remove(at: k)
        guard case .surface(_, let client) = touch.owner else { return }
        if sink.isTracing { sink.trace(.touchReplayed(touch: id, client, events: touch.held.heldEventCount)) }
        for delivery in touch.held { sink.deliver(delivery) }
        if touch.owesHeldFrame { owe(touchFrameTo: client) }
    }

    /// A lifted touch lives only as long as its held events: once they are delivered or
    /// dropped, it goes.
    mutating func removeSettledLiftedTouches() {
        touches.removeAll { $0.isLifted && $0.held.isEmpty }
    }

    /// The touch with this id that is down (a lifted touch waiting on its held up is not).
    func activeTouch(_ id: Int32) -> Int? {
        touches.firstIndex { $0.id == id && !$0.isLifted }
    }

    /// The touch an event is about; an event about a touch that is not down is reported and dropped.
    private func indexOfTouch(_ id: Int32, for event: InputEvent, _ sink: inout some DeliverySink) -> Int? {
        guard let k = activeTouch(id) else {
            sink.report(.ignored(event, because: .unknownTouch))
            return nil
        }
        return k
    }

    mutating func owe(touchFrameTo client: ClientID) {
        if !touchFrameOwed.contains(client) { touchFrameOwed.append(client) }
    }

    /// BTN_LEFT of linux/input-event-codes.h, the button touch emulation presses.
    static var leftButton: UInt32 { 0x110 }
}

extension [Delivery] {
    /// Held events, without the frame markers kept among them.
    var heldEventCount: Int { count { if case .touchFrame = $0 { false } else { true } } }
}
