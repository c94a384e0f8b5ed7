import CWaylandServer
import Responder
import TactileRender

/// Turns the scene into each output's frame, once per loop iteration at most: commits and
/// scene changes only mark what changed; the server's loop, once the events of an iteration
/// are handled, repaints the damage of every output without a frame in flight and hands the
/// frame to the output's backend.
///
///     commit → damage (surface → canvas pixels) ┐
///     scene change (map, move, restack) ────────┼→ repaint: canvas.render(damage) → present
///     pointer motion (the cursor) ──────────────┘         → screencopy frames waiting
final class Composition: ServerPart {
    private unowned(unsafe) let context: any PartContext
    private let loop: OpaquePointer
    private let outputs: Outputs
    private let seat: Seat
    private let tablets: Tablets
    /// Screenshot and capture frames wait for the repaints made here.
    private let readers: [any FrameReader]
    /// `--show-touches` / `--show-input-regions`, drawn over the surfaces.
    var touchMarks: TouchMarks?
    /// `touch.feedback: ripple`, drawn over everything.
    var touchFeedback: TouchFeedback?
    /// The compositor's own drawings over everything, the lock included.
    private let overlays: Overlays
    /// Told each touch-to-present time measured (`WaylandServer.onTouchShown`).
    var touchShown: ((TouchShown, Duration) -> Void)?
    /// Told what was drawn after each repaint (the windows hear whether they show).
    private let repainted: ([(Surface, Rect)]) -> Void
    /// While the session is locked, the lock's node: nothing under it is drawn.
    private let lockShield: () -> NodeID?
    /// A repaint is due before the loop next waits (`repaintIfScheduled`).
    private var scheduled = false
    /// Wakes composition when an output's repaint deadline comes (`RepaintSchedule`), and
    /// the time it is armed for.
    private var deadline: EventSource?
    private var armedFor: Instant?
    /// A cursor image changed: the cursor is redrawn even where it did not move.
    private var cursorDirty = false

    init(context: any PartContext, loop: OpaquePointer, outputs: Outputs, seat: Seat, tablets: Tablets, readers: [any FrameReader], overlays: Overlays,
         repaint: Signal<Void>, cursorChanged: Signal<Void>, lockShield: @escaping () -> NodeID?, repainted: @escaping ([(Surface, Rect)]) -> Void) {
        self.context = context
        self.loop = loop
        self.outputs = outputs
        self.seat = seat
        self.tablets = tablets
        self.readers = readers
        self.overlays = overlays
        self.lockShield = lockShield
        self.repainted = repainted
        outputs.powerObservers.append { [unowned self] output in
            if output.poweredOn { output.screen.damage.append(Rect(size: output.placed.description.pixelSize)) }
            // Asleep or awake, windows hear whether they still show (`repainted`).
            schedule()
        }
        repaint.follow { [unowned self] in schedule() }
        outputs.clientClock.everyAwaitedAnswered = { [unowned self] in composeNow() }
        cursorChanged.follow { [unowned self] in cursorImageChanged() }
    }

    /// Output sizes changed, and what waited for an output (frame callbacks committed before
    /// there was one) is repainted too.
    func layoutChanged() {
        damageEverything()
    }

    /// The frame `output` had in flight will never be shown: the callbacks it took wait for
    /// another output, and the content it was to show is discarded for it.
    func outputWithdrawn(_ output: Output) {
        outputs.frameCallbacks += output.screen.inFlight
        output.screen.inFlight.removeAll()
        for feedback in output.screen.feedbackInFlight { feedback.discard() }
        output.screen.feedbackInFlight.removeAll()
    }

    /// What changed while the frame was in flight waited for it.
    func framePresented(on output: Output, _ frame: PresentedFrame) {
        let screen = output.screen
        if let since = screen.touchFeedbackSince {
            screen.touchFeedbackSince = nil
            let after = since < frame.time ? frame.time.microseconds - since.microseconds : 0
            context.logger.debug("touch feedback: shown \(after) µs after the touch")
            measured(.feedback, since: since, shown: frame.time)
        }
        if let since = screen.appTouchSince {
            screen.appTouchSince = nil
            measured(.app, since: since, shown: frame.time)
        }
        schedule()
    }

