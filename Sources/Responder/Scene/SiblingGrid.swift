/// A uniform grid over one stacking list of a node's children, so the hit test looks only at
/// the children whose boxes cover the cell of the point, not at every sibling.
///
/// Each cell lists the children overlapping it, topmost first; a child too large to list
/// cell by cell (or with an infinite box, from a hook) goes to a "wide" list, which every
/// query merges in by stacking order. A child whose box is empty cannot be hit and is left
/// out. Rebuilt whenever the parent's bounds are recomputed, which any change below it causes.
///
/// Plain data: the cells and entries live in the scene-wide `GridStore`, so the walk reads
/// them without reference counting.
struct SiblingGrid {
    private var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0, cellWidth = 1.0, cellHeight = 1.0
    private var cols = 0, rows = 0
    /// Where this grid's words start in the store, and how many it may use there.
    var base = 0, capacity = 0
    /// Word layout from `base`: `cellStart` (cols * rows + 1 offsets), then the entries of
    /// each cell, then the wide list. An entry is `ordinal << 32 | slot`, the ordinal counting
    /// up the stack, so a larger entry is a higher child.
    private var wideStart = 0, wideEnd = 0

    /// Lists with fewer children are scanned; a grid would not pay for itself.
    static let minimumChildren = 16

    /// `children` topmost first, each with its subtree box in the parent's coordinates.
    /// Returns the grid (with `base` 0) and its words.
    static func build(children: [(slot: Int32, box: Box)]) -> (SiblingGrid, [Int64]) {
        var grid = SiblingGrid()
        var extent = Box.empty
        var listed = 0
        for (_, box) in children where isListable(box) {
            extent = extent.union(box)
            listed += 1
        }
        if listed > 0 { grid.layOut(over: extent, cellCount: listed) }
        let cellCount = grid.cols * grid.rows
        let maxCellsPerChild = max(16, cellCount / 8)
        var counts = [Int64](repeating: 0, count: cellCount + 1)
        var placed: [(entry: Int64, cells: CellRange)] = []
        var wide: [Int64] = []
        for (k, (slot, box)) in children.enumerated() where !box.isEmpty {
            let entry = Int64(children.count - 1 - k) << 32 | Int64(slot)
            guard isListable(box), case let cells = grid.cellRange(of: box), cells.count <= maxCellsPerChild else {
                wide.append(entry)
                continue
            }
            placed.append((entry, cells))
            grid.forEachCell(cells) { counts[$0 + 1] += 1 }
        }
        for k in 0..<cellCount { counts[k + 1] += counts[k] }
        // Entries start right after the offsets; make the offsets absolute within the words.
        let entriesStart = Int64(cellCount + 1)
        var words = counts.map { $0 + entriesStart }
        words += [Int64](repeating: 0, count: Int(counts[cellCount]))
        var fill = words
        for (entry, cells) in placed {
            grid.forEachCell(cells) { cell in
                words[Int(fill[cell])] = entry
                fill[cell] += 1
            }
        }
        grid.wideStart = words.count
        words += wide
        grid.wideEnd = words.count
        grid.capacity = words.count
        return (grid, words)
    }

    /// Calls `visit` with the slot of each child that may contain `p`, topmost first, until it
    /// returns a result.
    @inline(__always)
    func firstHit<R>(at p: Point, in store: UnsafeBufferPointer<Int64>, _ visit: (Int32) -> R?) -> R? {
        var e = 0, eEnd = 0
        if let cell = cell(at: p) {
            e = base + Int(store[base + cell])
            eEnd = base + Int(store[base + cell + 1])
        }
        var w = base + wideStart
        let wEnd = base + wideEnd
        while e < eEnd || w < wEnd {
            let next: Int64
            if w == wEnd || (e < eEnd && store[e] > store[w]) {
                next = store[e]
                e += 1
            } else {
                next = store[w]
                w += 1
            }
            if let hit = visit(Int32(truncatingIfNeeded: next)) { return hit }
        }
        return nil
    }

