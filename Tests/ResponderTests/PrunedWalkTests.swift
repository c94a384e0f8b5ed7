import Responder
import Testing

/// The pruned walk (cached bounds, sibling grids) must answer exactly as the plain walk of
/// DESIGN.md §1.1 does. The plain walk is written here again from the rules, over the public
/// API, and both are run on random scenes that keep changing.
@Suite struct PrunedWalkTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func matchesTheUnprunedWalkOnChangingRandomScenes(seed: UInt64) {
        var rng = TestRandom(seed: seed)
        var scene = Scene(root: .compositor(size: Size(width: 2000, height: 2000)))
        var nodes: [NodeID] = []
        for _ in 0..<300 { grow(&scene, &nodes, &rng) }
        for _ in 0..<20 {
            for _ in 0..<400 {
                let point = p(Double(rng.below(9000)) / 4 - 125, Double(rng.below(9000)) / 4 - 125)
                let expected = referenceHit(scene, scene.root, point)
                let actual = scene.hitTest(at: point)
                #expect(actual?.node == expected?.0, "at \(point)")
                #expect(actual?.local == expected?.1, "at \(point)")
            }
            for _ in 0..<15 { mutate(&scene, &nodes, &rng) }
        }
    }

    private func referenceHit(_ scene: Scene, _ id: NodeID, _ point: Point) -> (NodeID, Point)? {
        let node = scene.node(id)!
        guard node.isMapped, !node.isHidden, node.acceptsInput, node.alpha >= 0.01 else { return nil }
        switch node.hitTestOverride?(point) ?? .walk {
        case .capture: return (id, point)
        case .ignore: return nil
        case .walk: break
        }
        let frame = Rect(size: node.size)
        if node.clipsToBounds, !frame.contains(point) { return nil }
        let (below, above) = scene.children(of: id)
        for child in above.reversed() {
            if let hit = referenceHit(scene, child, point.relative(to: scene.node(child)!.position)) { return hit }
        }
        let inside = node.pointInsideOverride?(point) ?? (frame.contains(point) && node.inputRegion.contains(point))
        if inside { return (id, point) }
        for child in below.reversed() {
            if let hit = referenceHit(scene, child, point.relative(to: scene.node(child)!.position)) { return hit }
        }
        return nil
    }

    private func grow(_ scene: inout Scene, _ nodes: inout [NodeID], _ rng: inout TestRandom) {
        let parent = nodes.isEmpty || rng.below(3) == 0 ? scene.root : nodes[rng.below(nodes.count)]
        let isContainer = rng.below(8) == 0
        var node: Node = isContainer
            ? .compositor(position: randomPosition(&rng), size: randomSize(&rng), inputRegion: rng.below(2) == 0 ? .empty : .infinite)
            : .surface(of: ClientID(UInt64(rng.below(4))), position: randomPosition(&rng), size: randomSize(&rng))
        node.clipsToBounds = isContainer && rng.below(2) == 0
        randomize(&node, &rng)
        let siblings = scene.children(of: parent)
        let position: StackPosition = switch rng.below(4) {
        case 0: .bottom
        case 1: .below(parent)
        case 2: (siblings.above + siblings.below).randomElement(using: &rng).map { .above($0) } ?? .top
        default: .top
        }
        if let id = scene.add(node, to: parent, at: position) { nodes.append(id) }
    }

    private func mutate(_ scene: inout Scene, _ nodes: inout [NodeID], _ rng: inout TestRandom) {
        nodes.removeAll { !scene.contains($0) }
        guard let target = nodes.randomElement(using: &rng) else { return }
        switch rng.below(6) {
        case 0: scene.remove(target)
        case 1: scene.update(target) { randomize(&$0, &rng) }
        case 2: scene.update(target) { $0.position = randomPosition(&rng) }
        case 3: scene.restack(target, to: rng.below(2) == 0 ? .top : .below(scene.parent(of: target)!))
        default: grow(&scene, &nodes, &rng)
        }
    }

    private func randomize(_ node: inout Node, _ rng: inout TestRandom) {
        node.isMapped = rng.below(10) != 0
        node.isHidden = rng.below(20) == 0
        node.acceptsInput = rng.below(20) != 0
        node.alpha = rng.below(20) == 0 ? 0.005 : 1
        node.hitTestOverride = nil
        node.pointInsideOverride = nil
        switch rng.below(12) {
        case 0: node.hitTestOverride = { $0.x < 10 ? .capture : .walk }
        case 1: node.hitTestOverride = { $0.y < 0 ? .ignore : .walk }
        case 2: node.pointInsideOverride = { $0.x > -30 && $0.x < 30 && $0.y > -30 && $0.y < 30 }
        default: break
        }
        guard node.client != nil else { return }
        switch rng.below(5) {
        case 0: node.inputRegion = .empty
        case 1: node.inputRegion = Region(Rect(x: 10, y: 10, width: node.size.width / 2, height: node.size.height / 2))
        case 2:
            var region = Region.infinite
            region.subtract(Rect(x: node.size.width / 4, y: node.size.height / 4, width: node.size.width / 2, height: 20))
            node.inputRegion = region
        default: node.inputRegion = .infinite
        }
    }

    private func randomPosition(_ rng: inout TestRandom) -> Position {
        Position(x: rng.below(1200) - 200, y: rng.below(1200) - 200)
    }

    private func randomSize(_ rng: inout TestRandom) -> Size {
        Size(width: rng.below(400), height: rng.below(400))
    }
}

/// xorshift64*: a reproducible generator for test scenes.
struct TestRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
