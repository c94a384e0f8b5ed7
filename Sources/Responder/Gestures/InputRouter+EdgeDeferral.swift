/// Deferring system edge gestures (DESIGN.md §1.3), as iOS defers screen edges and Android
/// excludes rectangles: a touch that starts where the touched surface deferred an edge
/// gesture is not offered to that edge's recognizers, so the client keeps it.
///
/// The limit is per client and per edge: the client's deferred rectangles for an edge, from
/// all its mapped surfaces, are projected onto that edge and honoured in order along it
/// (top to bottom, left to right) until `edgeDeferralLimit` pixels are covered; the rest of
/// the edge keeps the system gesture whatever the client asks.
extension InputRouter {
    func edgeGestureIsDeferred(at global: Point, _ edge: Edge, by leaf: NodeID, within bounds: Rect) -> Bool {
        guard let node = scene.node(leaf), let client = node.client, let region = node.edgeGestureDeferral[edge],
              let origin = scene.absolutePosition(of: leaf), region.contains(global.relative(to: origin)) else { return false }
        let along = edge == .left || edge == .right ? global.y : global.x
        var remaining = policy.edgeDeferralLimit
        for span in deferredSpans(of: client, along: edge, within: bounds) {
            guard remaining > 0 else { break }
            let honoured = span.lowerBound...(span.lowerBound + min(remaining, span.upperBound - span.lowerBound))
            if honoured.contains(along) { return true }
            remaining -= span.upperBound - span.lowerBound
        }
        return false
    }

    /// The client's deferred extents along `edge`, inside `bounds`, merged and in order.
    private func deferredSpans(of client: ClientID, along edge: Edge, within bounds: Rect) -> [ClosedRange<Double>] {
        var spans: [ClosedRange<Double>] = []
        for id in scene.nodes(of: client) {
            guard let node = scene.node(id), node.isMapped, !node.isHidden, let region = node.edgeGestureDeferral[edge],
                  let origin = scene.absolutePosition(of: id) else { continue }
            for rect in region.rects {
                let global = Rect(x: rect.x + origin.x, y: rect.y + origin.y, width: rect.width, height: rect.height).intersection(bounds)
                guard !global.isEmpty else { continue }
                spans.append(edge == .left || edge == .right
                    ? Double(global.y)...Double(global.maxY) : Double(global.x)...Double(global.maxX))
            }
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Double>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
