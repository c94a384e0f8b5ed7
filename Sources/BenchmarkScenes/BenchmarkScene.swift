import Responder

/// One of the twelve hit-test scenes of the shared benchmark (SCENES.md), rebuilt from its
/// specification so that neither the tests nor the benchmarks need the shared folder.
public struct BenchmarkScene: Sendable, CustomStringConvertible {
    public enum Layout: String, Sendable, CaseIterable {
        case flat, overlap, nested
    }

    /// A node as the specification lists it; `x`, `y` relative to the parent.
    public struct Item: Hashable, Sendable {
        public enum Kind: String, Sendable { case root, tree, rect }
        public let id: Int
        public let parent: Int
        public let kind: Kind
        public let x: Int, y: Int, width: Int, height: Int
    }

    public static let width = 3840
    public static let height = 2160

    public let layout: Layout
    public let leafCount: Int
    /// Queries in a full run (1,000,000, or 200,000 for the largest scenes).
    public let queryCount: Int
    /// The reference checksum over `queryCount` queries.
    public let checksum: UInt64

    public var name: String { "\(layout.rawValue)-\(leafCount)" }
    public var description: String { name }

    /// The table of SCENES.md.
    public static let all: [BenchmarkScene] = [
        .init(layout: .flat, leafCount: 10, queryCount: 1_000_000, checksum: 0x0322_e24f_0aa1_269b),
        .init(layout: .flat, leafCount: 100, queryCount: 1_000_000, checksum: 0x7e50_e572_4a21_1542),
        .init(layout: .flat, leafCount: 1000, queryCount: 1_000_000, checksum: 0x5aed_a4df_d58d_9949),
        .init(layout: .flat, leafCount: 10000, queryCount: 200_000, checksum: 0x341c_800d_961b_17a2),
        .init(layout: .overlap, leafCount: 10, queryCount: 1_000_000, checksum: 0xb50d_f7c6_cd6a_9117),
        .init(layout: .overlap, leafCount: 100, queryCount: 1_000_000, checksum: 0x88bc_cd31_9f6f_9135),
        .init(layout: .overlap, leafCount: 1000, queryCount: 1_000_000, checksum: 0x7d10_085f_ee3f_0809),
        .init(layout: .overlap, leafCount: 10000, queryCount: 200_000, checksum: 0x4607_02a6_287b_ed81),
        .init(layout: .nested, leafCount: 10, queryCount: 1_000_000, checksum: 0xcd3d_3c83_7640_461a),
        .init(layout: .nested, leafCount: 100, queryCount: 1_000_000, checksum: 0x602b_ac34_2b11_07c3),
        .init(layout: .nested, leafCount: 1000, queryCount: 1_000_000, checksum: 0x6556_9b9a_b5a1_ea93),
        .init(layout: .nested, leafCount: 10000, queryCount: 200_000, checksum: 0x78f6_b9c3_77b2_5989),
    ]

    /// The nodes in creation (= stacking) order, root first.
    public func items(seed: UInt64 = 1) -> [Item] {
        var rng = SplitMix64(state: seed)
        var items = [Item(id: 0, parent: -1, kind: .root, x: 0, y: 0, width: Self.width, height: Self.height)]
        switch layout {
        case .flat: Self.flat(leafCount, into: &items)
        case .overlap: Self.overlap(leafCount, &rng, into: &items)
        case .nested: Self.nested(leafCount, &rng, into: &items)
        }
        return items
    }

    private struct Grid {
        let cols: Int, rows: Int, cellWidth: Int, cellHeight: Int

        init(_ count: Int) {
            var c = 1
            while c * c * BenchmarkScene.height < count * BenchmarkScene.width { c += 1 }
            cols = c
            rows = (count + c - 1) / c
            cellWidth = BenchmarkScene.width / c
            cellHeight = BenchmarkScene.height / rows
        }

        func origin(_ i: Int) -> (x: Int, y: Int) { ((i % cols) * cellWidth, (i / cols) * cellHeight) }
    }

    private static func flat(_ n: Int, into items: inout [Item]) {
        let g = Grid(n)
        let mx = max(1, g.cellWidth / 8), my = max(1, g.cellHeight / 8)
        for i in 0..<n {
            let (x, y) = g.origin(i)
            items.append(Item(id: i + 1, parent: 0, kind: .rect, x: x + mx, y: y + my,
                              width: g.cellWidth - 2 * mx, height: g.cellHeight - 2 * my))
        }
    }

    private static func overlap(_ n: Int, _ rng: inout SplitMix64, into items: inout [Item]) {
        let g = Grid(n)
        let cw = g.cellWidth, ch = g.cellHeight
        for i in 0..<n {
            let ox = rng.draw(cw / 2 + 1) - cw / 4
            let oy = rng.draw(ch / 2 + 1) - ch / 4
            let w = cw + cw / 2 + rng.draw(cw / 2 + 1)
            let h = ch + ch / 2 + rng.draw(ch / 2 + 1)
            let (x, y) = g.origin(i)
            items.append(Item(id: i + 1, parent: 0, kind: .rect, x: x + ox, y: y + oy, width: w, height: h))
        }
    }

    private static func nested(_ n: Int, _ rng: inout SplitMix64, into items: inout [Item]) {
        let toplevels = n / 10
        let g = Grid(toplevels)
        for j in 0..<toplevels {
            let ww = min(width, g.cellWidth / 2 + rng.draw(g.cellWidth + 1))
            let wh = min(height, g.cellHeight / 2 + rng.draw(g.cellHeight + 1))
            let tx = rng.draw(width - ww + 1)
            let ty = rng.draw(height - wh + 1)
            let tree = 1 + 11 * j
            items.append(Item(id: tree, parent: 0, kind: .tree, x: tx, y: ty, width: 0, height: 0))
            items.append(Item(id: tree + 1, parent: tree, kind: .rect, x: 0, y: 0, width: ww, height: wh))
            for c in 1...9 {
                let cw2 = max(1, ww / 8 + rng.draw(ww / 4 + 1))
                let ch2 = max(1, wh / 8 + rng.draw(wh / 4 + 1))
                let cx: Int, cy: Int
                switch c {
                case 7:
                    cx = ww - cw2 / 2
                    cy = rng.draw(wh - ch2 + 1)
                case 8:
                    cx = rng.draw(ww - cw2 + 1)
                    cy = wh - ch2 / 2
                case 9:
                    cx = -cw2 - rng.draw(16)
                    cy = -ch2 - rng.draw(16)
                default:
                    cx = rng.draw(ww - cw2 + 1)
                    cy = rng.draw(wh - ch2 + 1)
                }
                items.append(Item(id: tree + 1 + c, parent: tree, kind: .rect, x: cx, y: cy, width: cw2, height: ch2))
            }
        }
    }
}
