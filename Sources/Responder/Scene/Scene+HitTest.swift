/// The answer to a hit test: the first responder, where the point is in its coordinates,
/// and the chain of responders above it.
public struct HitTestResult {
    /// The node hit (the leaf of the path).
    public let node: NodeID
    /// The point in the node's local coordinates.
    public let local: Point
    /// The node, then each ancestor up to the root.
    public let chain: ResponderChain
}

/// Receives each verdict of a hit test; what lets the same walk run silent or explained.
protocol HitTestTracer {
    /// False for the ordinary hit test: the walk then neither computes verdicts nor reports
    /// them. An explanation also wants every sibling named, so it scans instead of using grids.
    static var isRecording: Bool { get }
    /// True for an explanation: the walk goes on past the first hit, so the tracer can name
    /// the surfaces the winner covers. The walk then returns nothing; the tracer has the hit.
    static var walksPastHit: Bool { get }
    mutating func record(_ node: Int32, _ local: Point, _ verdict: HitVerdict)
}

/// The tracer of ordinary hit tests: specialised away to nothing.
struct SilentTracer: HitTestTracer {
    static var isRecording: Bool { false }
    static var walksPastHit: Bool { false }
    @inline(__always) mutating func record(_ node: Int32, _ local: Point, _ verdict: HitVerdict) {}
}

extension Scene {
    /// The topmost hittable node at `global` (root coordinates), walking in reverse paint
    /// order: children above a node, then the node itself, then children below it, each list
    /// topmost first. Mutating only to bring cached bounds up to date.
    public mutating func hitTest(at global: Point) -> HitTestResult? {
        var tracer = SilentTracer()
        return hitTest(at: global, tracer: &tracer)
    }

    mutating func hitTest<T: HitTestTracer>(at global: Point, tracer: inout T) -> HitTestResult? {
        refreshBounds()
        guard global.isFinite else { return nil }
        let found = hot.withUnsafeBufferPointer { hot in
            cold.withUnsafeBufferPointer { cold in
                grids.grids.withUnsafeBufferPointer { grids in
                    self.grids.words.withUnsafeBufferPointer { words in
                        HitWalker(hot: hot, cold: cold, grids: grids, words: words).walk(root.index, global, &tracer)
                    }
                }
            }
        }
        guard let (index, local) = found else { return nil }
        return HitTestResult(node: id(index), local: local, chain: responderChain(from: id(index)))
    }
}

/// One hit test's walk over the scene's arrays, borrowed for the duration.
private struct HitWalker {
    let hot: UnsafeBufferPointer<HotNode>
    let cold: UnsafeBufferPointer<ColdNode>
    let grids: UnsafeBufferPointer<SiblingGrid>
    let words: UnsafeBufferPointer<Int64>

    /// `p` is in the coordinates of node `index`.
    func walk<T: HitTestTracer>(_ index: Int32, _ p: Point, _ tracer: inout T) -> (Int32, Point)? {
        let i = Int(index)
        let flags = hot[i].flags
        if flags.contains(.skipped) {
            if T.isRecording { tracer.record(index, p, cold[i].node.skipReason ?? .hidden) }
            return nil
        }
        if flags.contains(.hitHook), let hook = cold[i].node.hitTestOverride {
            switch hook(p) {
            case .capture:
                tracer.record(index, p, .captured)
                return T.walksPastHit ? nil : (index, p)
            case .ignore:
                tracer.record(index, p, .ignoredByOverride)
                return nil
            case .walk: break
            }
        }
        guard hot[i].bounds.contains(p) else {
            tracer.record(index, p, .pruned)
            return nil
        }
        if flags.contains(.clips), !(0 <= p.x && p.x < hot[i].width && 0 <= p.y && p.y < hot[i].height) {
            tracer.record(index, p, .clipped)
            return nil
        }
        if let hit = walkList(top: hot[i].topAbove, grid: hot[i].aboveGrid, p, &tracer) { return hit }
        if isInside(i, p) {
            tracer.record(index, p, .hit)
            if !T.walksPastHit { return (index, p) }
        } else {
            tracer.record(index, p, .notInside)
        }
        return walkList(top: hot[i].topBelow, grid: hot[i].belowGrid, p, &tracer)
    }

    @inline(__always)
    private func walkList<T: HitTestTracer>(top: Int32, grid: Int32, _ p: Point, _ tracer: inout T) -> (Int32, Point)? {
        if grid >= 0, !T.isRecording {
            return grids[Int(grid)].firstHit(at: p, in: words) { walkChild($0, p, &tracer) }
        }
        var c = top
        while c >= 0 {
            if let hit = walkChild(c, p, &tracer) { return hit }
            c = hot[Int(c)].lower
        }
        return nil
    }

    @inline(__always)
    private func walkChild<T: HitTestTracer>(_ c: Int32, _ p: Point, _ tracer: inout T) -> (Int32, Point)? {
        let h = hot[Int(c)]
        return walk(c, Point(x: p.x - h.x, y: p.y - h.y), &tracer)
    }

    private func isInside(_ i: Int, _ p: Point) -> Bool {
        let flags = hot[i].flags
        if flags.contains(.insideHook), let hook = cold[i].node.pointInsideOverride { return hook(p) }
        guard hot[i].inputBox.contains(p) else { return false }
        return flags.contains(.exactInput) || cold[i].node.inputRegion.contains(p)
    }
}
