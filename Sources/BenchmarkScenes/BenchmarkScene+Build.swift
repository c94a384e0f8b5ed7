import Responder

extension BenchmarkScene {
    /// The scene in the core's tree, and each node's specification id by `NodeID.slot`.
    ///
    /// Rects are client surfaces with their whole rect as input region; trees and the root are
    /// compositor nodes that are never hit themselves, as the specification has them.
    public func build(seed: UInt64 = 1) -> (scene: Scene, specID: [Int]) {
        let items = items(seed: seed)
        var scene = Scene(root: .compositor(size: Size(width: Self.width, height: Self.height)))
        var nodes = [scene.root]
        var specID = [0]
        for item in items.dropFirst() {
            let position = Position(x: item.x, y: item.y)
            let size = Size(width: item.width, height: item.height)
            let node: Node = item.kind == .rect
                ? .surface(of: ClientID(UInt64(item.id)), position: position, size: size)
                : .compositor(position: position, size: size)
            let id = scene.add(node, to: nodes[item.parent])!
            nodes.append(id)
            if specID.count <= id.slot { specID += Array(repeating: -1, count: id.slot + 1 - specID.count) }
            specID[id.slot] = item.id
        }
        return (scene, specID)
    }
}

/// The query points of SCENES.md: a quarter-pixel grid over the area, the same sequence
/// whatever the number of queries.
public struct QueryGenerator: IteratorProtocol, Sendable {
    private var rng: SplitMix64

    public init(seed: UInt64 = 1) {
        rng = SplitMix64(state: seed ^ 0x9E6C_63D0_676A_9A99)
    }

    public mutating func next() -> Point? {
        let qx = rng.draw(BenchmarkScene.width * 4)
        let qy = rng.draw(BenchmarkScene.height * 4)
        return Point(x: Double(qx) / 4, y: Double(qy) / 4)
    }
}

/// The checksum of SCENES.md: FNV-1a-style folding of each answer's id + 1 (a miss adds 0).
public struct HitChecksum: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    public mutating func fold(_ id: Int) {
        value = (value ^ UInt64(UInt32(truncatingIfNeeded: id + 1))) &* 0x100_0000_01b3
    }
}

extension BenchmarkScene {
    /// Runs `count` queries through the core's hit test and folds the answers.
    public func runQueries(on scene: inout Scene, specID: [Int], count: Int) -> UInt64 {
        var queries = QueryGenerator()
        var sum = HitChecksum()
        for _ in 0..<count {
            let hit = scene.hitTest(at: queries.next()!)
            sum.fold(hit.map { specID[$0.node.slot] } ?? -1)
        }
        return sum.value
    }
}