    /// A time that is no measurement (an injected event stamped in the future or long ago)
    /// is left out.
    private func measured(_ kind: TouchShown, since: Instant, shown: Instant) {
        guard let touchShown, since <= shown, shown - since < TouchShown.plausible else { return }
        touchShown(kind, shown - since)
    }

    /// Removes the pending repaint and the deadline timer before the loop goes.
    func stop() {
        scheduled = false
        deadline = nil
        outputs.clientClock.stop()
    }

    /// Every client awaited this refresh has committed: the frames waiting for their deadline
    /// are composed now (an output with nothing new waits for nothing), and the deadline's
    /// wake-up is saved.
    private func composeNow() {
        for output in outputs.live { output.repaintSchedule.composeNow() }
        if armedFor != nil {
            armedFor = nil
            deadline?.disarm()
        }
        schedule()
    }

    /// A repaint when `time` comes: the earliest asked for wins until it fires.
    private func repaint(at time: Instant) {
        if deadline == nil { deadline = EventSource.deadline(on: loop, loopOwner: nil) { [unowned self] in armedFor = nil; schedule() } }
        guard armedFor.map({ time < $0 }) ?? true else { return }
        armedFor = time
        deadline?.arm(at: time)
    }

    /// Whether a frame is still to come: a repaint scheduled, one on its way to a screen, or
    /// frame callbacks waiting for one (`tactile inspect --wait idle` waits for none).
    var framePending: Bool {
        scheduled || armedFor != nil || !outputs.frameCallbacks.isEmpty || outputs.live.contains { $0.framePending }
    }

    /// A repaint at the end of this loop iteration. Each output then compares what it
    /// showed with the scene, so a scene change needs no more than this.
    func schedule() {
        scheduled = true
    }

    /// The server's loop calls this once an iteration's events are handled, before it
    /// flushes the clients and waits again. A flag and this call rather than a libwayland
    /// idle source: an idle source is a malloc each time, and composition is scheduled
    /// about three times a frame (the commit, the deadline, the vblank). A repaint that
    /// schedules another runs it before the loop waits, as an idle source added by an idle
    /// source would.
    func repaintIfScheduled() {
        while scheduled {
            scheduled = false
            repaint()
        }
    }

    /// `surface`'s content changed where `damage` says: each output it lies on repaints there.
    func damage(_ surface: Surface, _ damage: SurfaceDamage) {
        guard !damage.isEmpty, let node = surface.node, let frame = context.scene.absoluteFrame(of: node) else { return }
        for reader in readers { reader.surfaceDamaged(surface) }
        func add(_ local: Rect) {
            let global = local.intersection(Rect(size: frame.size)).offset(by: Position(x: frame.x, y: frame.y))
            guard !global.isEmpty else { return }
            for output in outputs.live {
                if let rect = output.canvasRect(of: global) { output.screen.damage.append(rect) }
            }
        }
        if !SurfaceContent.forEachSurfaceRect(damage, state: surface.current, add) { add(Rect(size: frame.size)) }
        schedule()
    }

    /// Damages the whole of every output (a cursor image changed, an output was resized).
    func damageEverything() {
        for output in outputs.live { output.screen.damage.append(Rect(size: output.placed.description.pixelSize)) }
        schedule()
    }

    /// The pointer moved: the cursor, if one is drawn, moves with it.
    func cursorMoved() {
        if cursorToDraw() != nil || outputs.live.contains(where: { $0.screen.cursorShown != nil }) { schedule() }
    }

    /// The surfaces drawn on the output being repainted and what the canvas is given, kept
    /// between repaints for their room.
    private var items: [(Surface, DrawItem)] = []
    private var drawn: [DrawItem] = []
    private var spareDamage: [Rect] = []

