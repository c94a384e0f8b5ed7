import CWaylandServer
import Responder

/// The server as the inspector reads it (`Inspectable`), and the names traces give what they
/// speak of.
extension WaylandServer: Inspectable {
    func explain(_ point: Point) -> [String] {
        let (explanation, owner) = router.explainTouch(at: point)
        let naming = self.naming
        return TraceFormatter.lines(explaining: explanation, at: point, subject: "point", naming: naming)
            + [TraceFormatter.line(owner, subject: "point", naming: naming)]
    }

    func healthDescription() -> [String] {
        startPinging()
        let problems = healthProblems
        return problems.isEmpty ? ["ok"] : problems.map(\.description)
    }

    func watch(_ report: InspectorReport) {
        parts.tracer.watch(report)
    }

    func record(_ report: InspectorReport) {
        parts.recorder.record(report)
    }

    /// The outputs, the clients with what they hold, then the scene from the top of the stack
    /// down, a node per line and indented by depth: its place, size, input region and state.
    func sceneDescription() -> [String] {
        let naming = self.naming
        var lines = parts.outputs.live.map { live in
            let output = live.placed
            return "output \(output.description.name) at=\(output.rect.x),\(output.rect.y) size=\(output.rect.width)x\(output.rect.height) scale=\(output.description.scaleText)"
                + (live.poweredOn ? "" : " power=off")
        }
        // What each client makes the server hold, against `limits`.
        // Surfaces too: a tool that works without a window (wl-copy) shows none.
        let surfaceCounts = Dictionary(grouping: surfaces.all, by: { $0.owner.id }).mapValues(\.count)
        for state in clients.byID.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            lines.append("client \(state.id.rawValue) pid=\(state.pid) \(state.holdings.inspected) surfaces=\(surfaceCounts[state.id] ?? 0) region-rects=\(state.regionRects)")
        }
        // A focus as its surface's resource, as a client's protocol log names it.
        lines += parts.transientSeats.inspected { node in
            node.flatMap { surface(at: $0)?.resource }.map { "wl_surface@\(wl_resource_get_id($0))" } ?? "none"
        }
        let xdgSurfaces = surfaces.all.compactMap { $0.addon(XdgSurface.self) }
        let configuring = xdgSurfaces.filter { $0.unackedSerial != nil }.count
        lines.append("pending frame=\(parts.composition.framePending ? "yes" : "no") configures=\(configuring)")
        let scene = router.scene
        let focusedWindow = router.keyboardFocus.map { scene.toplevel(containing: $0) ?? $0 }
        func visit(_ id: NodeID, depth: Int, stacking: String) {
            guard let node = scene.node(id), let frame = scene.absoluteFrame(of: id) else { return }
            var parts = [String(repeating: "  ", count: depth) + "node \(naming.name(id))", "at=\(frame.x),\(frame.y)", "size=\(frame.width)x\(frame.height)",
                         "input=\(node.inputRegion.inspected)"]
            if !stacking.isEmpty { parts.append(stacking) }
            if !node.isMapped { parts.append("unmapped") }
            if node.isHidden { parts.append("hidden") }
            if let surface = surfaces.surface(at: id) {
                parts.append("frames=\(surface.presentedFrames)")
                if let xdg = surface.addon(XdgSurface.self), xdg.roleObject is XdgToplevel {
                    // The window as its user sees it: the surface less its shadows.
                    let geometry = xdg.geometry ?? Rect(size: frame.size)
                    parts.append("window=\(frame.x + geometry.x),\(frame.y + geometry.y),\(geometry.width)x\(geometry.height)")
                    if xdg.unackedSerial != nil { parts.append("configure=pending") }
                }
                if id == focusedWindow { parts.append("focused") }
                if surface.current[ContentType.self] != .none { parts.append("content=\(surface.current[ContentType.self].name)") }
                if surface.current[TearingHint.self].async { parts.append("tearing=async") }
                if let icon = surface.addon(XdgSurface.self)?.toplevel?.icon { parts.append("icon=\(icon.inspected)") }
                if let tag = surface.addon(XdgSurface.self)?.toplevel?.tag { parts.append("tag=\"\(tag)\"") }
                if surface.current[AlphaMultiplier.self].factor != .max { parts.append("alpha=\(Int((surface.current.opacity * 100).rounded()))%") }
            }
            if !node.acceptsInput { parts.append("input-disabled") }
            if self.parts.windows.wantingAttention.contains(id) { parts.append("attention") }
            lines.append(parts.joined(separator: " "))
            let (below, above) = scene.children(of: id)
            for child in above.reversed() { visit(child, depth: depth + 1, stacking: "above-parent") }
            for child in below.reversed() { visit(child, depth: depth + 1, stacking: "below-parent") }
        }
        visit(scene.root, depth: 0, stacking: "")
        return lines
    }

    /// Names for trace lines and the inspector, read from the scene as it is now.
    var naming: ServerNaming {
        ServerNaming(context: self, clients: clients, surfaces: surfaces, gestures: parts.gestures, outputs: parts.outputs)
    }
}
