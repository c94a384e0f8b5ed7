extension Scene {
    /// Adds `node` as a child of `parent`; nil when the parent or the sibling named in
    /// `position` is not there.
    @discardableResult
    public mutating func add(_ node: Node, to parent: NodeID, at position: StackPosition = .top) -> NodeID? {
        guard contains(parent), isValid(position, under: parent.index) else { return nil }
        let index: Int32
        if let reused = freeSlots.popLast() {
            index = reused
            hot[Int(index)] = HotNode(parent: parent.index, generation: hot[Int(index)].generation &+ 1)
            cold[Int(index)] = ColdNode(node: node)
        } else {
            index = Int32(hot.count)
            hot.append(HotNode(parent: parent.index, generation: 0))
            cold.append(ColdNode(node: node))
        }
        syncHot(index)
        link(index, under: parent.index, at: position)
        invalidateBounds(from: index)
        return self.id(index)
    }

    /// Removes the node and its whole subtree; their IDs stop being `contains`ed at once.
    @discardableResult
    public mutating func remove(_ id: NodeID) -> Bool {
        guard contains(id), id != root else { return false }
        let parent = hot[Int(id.index)].parent
        unlink(id.index)
        invalidateBounds(from: parent)
        free(id.index)
        return true
    }

    /// Moves a node within its parent's children; false when the node or sibling is not there.
    @discardableResult
    public mutating func restack(_ id: NodeID, to position: StackPosition) -> Bool {
        guard contains(id), id != root, position.sibling != id else { return false }
        let parent = hot[Int(id.index)].parent
        guard isValid(position, under: parent) else { return false }
        unlink(id.index)
        link(id.index, under: parent, at: position)
        invalidateBounds(from: parent)
        return true
    }

    /// Moves a node, with its subtree, under another parent, on top of its children; false
    /// when either is not there, the node is the root, or the parent is inside the node's own
    /// subtree (the scene stays a tree).
    @discardableResult
    public mutating func move(_ id: NodeID, under parent: NodeID) -> Bool {
        guard contains(id), contains(parent), id != root, !responderChain(from: parent).contains(id) else { return false }
        let old = hot[Int(id.index)].parent
        unlink(id.index)
        invalidateBounds(from: old)
        link(id.index, under: parent.index, at: .top)
        invalidateBounds(from: id.index)
        return true
    }

    /// Changes a node's attributes; false (and nothing run) for a removed node.
    @discardableResult
    public mutating func update(_ id: NodeID, _ change: (inout Node) -> Void) -> Bool {
        guard contains(id) else { return false }
        change(&cold[Int(id.index)].node)
        syncHot(id.index)
        invalidateBounds(from: id.index)
        return true
    }

    /// Copies what the hit test needs from the attributes into the hot side.
    mutating func syncHot(_ index: Int32) {
        let i = Int(index)
        let node = cold[i].node
        let frame = Rect(size: node.size)
        let input = node.inputRegion.intersectionShape(frame)
        hot[i].x = Double(node.position.x)
        hot[i].y = Double(node.position.y)
        hot[i].width = Double(max(0, node.size.width))
        hot[i].height = Double(max(0, node.size.height))
        hot[i].inputBox = Box(input.extents)
        var flags: HotFlags = []
        if node.skipReason != nil { flags.insert(.skipped) }
        if node.clipsToBounds { flags.insert(.clips) }
        if node.hitTestOverride != nil { flags.insert(.hitHook) }
        if node.pointInsideOverride != nil { flags.insert(.insideHook) }
        if input.rectCount <= 1 { flags.insert(.exactInput) }
        hot[i].flags = flags
    }

    private func isValid(_ position: StackPosition, under parent: Int32) -> Bool {
        guard let sibling = position.sibling else { return true }
        return sibling.index == parent ? contains(sibling) : contains(sibling) && hot[Int(sibling.index)].parent == parent
    }

    private mutating func link(_ index: Int32, under parent: Int32, at position: StackPosition) {
        let p = Int(parent)
        hot[Int(index)].parent = parent
        switch position {
        case .top:
            insert(index, inAbove: true, parent: p, after: hot[p].topAbove)
        case .bottom:
            insert(index, inAbove: false, parent: p, after: -1)
        case .above(let s) where s.index == parent:
            insert(index, inAbove: true, parent: p, after: -1)
        case .below(let s) where s.index == parent:
            insert(index, inAbove: false, parent: p, after: hot[p].topBelow)
        case .above(let s):
            insert(index, inAbove: cold[Int(s.index)].isInAboveList, parent: p, after: s.index)
        case .below(let s):
            insert(index, inAbove: cold[Int(s.index)].isInAboveList, parent: p, after: hot[Int(s.index)].lower)
        }
    }

    /// Inserts into one list just above `lower` (-1: at the bottom).
    private mutating func insert(_ index: Int32, inAbove: Bool, parent p: Int, after lower: Int32) {
        let i = Int(index)
        let higher = lower >= 0 ? hot[Int(lower)].higher : (inAbove ? hot[p].bottomAbove : hot[p].bottomBelow)
        hot[i].lower = lower
        hot[i].higher = higher
        cold[i].isInAboveList = inAbove
        if lower >= 0 { hot[Int(lower)].higher = index } else if inAbove { hot[p].bottomAbove = index } else { hot[p].bottomBelow = index }
        if higher >= 0 { hot[Int(higher)].lower = index } else if inAbove { hot[p].topAbove = index } else { hot[p].topBelow = index }
        if inAbove { cold[p].aboveCount += 1 } else { cold[p].belowCount += 1 }
    }

    private mutating func unlink(_ index: Int32) {
        let i = Int(index), p = Int(hot[i].parent)
        let (lower, higher, inAbove) = (hot[i].lower, hot[i].higher, cold[i].isInAboveList)
        if lower >= 0 { hot[Int(lower)].higher = higher } else if inAbove { hot[p].bottomAbove = higher } else { hot[p].bottomBelow = higher }
        if higher >= 0 { hot[Int(higher)].lower = lower } else if inAbove { hot[p].topAbove = lower } else { hot[p].topBelow = lower }
        if inAbove { cold[p].aboveCount -= 1 } else { cold[p].belowCount -= 1 }
        hot[i].lower = -1
        hot[i].higher = -1
    }

    /// Frees the subtree iteratively: a client may nest surfaces deeply.
    private mutating func free(_ index: Int32) {
        var pending = [index]
        while let i = pending.popLast().map(Int.init) {
            for list in [hot[i].topAbove, hot[i].topBelow] {
                var c = list
                while c >= 0 {
                    pending.append(c)
                    c = hot[Int(c)].lower
                }
            }
            _ = grids.release(hot[i].aboveGrid)
            _ = grids.release(hot[i].belowGrid)
            cold[i].isLive = false
            cold[i].node = .compositor()
            hot[i] = HotNode(parent: -1, generation: hot[i].generation)
            freeSlots.append(Int32(i))
        }
    }
}

extension StackPosition {
    var sibling: NodeID? {
        switch self {
        case .top, .bottom: nil
        case .above(let s), .below(let s): s
        }
    }
}
