import CWaylandServer
import WaylandProtocols
import Responder
import TactileRender

/// The state of wl_surface that commit applies atomically (wl_surface is double-buffered),
/// with what other protocols keep double-buffered with it in `slots` (`SurfaceStateSlot`).
struct SurfaceState {
    /// A buffer attached since the last commit (`.some(nil)`: a NULL attach, which unmaps).
    var attachment: BufferAttachment??
    var inputRegion = Region.infinite
    var bufferScale: Int32 = 1
    var bufferTransform: OutputTransform = .normal
    /// Where the new buffer's origin lies relative to the current one (attach dx/dy before
    /// version 5, wl_surface.offset after); not persistent, unlike the rest.
    var offset = Position.zero
    /// Where the client promises its pixels are opaque: composition skips what lies below.
    var opaqueRegion = Region.empty
    /// What changed since the last commit, in surface and in buffer coordinates; not persistent.
    var damage = SurfaceDamage()
    var slots = SurfaceSlots()

    /// The slot of type `S`, as `state[S.self]`.
    subscript<S: SurfaceStateSlot>(_ type: S.Type) -> S {
        get { slots[S.self] }
        set { slots[S.self] = newValue }
    }
}

/// What a committed buffer contributes: its size, which gives the surface's size, and its
/// pixels (nil for a buffer that cannot be shown). The client gets the buffer back
/// (wl_buffer.release) once no state refers to it.
struct BufferAttachment {
    var width: Int
    var height: Int
    var image: Image?
    /// Nil only for pictures of Tactile's own (a default cursor).
    var reference: BufferReference?
}

/// wl_surface: double-buffered state, the role that gives it a place in the scene, and the
/// scene node it is hit-tested as once it has one.
final class Surface: ResourceObject {
    /// Unchecked: every object of a server dies with its display, at the latest while the
    /// server shuts down, when a checked reference would already trap.
    unowned(unsafe) let host: any SurfaceHost
    /// The outputs it may be on, which it tells the client of (wl_surface.enter and leave).
    private let outputs: Outputs
    let owner: ClientState
    var pending = SurfaceState()
    private(set) var current = SurfaceState()
    /// Its pictures, commit by commit, with their damage: a renderer's texture of the last
    /// one is updated where a new buffer differs, not uploaded whole.
    private let pictures = PixelHistory()
    /// The outputs the client was told the surface is on (wl_surface.enter).
    private(set) var enteredOutputs: [OutputID] = []
    /// What the client was last told suits its buffers best (wl_surface 6).
    private var toldPreferredBuffer: PreferredBuffer?
    /// Set once a role (toplevel, subsurface, ...) puts the surface in the scene.
    var node: NodeID?
    var role: SurfaceRole?
    /// How many frames showing a new buffer of this surface were composed and handed to
    /// an output (`tactile inspect --wait frame`); `hasUnpresentedBuffer` until the next is.
    var presentedFrames = 0
    var hasUnpresentedBuffer = false
    /// The oldest touch its client was sent before it committed the buffer not yet
    /// presented: the frame that shows that buffer ends the touch's time to present.
    var touchAnsweredSince: Instant?
    /// How long its client takes to answer a frame callback, and since when its answer is
    /// awaited (`ClientFrameClock`).
    var drawTime = ClientDrawTime()
    var frameAwaitedSince: Instant?
    /// The refresh it was last sent `done` in, until it commits.
    var frameAwaitedIn: Int?
    /// What protocols attached besides the role (`SurfaceAddon`), in the order attached.
    private var addons: [any SurfaceAddon] = []
    private var pendingFrameCallbacks: [FrameCallback] = []
    /// A synchronized subsurface's committed state, waiting for its parent's apply.
    private(set) var cached: SurfaceState?
    private var cachedFrameCallbacks: [FrameCallback] = []
    /// Updates an add-on holds back (`SurfaceAddon.mayApply`), oldest first, applied by
    /// `applyReadyUpdates`.
    private var queue: [(state: SurfaceState, callbacks: [FrameCallback])] = []
    /// More waiting updates than this and the oldest is applied at once: a client cannot make
    /// the server hold its buffers without end.
    private static let queueLimit = 8
    /// Subsurfaces of this surface, bottom to top as added; those added since the last apply
    /// wait in `pendingChildren`, and restacking waits in `pendingRestacks`.
    var children: [Subsurface] = []
    var pendingChildren: [Subsurface] = []
    var pendingRestacks: [(Subsurface, SubsurfacePlacement)] = []
    /// The buffer attached but not yet committed, with a listener that forgets it if the
    /// client destroys it first.
    private var pendingBuffer: BufferReference?

