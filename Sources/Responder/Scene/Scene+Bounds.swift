extension Scene {
    /// Marks the boxes of `index` and its ancestors stale. Stops at the first stale ancestor:
    /// a stale node's ancestors are always stale too. The node itself may already be stale
    /// without its ancestors being so (a node just added starts stale), so it does not stop there.
    mutating func invalidateBounds(from index: Int32) {
        guard index >= 0 else { return }
        cold[Int(index)].boundsAreValid = false
        var i = hot[Int(index)].parent
        while i >= 0, cold[Int(i)].boundsAreValid {
            cold[Int(i)].boundsAreValid = false
            i = hot[Int(i)].parent
        }
    }

    /// Recomputes the stale boxes (and the grids of their children); visits only stale nodes
    /// and their direct children.
    mutating func refreshBounds() {
        refreshBounds(of: root.index)
    }

    private mutating func refreshBounds(of index: Int32) {
        let i = Int(index)
        guard !cold[i].boundsAreValid else { return }
        cold[i].boundsAreValid = true
        guard !hot[i].flags.contains(.skipped) else {
            hot[i].bounds = .empty
            return
        }
        let above = childBoxes(fromTop: hot[i].topAbove)
        let below = childBoxes(fromTop: hot[i].topBelow)
        var box = hot[i].flags.contains(.insideHook) ? .infinite : hot[i].inputBox
        for (_, child) in above + below { box = box.union(child) }
        if hot[i].flags.contains(.clips) {
            box = box.intersection(Box(minX: 0, minY: 0, maxX: hot[i].width, maxY: hot[i].height))
        }
        hot[i].bounds = hot[i].flags.contains(.hitHook) ? .infinite : box
        hot[i].aboveGrid = grids.store(hot[i].aboveGrid, for: above)
        hot[i].belowGrid = grids.store(hot[i].belowGrid, for: below)
    }

    /// Each child's subtree box in this node's coordinates, topmost first, refreshed first.
    private mutating func childBoxes(fromTop top: Int32) -> [(slot: Int32, box: Box)] {
        var out: [(slot: Int32, box: Box)] = []
        var c = top
        while c >= 0 {
            refreshBounds(of: c)
            let h = hot[Int(c)]
            out.append((c, h.bounds.offset(x: h.x, y: h.y)))
            c = h.lower
        }
        return out
    }
}