    /// A client's cursor image, or its choice of one, changed.
    private func cursorImageChanged() {
        cursorDirty = true
        schedule()
    }

    private func repaint() {
        collectVisibleSurfaces()
        let cursor = cursorToDraw()
        let cursorChanged = cursorDirty
        cursorDirty = false
        let overlayDamage = (touchMarks?.takeDamage() ?? []) + (touchFeedback?.takeDamage() ?? []) + overlays.takeDamage()
        for output in outputs.live {
            output.screen.damage += overlayDamage.compactMap { output.canvasRect(of: $0) }
            repaint(output, visible: visible, cursor: cursor, cursorChanged: cursorChanged)
        }
        repainted(visible)
        for reader in readers { reader.repaintEnded(cursor: cursor, time: context.currentTime) }
    }

    /// The overlay changed (a touch moved, a mark came or went): repaint where.
    func overlayChanged() {
        if touchMarks?.damage.isEmpty == false || touchFeedback?.damage.isEmpty == false || !overlays.rings.damage.isEmpty { schedule() }
    }

    private func repaint(_ output: Output, visible: [(Surface, Rect)], cursor: (content: SurfaceContent, frame: Rect)?,
                         cursorChanged: Bool) {
        let screen = output.screen
        guard !output.framePending else {
            // Repainted when that frame is shown (`outputPresented` schedules it).
            if cursorChanged { cursorDirty = true }
            return
        }
        let started = context.currentTime
        let cursorItem = cursor.flatMap { output.drawItem($0.content, frame: $0.frame, opaque: .empty) }
        let cursorMoved = cursorItem?.bounds != screen.cursorShown || cursorChanged
        if let notBefore = output.repaintSchedule.notBefore, started < notBefore,
           !screen.damage.isEmpty || cursorMoved || !outputs.frameCallbacks.isEmpty || !outputs.presentationFeedback.isEmpty {
            // Content to show: as late as is safe before the next vblank, so what comes
            // meanwhile makes it too. (A scene that only moved, or nothing to show, is
            // repainted at once: the frame still waits for the vblank.)
            if cursorChanged { cursorDirty = true }
            return repaint(at: notBefore)
        }
        guard let canvas = screen.canvas(size: output.placed.description.pixelSize) else { return }
        // Kept from repaint to repaint (emptied, their room kept): a steady frame allocates
        // none of them.
        items.removeAll(keepingCapacity: true)
        for (surface, frame) in visible {
            guard let content = surface.content,
                  let item = output.drawItem(content, frame: frame, opaque: surface.current.opaqueRegion, opacity: surface.current.opacity) else { continue }
            items.append((surface, item))
        }
        var damage = screen.damage
        screen.damage = spareDamage
        spareDamage = []
        // Its room is kept for the damage of a later repaint.
        defer {
            damage.removeAll(keepingCapacity: true)
            spareDamage = damage
        }
        screen.redrawn(items, damage: &damage)
        let latched = touchFeedback?.latch(on: output)
        var marks = (touchMarks?.items(on: output) ?? []) + (latched?.items ?? [])
        marks += overlays.items(on: output, at: started)
        if !damage.isEmpty {
            drawn.removeAll(keepingCapacity: true)
            for (_, item) in items { drawn.append(item) }
            drawn += marks
            canvas.render(drawn, damage: damage)
        }
        var presented = damage
        if cursorMoved {
            presented += [screen.cursorShown, cursorItem?.bounds].compactMap { $0 }
            screen.cursorShown = cursorItem?.bounds
        }
        screen.repaintEnded()
        for reader in readers { reader.repainted(output, canvas: canvas, damage: damage, cursor: cursorItem, time: context.currentTime) }
        // A sleeping panel is shown nothing, and takes no frame callbacks: clients drawing
        // only there wait, as on weston and wlroots. Woken, it is repainted whole.
        guard output.poweredOn else { return }
        // On a display without vblanks, frame callbacks keep to its refresh (RepaintSchedule).
        var callbacks = outputs.frameCallbacks
        if let paced = output.repaintSchedule.callbacksNotBefore, started < paced, !callbacks.isEmpty {
            callbacks = []
            repaint(at: paced)
        }
        let feedback = outputs.presentationFeedback.filter { $0.surface?.enteredOutputs.contains(output.id) == true }
        guard !presented.isEmpty || !callbacks.isEmpty || !feedback.isEmpty, let presenter = output.presenter else { return }
        if !callbacks.isEmpty { outputs.frameCallbacks.removeAll() }
        outputs.presentationFeedback.removeAll { each in feedback.contains { $0 === each } }
        screen.inFlight.appendSharing(callbacks)
        screen.feedbackInFlight.appendSharing(feedback)
        if let since = latched?.since { screen.touchFeedbackSince = since }
        output.framePending = true
        output.composedAt = started
        // A surface that is the whole frame (no touch marks over it) may be scanned out as it
        // is, and torn when it asks to be (wp_tearing_control_v1 async).
        let whole = marks.isEmpty ? Self.wholeFrame(items, size: canvas.size) : nil
        presenter.present(OutputFrame(output: output.id, damage: presented, canvas: canvas, cursor: cursorItem,
                                      scanout: whole.flatMap(Self.scanout), torn: whole?.surface.current[TearingHint.self].async == true))
        for (surface, _) in items where surface.hasUnpresentedBuffer {
            surface.presentedFrames += 1
            surface.hasUnpresentedBuffer = false
            if let since = surface.touchAnsweredSince {
                surface.touchAnsweredSince = nil
                screen.appTouchSince = min(screen.appTouchSince ?? since, since)
            }
        }
        let ended = context.currentTime
        output.repaintSchedule.repainted(took: ended - started, at: ended)
    }

