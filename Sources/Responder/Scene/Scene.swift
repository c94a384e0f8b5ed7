/// The tree of surfaces and compositor nodes that input is routed through.
///
/// An arena addressed by generation-checked `NodeID`s: a value type with no reference
/// cycles, safe against stale handles. Each node lives in two parallel arrays: `hot`, the
/// plain data the hit test reads (position, cached bounds, flags, sibling links), and `cold`,
/// the attributes and hooks it reads only when a flag says so. The walk therefore touches
/// no reference-counted memory on its common path.
///
/// Pruning: each node caches the box of everything hittable in its subtree; a subtree whose
/// box misses the point is skipped whole. A node with many children also keeps a grid of them
/// (`SiblingGrid`), so only the children near the point are looked at. Both are supersets of
/// the real hit areas, so answers are exactly those of the full walk.
///
/// Mutations only mark boxes stale, up the ancestor chain; the next hit test recomputes the
/// stale ones. A burst of commits costs one recomputation, not one per commit.
public struct Scene {
    var hot: [HotNode]
    var cold: [ColdNode]
    var grids = GridStore()
    var freeSlots: [Int32] = []
    /// The output/layout root, a compositor node that is never removed.
    public let root: NodeID

    public init(root node: Node = .compositor()) {
        hot = [HotNode(parent: -1, generation: 0)]
        cold = [ColdNode(node: node)]
        root = NodeID(index: 0, generation: 0)
        syncHot(0)
    }

    /// Whether `id` names a node that is still in the scene.
    public func contains(_ id: NodeID) -> Bool {
        Int(id.index) < hot.count && cold[Int(id.index)].isLive && hot[Int(id.index)].generation == id.generation
    }

    /// The node's attributes, or nil for a removed node.
    public func node(_ id: NodeID) -> Node? {
        contains(id) ? cold[Int(id.index)].node : nil
    }

    public func parent(of id: NodeID) -> NodeID? {
        guard contains(id) else { return nil }
        let p = hot[Int(id.index)].parent
        return p < 0 ? nil : self.id(p)
    }

    /// Children bottom to top, each list in stacking order.
    public func children(of id: NodeID) -> (below: [NodeID], above: [NodeID]) {
        guard contains(id) else { return ([], []) }
        let h = hot[Int(id.index)]
        return (siblings(fromTop: h.topBelow), siblings(fromTop: h.topAbove))
    }

    /// Children bottom to top as `children(of:)` lists them, walked along the stacking
    /// links: a repaint visits the scene every frame, and this copies nothing.
    public func stacking(of id: NodeID) -> (below: NodeWalk, above: NodeWalk) {
        let h = contains(id) ? hot[Int(id.index)] : nil
        return (NodeWalk(hot: hot, start: h?.bottomBelow ?? -1, link: .higher), NodeWalk(hot: hot, start: h?.bottomAbove ?? -1, link: .higher))
    }

    /// The node's rectangle in global coordinates.
    public func absoluteFrame(of id: NodeID) -> Rect? {
        guard let origin = absolutePosition(of: id) else { return nil }
        return Rect(origin: origin, size: cold[Int(id.index)].node.size)
    }

    /// The node's origin in the root's (global) coordinates.
    public func absolutePosition(of id: NodeID) -> Position? {
        guard contains(id) else { return nil }
        var p = Position.zero
        for ancestor in responderChain(from: id) {
            p = p + cold[Int(ancestor.index)].node.position
        }
        return p
    }

    /// The nearest node, from `id` upward, marked as a toplevel.
    public func toplevel(containing id: NodeID) -> NodeID? {
        responderChain(from: id).first { cold[Int($0.index)].node.isToplevel }
    }

    /// `id` followed by its ancestors up to the root: the node and its responder chain.
    public func responderChain(from id: NodeID) -> ResponderChain {
        NodeWalk(hot: hot, start: contains(id) ? id.index : -1, link: .parent)
    }

