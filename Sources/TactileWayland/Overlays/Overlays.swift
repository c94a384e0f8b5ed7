import Responder
import TactileRender

/// The compositor's own drawings over everything (`Overlay`), as one part: composition
/// draws what `items` gives after the scene, above the session lock and below nothing; a
/// modal overlay gets a compositor node that catches every point, in a layer node kept over
/// every other (`Windows.overlayLayer`), so the scene's hit test, the pointer and the
/// inspector all find it first; and while one shows, the seat has this part as a grab that
/// gives each touch coming down on its node to it, and to nothing else.
///
///     show(overlay) ─▶ a node over the scene (modal) ─▶ touches down there: overlay.touch
///                  └▶ composition: takeDamage, items(on:) after the scene's own
final class Overlays: ServerPart, InputGrab {
    private unowned(unsafe) let context: any PartContext
    private let windows: Windows
    private let outputs: Outputs
    private let grabs: InputGrabs
    private let repaint: Signal<Void>
    /// Shown, bottom first, each with its node when modal.
    private var shown: [(overlay: any Overlay, node: NodeID?)] = []
    /// Touches that came down on a modal overlay, and whose it is: each of its events goes
    /// to it, even after it hides, until the finger lifts.
    private var taken: [Int32: any Overlay] = [:]
    /// Global rectangles of overlays hidden since the last repaint.
    private var leftDamage: [Rect] = []
    /// The countdowns under fingers (the accommodations' holds, the secondary click).
    let rings = TouchRings()

    init(context: any PartContext, windows: Windows, outputs: Outputs, grabs: InputGrabs, repaint: Signal<Void>) {
        self.context = context
        self.windows = windows
        self.outputs = outputs
        self.grabs = grabs
        self.repaint = repaint
        shown = [(rings, nil)]
    }

    var showsModal: Bool { shown.contains { $0.overlay.isModal } }

    func isShown(_ overlay: any Overlay) -> Bool { shown.contains { $0.overlay === overlay } }

    /// Shows `overlay` over every other; a modal one takes the touches that come down from
    /// now on.
    func show(_ overlay: any Overlay) {
        guard !isShown(overlay) else { return changed() }
        shown.append((overlay, nil))
        if overlay.isModal {
            // Shown again as it was last, it has no change of its own to damage.
            leftDamage += outputs.layout.map(\.rect)
            let extent = outputs.extent
            // The change may wait for a commit's others (a scene batch): the node is the
            // overlay's once made, if it still shows then.
            context.updateScene { [unowned self] scene in
                guard let index = shown.firstIndex(where: { $0.overlay === overlay }) else { return }
                let layer = windows.overlayLayer ?? scene.add(.compositor(), to: scene.root, at: .top)
                windows.overlayLayer = layer
                var catching = Node.compositor(size: extent, inputRegion: .infinite)
                // Every point of the layout and beyond: nothing under it is hit.
                catching.pointInsideOverride = { _ in true }
                shown[index].node = layer.flatMap { scene.add(catching, to: $0, at: .top) }
            }
            grabs.begin(self)
        }
        changed()
    }

    /// Hides `overlay`; touches it took stay its until they lift.
    func hide(_ overlay: any Overlay) {
        guard let index = shown.firstIndex(where: { $0.overlay === overlay }) else { return }
        let (_, node) = shown.remove(at: index)
        leftDamage += outputs.layout.map(\.rect)
        if let node { context.updateScene { $0.remove(node) } }
        if taken.isEmpty, !showsModal { grabs.end(self) }
        repaint.send(())
    }

    /// An overlay's picture changed: composition repaints what it says.
    func changed() { repaint.send(()) }

    /// Every shown overlay's damage, for the next repaint.
    func takeDamage() -> [Rect] {
        var damage: [Rect] = []
        swap(&damage, &leftDamage)
        for (overlay, _) in shown {
            let more = overlay.takeDamage { outputs.layout }
            if !more.isEmpty { damage += more }
        }
        return damage
    }

    /// What the overlays draw over `output`, bottom first.
    func items(on output: Output, at now: Instant) -> [DrawItem] {
        shown.flatMap { $0.overlay.items(on: output, at: now) }
    }

    /// The layout changed: the modal nodes span it.
    func layoutChanged() {
        let extent = outputs.extent
        let nodes = shown.compactMap(\.node)
        guard !nodes.isEmpty else { return }
        context.updateScene { scene in for node in nodes { scene.update(node) { $0.size = extent } } }
        changed()
    }

    // MARK: InputGrab

    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        switch event {
        case .touchDown(let id, let global, _):
            guard let node = context.nodeHit(at: global), let overlay = shown.last(where: { $0.node == node })?.overlay else { return event }
            taken[id] = overlay
            overlay.touch(event)
            return nil
        case .touchMotion(let id, _, _):
            guard let overlay = taken[id] else { return event }
            overlay.touch(event)
            return nil
        case .touchUp(let id, _), .touchCancel(let id, _):
            guard let overlay = taken.removeValue(forKey: id) else { return event }
            overlay.touch(event)
            if taken.isEmpty, !showsModal { grabs.end(self) }
            return nil
        default:
            // Frames go on: the router sends one only to clients that had touches in it.
            return event
        }
    }
}
