import CWaylandServer
import Responder

/// Outputs come and go as backends say: the scene's root spans their layout, windows on a
/// removed output move to the first one left, and windows that fill their output follow its size.
extension WaylandServer {
    public func addOutput(_ description: OutputDescription, presenter: any OutputPresenter) -> OutputID {
        let output = parts.outputs.add(description, presenter: presenter, display: display)
        logger.info("output \(description.name): \(description.pixelSize.width)x\(description.pixelSize.height) at \(output.placed.rect.x),\(output.placed.rect.y), scale \(description.scale)")
        layoutChanged()
        return output.id
    }

    public func removeOutput(_ id: OutputID) {
        guard let removed = parts.outputs.remove(id) else { return }
        parts.screencopy.outputRemoved(removed)
        // Its frame in flight will never be shown: the callbacks it took wait for another.
        parts.outputs.frameCallbacks += removed.screen.inFlight
        removed.screen.inFlight.removeAll()
        logger.info("output \(removed.placed.description.name) removed")
        if let target = parts.outputs.primary {
            for (surface, window) in parts.windows.toplevelWindows() where removed.placed.rect.contains(window.point) {
                let offset = Position(x: window.x - removed.placed.rect.x, y: window.y - removed.placed.rect.y)
                let clamped = Position(x: min(max(offset.x, 0), max(target.rect.width - 1, 0)), y: min(max(offset.y, 0), max(target.rect.height - 1, 0)))
                surface.placeWindow(at: Position(x: target.rect.x + clamped.x, y: target.rect.y + clamped.y))
            }
        }
        layoutChanged()
    }

    public func updateOutput(_ id: OutputID, _ description: OutputDescription) {
        guard let output = parts.outputs.live.first(where: { $0.id == id }) else { return }
        let others = parts.outputs.live.prefix { $0.id != id }
        output.update(parts.outputs.place(description, id: id, rightOf: Array(others)))
        logger.info("output \(description.name) now \(description.pixelSize.width)x\(description.pixelSize.height) at \(output.placed.rect.x),\(output.placed.rect.y), scale \(description.scale)")
        layoutChanged()
    }

    public func outputPresented(_ output: OutputID, at time: Instant) {
        parts.outputs.presented(output, at: time)
        // What changed while the frame was in flight waited for it.
        parts.composition.schedule()
    }

    public var outputLayout: [PlacedOutput] { parts.outputs.layout }

    /// The root spans the layout; the parts hear of it (layer surfaces are arranged again,
    /// windows that fill their output are told its new size, xdg-output describes it, every
    /// output is repainted); every mapped surface enters and leaves outputs as they now lie.
    private func layoutChanged() {
        let extent = parts.outputs.extent
        updateScene { [root = router.scene.root] in $0.update(root) { $0.size = extent } }
        for part in parts.all { part.layoutChanged() }
        for surface in surfaces.all { surface.updateOutputs() }
    }
}

extension Position {
    /// The point at this pixel position, for `Rect.contains`.
    var point: Point { Point(x: Double(x), y: Double(y)) }
}
