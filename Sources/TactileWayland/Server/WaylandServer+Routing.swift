import CWaylandServer
import Responder

/// Every routing step goes through `route`: the core decides and the sink writes, then the
/// server does what follows from what was written, in one order for every step.
extension WaylandServer {
    /// Runs `step` on the core, then: the seat's grabs hear of a press (one on another client
    /// dismisses grabbing popups); the parts hear of focus that moved (the activated window,
    /// text input, the clipboard and pointer constraints follow it); the gestures' events are
    /// published and their timer re-armed.
    func route(_ step: (inout InputRouter, inout ProtocolSink) -> Void) {
        var sink = ProtocolSink(seat: parts.seat, pointerGestures: parts.pointerGestures, tablets: parts.tablets, surfaces: surfaces, logger: logger, tracing: parts.tracer.isOn)
        step(&router, &sink)
        touchCounts.cancelled += sink.touchesCancelled
        if !sink.traced.isEmpty { parts.tracer.publish(sink.traced, naming: naming) }
        if let marks = parts.composition.touchMarks {
            marks.pointerFocus(router.pointerFocus, region: marks.showsInputRegions ? router.scene.inputRegionOutline(of: router.pointerFocus) : [])
            parts.composition.overlayChanged()
        }
        if let client = sink.pressed { parts.seat.grabs.pressDelivered(to: client) }
        parts.focusMayHaveChanged(focus)
        parts.gestures.publish(sink.gestureEvents, nextDeadline: { router.nextGestureDeadline }, now: { currentTime })
        // A long press's countdown came or went (a nil check on every other step).
        if router.secondaryClickRing != nil || !parts.overlays.rings.isEmpty { showTouchRings() }
    }

    /// Routes one input event from a backend, through the seat's grabs first (`InputGrab`).
    public func handle(_ event: InputEvent) {
        parts.recorder.sees(event)
        routeFiltered(event)
    }

    /// Routes one event of a device the backend numbers, through the device's filters
    /// first (`TouchFiltering`); `tactile record` hears it as the device said it.
    public func handle(_ event: InputEvent, from device: InputDeviceID) {
        parts.recorder.sees(event)
        parts.touchFiltering.filter(event, from: device, now: currentTime) { routeFiltered($0) }
    }

    /// Reads the input devices' waiting events (`BackendHost.watchInput`) before a timer
    /// decides by event times: the loop may have been busy past a deadline (composing a
    /// frame) with a lift stamped before it still unread.
    func readWaitingInput() {
        inputReaders.removeAll { $0.source.source == nil }
        for reader in inputReaders { reader.read() }
    }

    /// Routes an event as filtered: idle, show-touches and the grabs see it, then the core.
    /// Keys also drive the XKB state, so the focused client hears about modifier changes; a
    /// key the core refuses does not touch it.
    func routeInput(_ event: InputEvent) {
        parts.idle.sees(event)
        parts.sessionReset.sees(event)
        if case .touchDown = event { touchCounts.downs += 1 }
        parts.virtualPointers.sees(event)
        // Every finger on the glass, whoever gets its touch (a grab, a gesture, nobody).
        if let feedback = parts.composition.touchFeedback {
            feedback.input(event)
            parts.composition.overlayChanged()
        }
        var modifiersChanged = false
        if case .key(let key, let state, _) = event {
            // A real key: heard under the seat's keymap again, if a virtual keyboard typed last.
            modifiersChanged = parts.seat.activeKeymap !== parts.seat.keymap
            parts.seat.activeKeymap = parts.seat.keymap
            if router.changesHeldKeys(key: key, state: state) { modifiersChanged = parts.seat.updateModifiers(key: key, state: state) || modifiersChanged }
        }
        parts.seat.cursorPolicySees(event)
        guard let event = parts.seat.grabs.intercept(event, modifiersChanged: modifiersChanged) else { return }
        parts.composition.touchMarks?.input(event)
        if case .penProximity(let pen, true, _, _, _) = event { parts.tablets.penSeen(pen) }
        route { router, sink in router.handle(event, sink: &sink) }
        parts.seat.grabs.eventRouted(event)
        switch event {
        // A pen moves the pointer's cursor (driving the pointer) or its tool's.
        case .pointerMotion, .penMotion, .penProximity: parts.composition.cursorMoved()
        default: break
        }
        if modifiersChanged { parts.seat.sendModifiers(toFocused: keyboardFocusClient) }
    }