    init(host: any SurfaceHost, outputs: Outputs, owner: ClientState) {
        self.host = host
        self.outputs = outputs
        self.owner = owner
    }

    var size: Size {
        guard case .some(.some(let buffer)) = current.attachment else { return .zero }
        return current.surfaceSize(buffer: buffer)
    }

    /// The committed buffer's pixels with what maps them onto the surface; nil while unmapped.
    var content: SurfaceContent? {
        guard case .some(.some(let buffer)) = current.attachment, let image = buffer.image, !image.isLost else { return nil }
        return SurfaceContent(image: image, state: current, size: size)
    }

    /// The client's buffer the surface shows, while it shows one.
    var shownBuffer: BufferReference? {
        guard case .some(.some(let buffer)) = current.attachment else { return nil }
        return buffer.reference
    }

    var hasPendingBuffer: Bool { pendingBuffer != nil }

    /// The buffer a commit would replace: the cached one of a synchronized subsurface, else
    /// the current one.
    private var latestAttachment: BufferAttachment? {
        if case .some(.some(let buffer)) = cached?.attachment { return buffer }
        if case .some(.some(let buffer)) = current.attachment { return buffer }
        return nil
    }

    /// Whether a role is taken: the role itself, or an add-on that is the first step to one
    /// (an xdg_surface before get_toplevel).
    var hasRole: Bool { role != nil || addons.contains { $0.reservesRole } }

    /// The add-on of type `A`, if one is attached.
    func addon<A: SurfaceAddon>(_ type: A.Type = A.self) -> A? {
        addons.lazy.compactMap { $0 as? A }.first
    }

    func attachAddon(_ addon: any SurfaceAddon) { addons.append(addon) }

    func detachAddon(_ addon: any SurfaceAddon) { addons.removeAll { $0 === addon } }

    /// Changes the pending, cached and current state alike, now, without a commit: an
    /// add-on whose object went takes its state with it at once.
    func resetState(_ change: (inout SurfaceState) -> Void) {
        change(&pending)
        change(&current)
        if cached != nil { change(&cached!) }
        syncNode()
    }

    var hasBuffer: Bool {
        if case .some(.some) = current.attachment { return true }
        return false
    }

    override func resourceDestroyed() {
        pendingBuffer = nil
        role?.surfaceDestroyed()
        for addon in addons { addon.surfaceDestroyed(self) }
        for callback in pendingFrameCallbacks + cachedFrameCallbacks + queue.flatMap(\.callbacks) { callback.discard() }
        queue.removeAll()
        for child in children + pendingChildren { child.parentDestroyed() }
        // A restack naming this surface itself (place_above its parent) would keep it alive.
        (children, pendingChildren, pendingRestacks) = ([], [], [])
        removeNodeOfDestroyedSurface()
        // Its buffers go back to the client now, not when the last reference to it goes.
        current.attachment = nil
        cached = nil
    }

    fileprivate func attach(_ buffer: OpaquePointer?, x: Int32, y: Int32) {
        if buffer != nil, !addons.allSatisfy({ $0.mayAttachBuffer() }) { return }
        pendingBuffer = buffer.map { BufferReference($0) }
        pending.attachment = .some(nil)
        if version < 5 { pending.offset = Position(x: Int(x), y: Int(y)) }
    }

