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
}

extension InputRouter {
    mutating func touchDown(_ id: Int32, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard global.isFinite else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard !touches.contains(where: { $0.id == id }) else { return sink.report(.ignored(event, because: .touchAlreadyDown)) }
        guard let hit = scene.hitTest(at: global), let client = scene.node(hit.node)?.client else {
            touches.append(ActiveTouch(id: id, owner: .nobody, global: global, local: global))
            return sink.report(.touchDropped(id: id, because: .noSurface))
        }
        focusKeyboard(onToplevelOf: hit.node, &sink)
        // The responder chain: the first surface up from the leaf whose client reads touch.
        for node in hit.chain {
            guard let owner = scene.node(node)?.client, acceptsTouch(owner),
                  let local = node == hit.node ? hit.local : local(global, in: node) else { continue }
            touches.append(ActiveTouch(id: id, owner: .surface(node, owner), global: global, local: local))
            sink.deliver(.touchDown(owner, surface: node, id: id, local: local, time: time))
            return owe(touchFrameTo: owner)
        }
        // The compositor end of the chain.
        if policy.emulatesPointerForTouch, acceptsPointer(client), !pointer.pressed.contains(Self.leftButton),
           !touches.contains(where: { $0.owner == .emulatedPointer }) {
            touches.append(ActiveTouch(id: id, owner: .emulatedPointer, global: global, local: global))
            sink.report(.touchEmulatesPointer(id: id, client))
            movePointer(to: global, time, &sink)
            return pressPointer(Self.leftButton, .pressed, time, &sink)
        }
        touches.append(ActiveTouch(id: id, owner: .nobody, global: global, local: global))
        sink.report(.touchDropped(id: id, because: .noTouchBinding))
    }

    mutating func touchMotion(_ id: Int32, _ global: Point, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard global.isFinite else { return sink.report(.ignored(event, because: .nonFiniteCoordinates)) }
        guard let k = indexOfTouch(id, for: event, &sink) else { return }
        touches[k].global = global
        switch touches[k].owner {
        case .surface(let node, let client):
            guard let local = local(global, in: node) else { return }
            touches[k].local = local
            sink.deliver(.touchMotion(client, surface: node, id: id, local: local, time: time))
            owe(touchFrameTo: client)
        case .emulatedPointer:
            movePointer(to: global, time, &sink)
        case .nobody:
            break
        }
    }

    mutating func touchUp(_ id: Int32, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let k = indexOfTouch(id, for: event, &sink) else { return }
        let touch = touches.remove(at: k)
        switch touch.owner {
        case .surface(_, let client):
            sink.deliver(.touchUp(client, id: id, time: time))
            owe(touchFrameTo: client)
        case .emulatedPointer:
            pressPointer(Self.leftButton, .released, time, &sink)
        case .nobody:
            break
        }
    }

    /// wl_touch.cancel ends all of a client's touches at once, so every other touch the
    /// client holds goes quiet too; the device still ends those, and the core swallows that.
    mutating func touchCancel(_ id: Int32, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        guard let k = indexOfTouch(id, for: event, &sink) else { return }
        let touch = touches.remove(at: k)
        switch touch.owner {
        case .surface(_, let client):
            dropTouches(of: client)
            sink.deliver(.touchCancel(client))
        case .emulatedPointer:
            pressPointer(Self.leftButton, .released, time, &sink)
        case .nobody:
            break
        }
    }

    mutating func endTouchGroup(_ sink: inout some DeliverySink) {
        for client in touchFrameOwed { sink.deliver(.touchFrame(client)) }
        touchFrameOwed.removeAll(keepingCapacity: true)
    }

    /// A touch whose surface was destroyed ends now, with a frame of its own; the rest of
    /// the touch is swallowed, and nobody underneath inherits it.
    mutating func endTouchesOnRemovedSurfaces(_ sink: inout some DeliverySink) {
        for k in touches.indices {
            guard case .surface(let node, let client) = touches[k].owner, !scene.contains(node) else { continue }
            touches[k].owner = .nobody
            sink.deliver(.touchUp(client, id: touches[k].id, time: latestTime))
            sink.deliver(.touchFrame(client))
            touchFrameOwed.removeAll { $0 == client }
        }
    }

    /// A still finger whose owner moved is somewhere else on it now: tell the owner, with a
    /// frame, as a motion stamped with the latest event time. Ownership does not change.
    mutating func followMovedOwners(_ sink: inout some DeliverySink) {
        var moved: [ClientID] = []
        for k in touches.indices {
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

    /// Silences a client's touches without telling it (it is gone, or was just cancelled).
    mutating func dropTouches(of client: ClientID) {
        for k in touches.indices {
            if case .surface(_, client) = touches[k].owner { touches[k].owner = .nobody }
        }
        touchFrameOwed.removeAll { $0 == client }
    }

    /// The touch an event is about; an event about a touch that is not down is reported and dropped.
    private func indexOfTouch(_ id: Int32, for event: InputEvent, _ sink: inout some DeliverySink) -> Int? {
        guard let k = touches.firstIndex(where: { $0.id == id }) else {
            sink.report(.ignored(event, because: .unknownTouch))
            return nil
        }
        return k
    }

    private mutating func owe(touchFrameTo client: ClientID) {
        if !touchFrameOwed.contains(client) { touchFrameOwed.append(client) }
    }

    /// BTN_LEFT of linux/input-event-codes.h, the button touch emulation presses.
    static var leftButton: UInt32 { 0x110 }
}
