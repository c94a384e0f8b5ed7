import Responder

/// Outputs come and go as backends and output managers say. The server keeps the books
/// (`Outputs`) and the scene's root spanning the layout; what each part does about it is in
/// that part's hooks (`ServerPart.outputAdded` and the rest): capture fails its frames,
/// composition hands its frame callbacks on, the window policy moves windows, frame pacing
/// clears barriers.
extension WaylandServer {
    func addOutput(_ description: OutputDescription, presenter: any OutputPresenter) -> OutputID {
        let output = parts.outputs.add(description, presenter: presenter)
        if parts.outputs.live.contains(where: { $0 === output }) {
            logger.info("output \(description.name): \(output.placed.summary)")
            for part in parts.all { part.outputAdded(output) }
        } else {
            logger.info("output \(description.name): disabled by its settings; it stays dark")
        }
        layoutChanged()
        return output.id
    }

    func removeOutput(_ id: OutputID) {
        guard let (removed, wasLive) = parts.outputs.remove(id) else { return }
        if wasLive {
            logger.info("output \(removed.placed.description.name) removed")
            withdrawn(removed)
        } else {
            logger.info("output \(removed.placed.description.name) (disabled) removed")
        }
        layoutChanged()
    }

    func updateOutput(_ id: OutputID, _ description: OutputDescription) {
        guard let output = parts.outputs.update(id, description) else { return }
        logger.info("output \(description.name) now \(output.placed.summary)")
        if parts.outputs.live.contains(where: { $0 === output }) {
            for part in parts.all { part.outputChanged(output) }
        }
        layoutChanged()
    }

    /// An output manager changed outputs' settings (`Outputs.overrides`): outputs are turned
    /// off or on, switched to new modes and placed again, and the layout changes where one did.
    func outputSettingsChanged() {
        let relayout = parts.outputs.relayout()
        for output in relayout.disabled {
            logger.info("output \(output.placed.description.name) disabled: its screen is dark")
            withdrawn(output)
        }
        for output in relayout.changed {
            let enabled = relayout.enabled.contains { $0 === output }
            logger.info("output \(output.placed.description.name) \(enabled ? "enabled:" : "now") \(output.placed.summary)")
            for part in parts.all { enabled ? part.outputAdded(output) : part.outputChanged(output) }
        }
        if !relayout.disabled.isEmpty || !relayout.changed.isEmpty { layoutChanged() }
    }

    func outputPresented(_ id: OutputID, _ frame: PresentedFrame) {
        parts.outputs.presented(id, frame)
        guard let output = parts.outputs.output(id) else { return }
        for part in parts.all { part.framePresented(on: output, frame) }
    }

    /// `removed` left the layout (unplugged or disabled).
    private func withdrawn(_ removed: Output) {
        if parts.outputs.live.isEmpty {
            logger.notice("no output left: Tactile and its clients keep running, and the windows show again when a screen comes")
        }
        for part in parts.all { part.outputWithdrawn(removed) }
    }

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