    /// wl_surface.commit: a synchronized subsurface caches the state for its parent's next
    /// apply; every other surface applies it now (with any state cached before).
    fileprivate func commit() {
        let synchronized = role?.waitsForParent ?? false
        if let reference = pendingBuffer {
            if let latest = latestAttachment, latest.reference?.buffer == reference.buffer {
                // The same buffer again, with new pixels in it: still Tactile's, not released.
                latest.image?.changed()
                pending.attachment = .some(latest)
            } else {
                if let side = reference.longestSide, side > owner.limits.bufferSide {
                    guard owner.isXwayland else {
                        return postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue,
                                         "a buffer \(side) pixels long is larger than Tactile shows (limits.buffer-side: \(owner.limits.bufferSide))")
                    }
                    host.logger.warning("an X window's buffer is \(side) pixels long, more than Tactile shows (limits.buffer-side: \(owner.limits.bufferSide)): not shown")
                    pending.attachment = .some(nil)
                } else {
                    pending.attachment = .some(reference.commit(logger: host.logger, keptCopyLimit: outputs.keptCopyLimit))
                }
            }
            pendingBuffer = nil
        }
        var state = pending
        if case .some(.some(let buffer)) = state.attachment ?? cached?.attachment ?? current.attachment,
           !addons.allSatisfy({ $0.validate(state, buffer: buffer) }) { return }
        if let cached {
            if state.attachment == nil { state.attachment = cached.attachment }
            state.offset = state.offset + cached.offset
            state.damage = cached.damage.merged(with: state.damage)
        }
        pending.attachment = nil
        pending.offset = .zero
        pending.damage = SurfaceDamage()
        pending.slots.startOver()
        var callbacks = cachedFrameCallbacks
        callbacks.appendSharing(pendingFrameCallbacks)
        pendingFrameCallbacks.removeAll()
        if synchronized {
            cached = state
            cachedFrameCallbacks = callbacks
            return
        }
        cached = nil
        cachedFrameCallbacks.removeAll()
        // Updates apply in order: one waiting keeps the ones after it waiting too.
        guard queue.isEmpty, isReady(state) else {
            queue.append((state, callbacks))
            if queue.count > Self.queueLimit {
                let oldest = queue.removeFirst()
                apply(oldest.state, frameCallbacks: oldest.callbacks)
            }
            host.pace(self)
            return
        }
        apply(state, frameCallbacks: callbacks)
    }

    /// Whether an update may apply now: no add-on holds it back. A synchronized subsurface's
    /// updates follow its parent's instead.
    private func isReady(_ state: SurfaceState) -> Bool {
        addons.allSatisfy { $0.mayApply(state) }
    }

    /// The updates waiting, oldest first.
    var waitingUpdates: some Collection<SurfaceState> { queue.lazy.map(\.state) }

    /// Applies the waiting updates that are ready, in order, up to the first that is not.
    func applyReadyUpdates() {
        while let first = queue.first, isReady(first.state) {
            queue.removeFirst()
            apply(first.state, frameCallbacks: first.callbacks)
        }
    }

    /// Applies cached state now (a subsurface whose parent applied, or one set desynchronized).
    func applyCachedState() {
        guard let state = cached else { return }
        let callbacks = cachedFrameCallbacks
        cached = nil
        cachedFrameCallbacks.removeAll()
        apply(state, frameCallbacks: callbacks)
    }

    /// Makes `state` current; then, as a parent, applies what its subsurfaces left pending on it
    /// (new subsurfaces, positions, stacking) and their cached state. The scene changes of
    /// all of it (this surface's and its subsurfaces') are made in one step at the end.
    private func apply(_ state: SurfaceState, frameCallbacks callbacks: [FrameCallback]) {
        host.inSceneBatch { applyInBatch(state, frameCallbacks: callbacks) }
    }

    private func applyInBatch(_ state: SurfaceState, frameCallbacks callbacks: [FrameCallback]) {
        if !callbacks.isEmpty {
            host.queueFrameCallbacks(callbacks)
        }
        if frameAwaitedSince != nil { host.frameAnswered(by: self) }
        let hadBuffer = hasBuffer
        if let attachment = state.attachment { current.attachment = attachment }
        current.inputRegion = state.inputRegion
        current.bufferScale = state.bufferScale
        current.bufferTransform = state.bufferTransform
        current.opaqueRegion = state.opaqueRegion
        var damage = state.damage
        if state.slots.changesEveryPixel(from: current.slots) { damage.everything() }
        current.slots = state.slots
        if state.attachment != nil, let content {
            pictures.record(content.image, damage: content.bufferRects(damage))
            hasUnpresentedBuffer = true
            if let since = owner.touchUnansweredSince {
                owner.touchUnansweredSince = nil
                touchAnsweredSince = min(touchAnsweredSince ?? since, since)
            }
        }
        if state.offset != .zero {
            // The new buffer's origin moved relative to the old one: so does the surface.
            host.updateScene { [unowned self] scene in
                guard let node else { return }
                scene.update(node) { $0.position = $0.position.saturatingAdd(state.offset) }
            }
        }
        syncNode()
        for addon in addons { addon.applied(self) }
        host.afterScene(commitOf: self, hadBuffer: hadBuffer, damage: damage)
        applySubsurfaceState()
    }

    /// Roles act on the scene as it shows a commit (a window mapping takes focus), and
    /// composition repaints its damage.
    func sceneShows(commitHadBuffer hadBuffer: Bool, damage: SurfaceDamage) {
        role?.committed(surface: self, hadBuffer: hadBuffer)
        host.damaged(self, damage)
    }

    private func applySubsurfaceState() {
        let added = pendingChildren
        pendingChildren.removeAll()
        children += added
        for child in added { child.createNode(under: self) }
        for child in children { child.applyPendingPosition() }
        let restacks = pendingRestacks
        pendingRestacks.removeAll()
        for (child, placement) in restacks { restack(child, placement) }
        for child in children { child.surface?.applyCachedState() }
    }

    /// Nodes are looked up as the batch is applied: a subsurface added in the same commit
    /// has none before.
    private func restack(_ child: Subsurface, _ placement: SubsurfacePlacement) {
        host.updateScene { scene in
            guard let node = child.surface?.node else { return }
            let position: StackPosition?
            switch placement {
            case .above(let sibling): position = sibling.node.map { .above($0) }
            case .below(let sibling): position = sibling.node.map { .below($0) }
            }
            guard let position else { return }
            scene.restack(node, to: position)
        }
    }

    /// Writes the committed state into the scene node, the only state hit testing sees, with
    /// the commit under way (`writeNode`).
    func syncNode() {
        host.syncNode(of: self)
    }

    func writeNode(into scene: inout Scene) {
        guard let node else { return }
        let (size, region, mapped, slots) = (size, current.inputRegion, hasBuffer && (role?.isMapped ?? false), current.slots)
        scene.update(node) {
            $0.size = size
            $0.inputRegion = region
            $0.isMapped = mapped
            slots.shape(&$0)
        }
    }

    /// Tells the client which outputs the mapped surface is on now (wl_surface.enter and
    /// leave, on every wl_output it bound of them): those its rectangle overlaps. Checked
    /// when the surface commits or its window is placed, and when outputs change.
    func updateOutputs() {
        guard let resource else { return }
        // Most commits change neither list: they are compared as the outputs are walked, and
        // a new list is made only when they differ.
        var overlapping = 0
        var same = true
        var mostlyOn: (output: PlacedOutput, area: Int)?
        let frame = node.flatMap { host.scene.node($0)?.isMapped == true ? host.scene.absoluteFrame(of: $0) : nil }
        // A surface with no size yet still shows where it starts.
        let probe = frame.map { $0.isEmpty ? Rect(x: $0.x, y: $0.y, width: 1, height: 1) : $0 }
        if let probe {
            for output in outputs.live {
                let overlap = output.placed.rect.intersection(probe)
                guard !overlap.isEmpty else { continue }
                if overlapping >= enteredOutputs.count || enteredOutputs[overlapping] != output.id { same = false }
                overlapping += 1
                // Overlaps are within an output's rectangle: their areas cannot overflow.
                let area = overlap.width * overlap.height
                if mostlyOn.map({ area > $0.area }) ?? true { mostlyOn = (output.placed, area) }
            }
        }
        if !same || overlapping != enteredOutputs.count {
            let now = probe.map { probe in outputs.live.filter { !$0.placed.rect.intersection(probe).isEmpty }.map(\.id) } ?? []
            for id in enteredOutputs where !now.contains(id) {
                for output in outputs.output(id)?.resources(of: owner.client) ?? [] { wl_surface_send_leave(resource, output) }
            }
            for id in now where !enteredOutputs.contains(id) {
                for output in outputs.output(id)?.resources(of: owner.client) ?? [] { wl_surface_send_enter(resource, output) }
            }
            enteredOutputs = now
            for addon in addons { addon.outputsChanged(self) }
        }
        tellPreferredBuffer(mostlyOn: mostlyOn?.output)
    }

    /// wl_surface 6's preferred_buffer_scale and _transform, each sent when it differs from
    /// what the client was last told: the scale of the outputs the surface is on, rounded up;
    /// the transform of the one it mostly covers. A surface on none (not yet mapped) is told
    /// the first output's, so its first buffer can already be drawn to suit.
    func tellPreferredBuffer(mostlyOn: PlacedOutput? = nil) {
        guard let resource, wl_resource_get_version(resource) >= TACTILE_WL_SURFACE_PREFERRED_SINCE_VERSION else { return }
        let preferred = PreferredBuffer(scale120: preferredScale120,
                                        transform: (mostlyOn ?? outputs.primary)?.description.transform ?? .normal)
        if preferred.scale != toldPreferredBuffer?.scale {
            tactile_wl_surface_send_preferred_buffer_scale(resource, preferred.scale)
        }
        if preferred.transform != toldPreferredBuffer?.transform {
            tactile_wl_surface_send_preferred_buffer_transform(resource, UInt32(preferred.transform.rawValue))
        }
        toldPreferredBuffer = preferred
    }

    /// The scale to render at, in 120ths: the largest of the outputs it is on, else the first
    /// output's (a window about to map), else 1.
    var preferredScale120: UInt32 {
        var largest: UInt32?
        for id in enteredOutputs {
            if let scale = outputs.output(id)?.placed.description.scale120, scale > largest ?? 0 { largest = scale }
        }
        return largest ?? outputs.primary?.description.scale120 ?? 120
    }

    /// Where the window starts in the surface: an add-on's window geometry, else the origin.
    var windowOrigin: Position { addons.lazy.compactMap(\.windowOrigin).first ?? .zero }

    /// Places the surface so that its window (the xdg window geometry, or the whole surface)
    /// starts at `position`, globally.
    func placeWindow(at position: Position) {
        let origin = windowOrigin
        host.updateScene { [unowned self] scene in
            guard let node else { return }
            scene.update(node) { $0.position = Position(x: position.x - origin.x, y: position.y - origin.y) }
        }
        host.afterScene { [weak self] in self?.updateOutputs() }
    }

    /// Puts the surface in the scene under `parent` (looked up as the change is made: it may
    /// be new in the same batch), with the subsurfaces it already has.
    func createNode(_ node: Node, under parent: @escaping () -> NodeID?, at position: StackPosition = .top) {
        host.updateScene { [unowned self] scene in
            guard self.node == nil, let parent = parent(), let created = scene.add(node, to: parent, at: position) else { return }
            self.node = created
            host.bind(self, to: created)
        }
        syncNode()
        for child in children { child.createNode(under: self) }
    }

    func createNode(_ node: Node, under parent: NodeID, at position: StackPosition = .top) {
        createNode(node, under: { parent }, at: position)
    }

    /// Takes the surface (and its subsurfaces with it) out of the scene when it loses its role.
    /// The wl_surface lives on, so it is unmapped first: the pointer leaves it (and enters what
    /// is underneath) and keyboard focus leaves it, as the protocol wants for a live surface.
    func removeNode() {
        guard let node else { return }
        host.updateScene { $0.update(node) { $0.isMapped = false } }
        host.unfocusKeyboard(from: node)
        forgetNodes()
        host.updateScene { $0.remove(node) }
    }

    /// The surface itself is gone: its touches end with up and frame. The pointer, if it was
    /// on it, leaves it first, while its resource still stands: clients (and WLCS) expect a
    /// leave before the next enter, as wlroots and Mir send it.
    private func removeNodeOfDestroyedSurface() {
        guard let node else { return }
        if host.focus.pointer == node { host.updateScene { $0.update(node) { $0.isMapped = false } } }
        forgetNodes()
        host.updateScene { $0.remove(node) }
    }

    /// Clears the node reference of every surface in this node's subtree (this one, its
    /// subsurfaces, popups placed on it): removing a node removes its subtree, and a slot
    /// left mapped would later be reused by another client's surface. A popup whose parent
    /// went is dismissed.
    private func forgetNodes() {
        guard let node else { return }
        var subtree = [node]
        while let id = subtree.popLast() {
            let (below, above) = host.scene.children(of: id)
            subtree += below + above
            guard let surface = host.surface(at: id) else { continue }
            host.bind(nil, to: id)
            surface.node = nil
            if surface !== self { surface.role?.ancestorRemoved() }
        }
    }

    static let requests = RequestTable(wl_surface_interface(
        destroy: destroyResource,
        attach: { _, resource, buffer, x, y in Surface.from(resource)?.attach(buffer, x: x, y: y) },
        damage: { _, resource, x, y, width, height in
            Surface.from(resource)?.pending.damage.add(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)), inBuffer: false)
        },
        frame: { client, resource, id in
            guard let client, let surface = Surface.from(resource) else { return }
            let callback = surface.outputs.spareFrameCallbacks.callback()
            guard callback.bind(client: client, interface: tactile_wl_callback_interface(), version: 1, id: id, implementation: nil) else { return }
            callback.surface = surface
            if surface.pendingFrameCallbacks.capacity == 0 { surface.pendingFrameCallbacks = surface.outputs.spareFrameCallbacks.emptyList() }
            surface.pendingFrameCallbacks.append(callback)
        },
        set_opaque_region: { _, resource, region in
            Surface.from(resource)?.pending.opaqueRegion = region.flatMap { WlRegion.from($0)?.region } ?? .empty
        },
        set_input_region: { _, resource, region in
            Surface.from(resource)?.pending.inputRegion = region.flatMap { WlRegion.from($0)?.region } ?? .infinite
        },
        commit: { _, resource in Surface.from(resource)?.commit() },
        set_buffer_transform: { _, resource, transform in
            guard let surface = Surface.from(resource) else { return }
            guard let transform = OutputTransform(rawValue: transform) else {
                return surface.postError(WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue, "buffer transform \(transform) is not a wl_output.transform")
            }
            surface.pending.bufferTransform = transform
        },
        set_buffer_scale: { _, resource, scale in
            guard let surface = Surface.from(resource) else { return }
            guard scale >= 1 else {
                return surface.postError(WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(scale) is not positive")
            }
            surface.pending.bufferScale = scale
        },
        damage_buffer: { _, resource, x, y, width, height in
            Surface.from(resource)?.pending.damage.add(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)), inBuffer: true)
        },
        offset: { _, resource, x, y in Surface.from(resource)?.pending.offset = Position(x: Int(x), y: Int(y)) }
    ))
}

extension Position {
    /// Offsets accumulate commit after commit at the client's will; kept within int32 so no
    /// sum over a chain of surfaces can overflow.
    func saturatingAdd(_ other: Position) -> Position {
        Position(x: Int(Int32(clamping: x + other.x)), y: Int(Int32(clamping: y + other.y)))
    }
}

/// A role gives a surface its meaning (xdg_toplevel, wl_subsurface, ...), and one surface has
/// at most one role in its life.
protocol SurfaceRole: AnyObject {
    /// What traces and the inspector call the role.
    var roleName: String { get }
    /// Whether the role lets the surface be shown once it has a buffer.
    var isMapped: Bool { get }
    /// Whether the surface's commits wait for its parent's (a synchronized subsurface).
    var waitsForParent: Bool { get }
    /// After the surface applied its pending state and its scene node shows it.
    func committed(surface: Surface, hadBuffer: Bool)
    func surfaceDestroyed()
    /// A surface this one hangs under left the scene, taking this one's node with it.
    func ancestorRemoved()
}

extension SurfaceRole {
    var waitsForParent: Bool { false }
    func ancestorRemoved() {}
}