    /// Every live node of a client.
    func nodes(of client: ClientID) -> [NodeID] {
        cold.indices.filter { cold[$0].isLive && cold[$0].node.client == client }.map { id(Int32($0)) }
    }

    func id(_ index: Int32) -> NodeID {
        NodeID(index: index, generation: hot[Int(index)].generation)
    }

    /// One stacking list, bottom first: counted down the links from the top, then filled
    /// from the end, so that a repaint walking the scene makes one array per list, not a
    /// growing one and its reversed copy.
    func siblings(fromTop top: Int32) -> [NodeID] {
        var count = 0
        var c = top
        while c >= 0 {
            count += 1
            c = hot[Int(c)].lower
        }
        guard count > 0 else { return [] }
        return [NodeID](unsafeUninitializedCapacity: count) { buffer, initialized in
            var c = top
            for k in stride(from: count - 1, through: 0, by: -1) {
                buffer.initializeElement(at: k, to: id(c))
                c = hot[Int(c)].lower
            }
            initialized = count
        }
    }
}

/// What the hit test reads for one node: plain data only.
struct HotNode {
    /// Here rather than on the cold side so a responder chain needs only this array.
    var generation: UInt32
    var x = 0.0, y = 0.0
    var width = 0.0, height = 0.0
    /// The node's own hittable box: its frame intersected with its input region's extents
    /// (exact when `flags` has `.exactInput`).
    var inputBox = Box.empty
    /// Everything hittable in the subtree, node-local; meaningful only while the cold side
    /// says `boundsAreValid`.
    var bounds = Box.empty
    var flags: HotFlags = []
    var parent: Int32
    /// Each list is doubly linked; `lower`/`higher` are this node's neighbours in its list.
    var topAbove: Int32 = -1, bottomAbove: Int32 = -1
    var topBelow: Int32 = -1, bottomBelow: Int32 = -1
    var lower: Int32 = -1, higher: Int32 = -1
    /// Index into `Scene.grids.grids`, or -1 while the list is short enough to scan.
    var aboveGrid: Int32 = -1, belowGrid: Int32 = -1

    init(parent: Int32, generation: UInt32) {
        self.parent = parent
        self.generation = generation
    }
}

struct HotFlags: OptionSet {
    let rawValue: UInt8
    /// Unmapped, hidden, input off or transparent: the walk skips the subtree.
    static let skipped = HotFlags(rawValue: 1 << 0)
    static let clips = HotFlags(rawValue: 1 << 1)
    static let hitHook = HotFlags(rawValue: 1 << 2)
    static let insideHook = HotFlags(rawValue: 1 << 3)
    /// `inputBox` is the whole input area; otherwise the region must be asked too.
    static let exactInput = HotFlags(rawValue: 1 << 4)
}

/// What the hit test rarely reads: identity, the attributes as the protocol layer set them.
struct ColdNode {
    var isLive = true
    var node: Node
    var boundsAreValid = false
    var isInAboveList = true
    var aboveCount = 0, belowCount = 0

    init(node: Node) { self.node = node }
}

/// Nodes reached from one by following the same link of each: up through parents (a node's
/// responder chain) or up a stacking list (siblings, bottom first). Iterating allocates nothing.
public struct NodeWalk: Sequence {
    enum Link { case parent, higher }

    let hot: [HotNode]
    let start: Int32
    let link: Link

    public struct Iterator: IteratorProtocol {
        let hot: [HotNode]
        var cursor: Int32
        let link: Link

        public mutating func next() -> NodeID? {
            guard cursor >= 0 else { return nil }
            let i = Int(cursor)
            cursor = link == .parent ? hot[i].parent : hot[i].higher
            return NodeID(index: Int32(i), generation: hot[i].generation)
        }
    }

    public func makeIterator() -> Iterator { Iterator(hot: hot, cursor: start, link: link) }
}

/// A node and its ancestors, from the node up to the root.
public typealias ResponderChain = NodeWalk