    private static func isListable(_ box: Box) -> Bool {
        !box.isEmpty && box.minX.isFinite && box.minY.isFinite && box.maxX.isFinite && box.maxY.isFinite
    }

    /// About one cell per child, shaped like the area they cover.
    private mutating func layOut(over extent: Box, cellCount: Int) {
        let w = extent.maxX - extent.minX, h = extent.maxY - extent.minY
        cols = 1
        while cols < cellCount, Double(cols * cols) * h < Double(cellCount) * w { cols += 1 }
        rows = max(1, (cellCount + cols - 1) / cols)
        (minX, minY, maxX, maxY) = (extent.minX, extent.minY, extent.maxX, extent.maxY)
        cellWidth = w / Double(cols)
        cellHeight = h / Double(rows)
    }

    /// Column and row of a coordinate; clamped so that rounding at the far edge stays inside.
    /// Monotonic, so a point inside a box always falls in one of the box's cells.
    @inline(__always)
    private func column(_ x: Double) -> Int { min(cols - 1, Int((x - minX) / cellWidth)) }
    @inline(__always)
    private func row(_ y: Double) -> Int { min(rows - 1, Int((y - minY) / cellHeight)) }

    @inline(__always)
    private func cell(at p: Point) -> Int? {
        guard cols > 0, minX <= p.x, p.x < maxX, minY <= p.y, p.y < maxY else { return nil }
        return row(p.y) * cols + column(p.x)
    }

    private struct CellRange {
        let x0: Int, y0: Int, x1: Int, y1: Int
        var count: Int { (x1 - x0 + 1) * (y1 - y0 + 1) }
    }

    private func cellRange(of box: Box) -> CellRange {
        CellRange(x0: column(box.minX), y0: row(box.minY), x1: column(box.maxX), y1: row(box.maxY))
    }

    private func forEachCell(_ r: CellRange, _ body: (Int) -> Void) {
        for y in r.y0...r.y1 {
            for x in r.x0...r.x1 { body(y * cols + x) }
        }
    }
}

/// Every grid of a scene: plain headers, and one word array holding all their cells.
///
/// A rebuilt grid that still fits reuses its words in place; one that grew moves to the end,
/// and the store compacts itself once more than half of it is left behind.
struct GridStore {
    var grids: [SiblingGrid] = []
    var words: [Int64] = []
    private var freeGrids: [Int32] = []
    private var abandoned = 0

    /// Rebuilds, creates or frees (for short lists) the grid `index`; returns its new index.
    mutating func store(_ index: Int32, for children: [(slot: Int32, box: Box)]) -> Int32 {
        guard children.count >= SiblingGrid.minimumChildren else { return release(index) }
        var (grid, built) = SiblingGrid.build(children: children)
        if index >= 0, grids[Int(index)].capacity >= built.count {
            grid.base = grids[Int(index)].base
            grid.capacity = grids[Int(index)].capacity
            words.replaceSubrange(grid.base..<grid.base + built.count, with: built)
            grids[Int(index)] = grid
            return index
        }
        let slot = index >= 0 ? index : (freeGrids.popLast() ?? append())
        if index >= 0 { abandoned += grids[Int(index)].capacity }
        grid.base = words.count
        words += built
        grids[Int(slot)] = grid
        if abandoned > 4096, abandoned * 2 > words.count { compact() }
        return slot
    }

    /// Frees a grid (if any) for reuse; returns -1, the index of "no grid".
    mutating func release(_ index: Int32) -> Int32 {
        if index >= 0 {
            abandoned += grids[Int(index)].capacity
            grids[Int(index)] = SiblingGrid()
            freeGrids.append(index)
        }
        return -1
    }

    private mutating func append() -> Int32 {
        grids.append(SiblingGrid())
        return Int32(grids.count - 1)
    }

    private mutating func compact() {
        var packed: [Int64] = []
        packed.reserveCapacity(words.count - abandoned)
        for k in grids.indices where grids[k].capacity > 0 {
            let old = grids[k].base
            grids[k].base = packed.count
            packed += words[old..<old + grids[k].capacity]
        }
        words = packed
        abandoned = 0
    }
}