    /// Applies a scene change and sends what it causes (touches ended, pointer re-entered).
    /// During a commit the change waits for the commit's others (`inSceneBatch`).
    func updateScene(_ change: @escaping (inout Scene) -> Void) {
        if sceneBatch != nil { return sceneBatch!.changes.append(.edit(change)) }
        route { router, sink in router.updateScene(sink: &sink, change) }
        parts.composition.schedule()
    }

    /// Runs `body`, collecting its scene changes, and applies them as one: the core settles
    /// touches and pointer focus once, on the finished state. Then what waited for the scene
    /// (`afterScene`) runs. Nested batches join the outer one.
    func inSceneBatch(_ body: () -> Void) {
        guard sceneBatch == nil else { return body() }
        sceneBatch = spareSceneBatch ?? SceneBatch()
        spareSceneBatch = nil
        body()
        var batch = sceneBatch!
        sceneBatch = nil
        if !batch.changes.isEmpty {
            route { router, sink in
                router.updateScene(sink: &sink) { scene in
                    for change in batch.changes {
                        switch change {
                        case .edit(let edit): edit(&scene)
                        case .node(let surface): surface.writeNode(into: &scene)
                        }
                    }
                }
            }
            parts.composition.schedule()
        }
        for then in batch.then {
            switch then {
            case .work(let work): work()
            case .outputs(let surface): surface.updateOutputs()
            case .commit(let surface, let hadBuffer, let damage): surface.sceneShows(commitHadBuffer: hadBuffer, damage: damage)
            }
        }
        batch.changes.removeAll(keepingCapacity: true)
        batch.then.removeAll(keepingCapacity: true)
        spareSceneBatch = batch
    }

    /// Runs `work` once the scene shows the batch under way, or now without one.
    func afterScene(_ work: @escaping () -> Void) {
        if sceneBatch != nil { return sceneBatch!.then.append(.work(work)) }
        work()
    }

    /// `surface`'s committed state goes to its node with the batch, and the outputs it is
    /// on are worked out after. Every commit does this: the batch holds the surface itself,
    /// not a closure made for it.
    func syncNode(of surface: Surface) {
        guard sceneBatch != nil else {
            updateScene { surface.writeNode(into: &$0) }
            return surface.updateOutputs()
        }
        sceneBatch!.changes.append(.node(surface))
        sceneBatch!.then.append(.outputs(surface))
    }

    /// Once the scene shows the batch, `surface`'s role hears of its commit and composition
    /// of its damage (`Surface.sceneShows`).
    func afterScene(commitOf surface: Surface, hadBuffer: Bool, damage: SurfaceDamage) {
        guard sceneBatch != nil else { return surface.sceneShows(commitHadBuffer: hadBuffer, damage: damage) }
        sceneBatch!.then.append(.commit(surface, hadBuffer: hadBuffer, damage: damage))
    }

    /// The surface whose node `node` is; nil for a node that is gone.
    func surface(at node: NodeID) -> Surface? { surfaces.surface(at: node) }

    /// Moves keyboard focus by policy, for the reason given (traced); nil unfocuses.
    func focusKeyboard(on node: NodeID?, because reason: String) {
        // While the session is locked, only the lock's surfaces may have it.
        guard parts.sessionLocks.admitsFocus(on: node) else { return }
        route { router, sink in router.setKeyboardFocus(node, because: .policy(reason), sink: &sink) }
    }
}

/// Scene changes waiting for the end of a commit, and what waits for them, in order.
struct SceneBatch {
    var changes: [Change] = []
    var then: [After] = []

    enum Change {
        case edit((inout Scene) -> Void)
        /// The surface's committed state, as it is when the batch is made.
        case node(Surface)
    }

    enum After {
        case work(() -> Void)
        case outputs(Surface)
        case commit(Surface, hadBuffer: Bool, damage: SurfaceDamage)
    }
}