    /// The top surface, when it is the whole frame by itself: an opaque image of the
    /// canvas's size drawn 1:1 at its corner.
    private static func wholeFrame(_ items: [(Surface, DrawItem)], size: Size) -> (surface: Surface, item: DrawItem)? {
        guard let (surface, top) = items.last, top.isWholeFrame(of: size) else { return nil }
        return (surface, top)
    }

    /// The whole-frame surface's buffer when it is a client's dmabuf. The canvas is composed
    /// all the same: screenshots and screencopy read it.
    private static func scanout(_ whole: (surface: Surface, item: DrawItem)) -> Scanout? {
        guard let files = whole.item.image.dmabuf, let buffer = whole.surface.shownBuffer else { return nil }
        return Scanout(files: files, buffer: buffer)
    }

    /// Every mapped surface with content, bottom to top as the scene stacks them (a
    /// surface's subsurfaces below it, then it, then those above), with its global frame:
    /// into `visible`, emptied first and its room kept.
    private func collectVisibleSurfaces() {
        visible.removeAll(keepingCapacity: true)
        let scene = context.scene
        func visit(_ id: NodeID) {
            guard let node = scene.node(id), node.isMapped, !node.isHidden, node.alpha >= 0.01 else { return }
            let (below, above) = scene.stacking(of: id)
            for child in below { visit(child) }
            if let surface = context.surface(at: id), let frame = scene.absoluteFrame(of: id) { visible.append((surface, frame)) }
            for child in above { visit(child) }
        }
        visit(lockShield() ?? scene.root)
    }

    /// What the repaint under way draws, as `collectVisibleSurfaces` found it.
    private var visible: [(Surface, Rect)] = []

    /// The cursor over the outputs: a pen's tool cursor while a pen is near as a tablet
    /// tool (where the user looks then), else the seat's, for the client under the pointer.
    private func cursorToDraw() -> (content: SurfaceContent, frame: Rect)? {
        let focus = context.focus
        if let pen = focus.pen { return seat.cursorToDraw(choice: tablets.cursor(of: pen), at: pen.position) }
        return seat.cursorToDraw(client: context.pointerFocusClient, at: focus.pointerPosition)
    }
}
