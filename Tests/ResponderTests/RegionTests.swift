import Responder
import Testing

@Suite struct RegionTests {
    @Test func rectContainmentIsHalfOpen() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.contains(p(10, 20)))
        #expect(r.contains(p(39.99, 59.99)))
        #expect(!r.contains(p(40, 30)))
        #expect(!r.contains(p(20, 60)))
        #expect(!r.contains(p(9.99, 30)))
    }

    /// The scene reads an input region's clipped shape at every commit without making the
    /// clipped region: its answer must be the made region's.
    @Test func intersectionShapeIsThatOfTheIntersection() {
        var holed = Region(Rect(x: 0, y: 0, width: 100, height: 100))
        holed.subtract(Rect(x: 40, y: 40, width: 20, height: 20))
        let regions = [Region.infinite, .empty, Region(Rect(x: 10, y: 10, width: 30, height: 30)), holed]
        let clips = [Rect(x: 0, y: 0, width: 64, height: 64), Rect(x: 45, y: 0, width: 10, height: 100), Rect(x: 200, y: 200, width: 5, height: 5),
                     Rect(x: 0, y: 0, width: 0, height: 0), Rect(x: 50, y: 50, width: 100, height: 100)]
        for region in regions {
            for clip in clips {
                let made = region.intersection(clip)
                let shape = region.intersectionShape(clip)
                #expect(shape.extents == made.extents, "\(region) in \(clip)")
                #expect(shape.rectCount == made.rectCount, "\(region) in \(clip)")
            }
        }
    }

    @Test func unionCoversBothRectanglesAndNothingElse() {
        var region = Region(Rect(x: 0, y: 0, width: 10, height: 10))
        region.add(Rect(x: 5, y: 5, width: 10, height: 10))
        #expect(region.contains(p(1, 1)))
        #expect(region.contains(p(14, 14)))
        #expect(!region.contains(p(12, 2)))
        #expect(region.extents == Rect(x: 0, y: 0, width: 15, height: 15))
    }

    @Test func subtractCutsAHole() {
        var region = Region(Rect(x: 0, y: 0, width: 100, height: 100))
        region.subtract(Rect(x: 40, y: 40, width: 20, height: 20))
        #expect(!region.contains(p(50, 50)))
        #expect(region.contains(p(39, 50)))
        #expect(region.contains(p(60, 50)))
        #expect(region.contains(p(50, 39)))
        #expect(region.contains(p(50, 60)))
        #expect(region.extents == Rect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test func addAfterSubtractRefillsTheHole() {
        var region = Region(Rect(x: 0, y: 0, width: 100, height: 100))
        region.subtract(Rect(x: 40, y: 40, width: 20, height: 20))
        region.add(Rect(x: 45, y: 45, width: 5, height: 5))
        #expect(region.contains(p(47, 47)))
        #expect(!region.contains(p(55, 55)))
    }

    @Test func subtractingEverythingLeavesAnEmptyRegion() {
        var region = Region(Rect(x: 0, y: 0, width: 10, height: 10))
        region.add(Rect(x: 20, y: 0, width: 10, height: 10))
        region.subtract(Rect(x: -5, y: -5, width: 50, height: 50))
        #expect(region.isEmpty)
        #expect(region.extents.isEmpty)
    }

    @Test func infiniteRegionContainsFarPointsUntilCut() {
        var region = Region.infinite
        #expect(region.contains(p(-2_000_000_000, 2_000_000_000)))
        region.subtract(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(!region.contains(p(5, 5)))
        #expect(region.contains(p(-5, 5)))
    }

    @Test func randomEditsMatchAPointSetModel() {
        var rng = TestRandom(seed: 0x5EED_0F_BA_4D5)
        for _ in 0..<40 {
            var region = Region()
            var model = CellModel()
            for _ in 0..<25 {
                let rect = randomRect(&rng)
                if rng.below(3) == 0 {
                    region.subtract(rect)
                    model.set(rect, to: false)
                } else {
                    region.add(rect)
                    model.set(rect, to: true)
                }
                model.check(region)
            }
            let clip = randomRect(&rng)
            let clipped = CellModel(cells: model.cells.filter { clip.contains(p(Double($0.x), Double($0.y))) })
            clipped.check(region.intersection(clip))
        }
    }

    @Test func thirtyThousandHolesStayExactAndAddBackToTheRectangle() {
        let whole = Rect(x: 0, y: 0, width: 250, height: 240)
        var region = Region(whole)
        let holes = checkerboardHoles(30_000, perRow: 125)
        for hole in holes { region.subtract(hole) }
        #expect(region.rectCount == 30_000)
        #expect(region.extents == whole)
        var wrong: [Position] = []
        for y in 0..<240 {
            for x in 0..<250 where region.contains(p(Double(x) + 0.5, Double(y) + 0.5)) == ((x + y) % 2 == 0) {
                wrong.append(Position(x: x, y: y))
            }
        }
        #expect(wrong.isEmpty)
        for hole in holes.reversed() { region.add(hole) }
        #expect(region == Region(whole))
    }

    @Test func hostileCoordinatesNeitherTrapNorChangeSmallRegions() {
        var region = Region(Rect(x: 0, y: 0, width: 10, height: 10))
        region.add(Rect(x: 5, y: 5, width: -3, height: 100))
        region.subtract(Rect(x: 0, y: 0, width: 5, height: 0))
        #expect(region == Region(Rect(x: 0, y: 0, width: 10, height: 10)))
        region.add(Rect(x: Int(Int32.max), y: Int(Int32.max), width: Int(Int32.max), height: Int(Int32.max)))
        region.add(Rect(x: .max - 1, y: .max - 1, width: .max, height: .max))
        region.subtract(Rect(x: .min, y: .min, width: 1, height: 1))
        #expect(region.contains(p(Double(Int32.max) * 1.5, Double(Int32.max) * 1.5)))
        #expect(region.rectCount == 2)
        #expect(region.rects.count == 2)
        #expect(region.extents == Rect(x: 0, y: 0, width: 2 * Int(Int32.max), height: 2 * Int(Int32.max)))
        region.subtract(Rect(x: .min, y: .min, width: .max, height: .max))
        #expect(region.contains(p(5, 5)))
        region.subtract(Rect(x: -1, y: -1, width: .max, height: .max))
        #expect(region.isEmpty)
    }

    private func randomRect(_ rng: inout TestRandom) -> Rect {
        Rect(x: rng.below(44) - 4, y: rng.below(44) - 4, width: rng.below(14) - 2, height: rng.below(14) - 2)
    }
}

/// `n` 1×1 holes on a checkerboard, `perRow` to a row, each row shifted by one.
func checkerboardHoles(_ n: Int, perRow: Int) -> [Rect] {
    (0..<n).map { i in
        let row = i / perRow
        return Rect(x: 2 * (i % perRow) + row % 2, y: row, width: 1, height: 1)
    }
}

/// The naive region: the set of unit cells it covers, over a grid wider than any rectangle
/// the random tests draw.
struct CellModel {
    static let min = -6, side = 64
    var cells: Set<Position> = []

    mutating func set(_ rect: Rect, to covered: Bool) {
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                if covered { cells.insert(Position(x: x, y: y)) } else { cells.remove(Position(x: x, y: y)) }
            }
        }
    }

    /// Containment at every cell (at its corner, where half-openness matters, and inside),
    /// exact extents, rectangles that tile the cells once each, and the canonical form.
    func check(_ region: Region, sourceLocation: SourceLocation = #_sourceLocation) {
        let grid = Self.min..<(Self.min + Self.side)
        var wrong: [Position] = []
        for y in grid {
            for x in grid {
                let covered = cells.contains(Position(x: x, y: y))
                let corner = region.contains(p(Double(x), Double(y)))
                let inside = region.contains(p(Double(x) + 0.5, Double(y) + 0.99))
                if corner != covered || inside != covered { wrong.append(Position(x: x, y: y)) }
            }
        }
        #expect(wrong.isEmpty, "contains wrong at \(wrong.prefix(5)) in \(region)", sourceLocation: sourceLocation)
        #expect(region.extents == extents, sourceLocation: sourceLocation)
        var tiled: [Position: Int] = [:]
        for rect in region.rects {
            #expect(!rect.isEmpty, sourceLocation: sourceLocation)
            for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { tiled[Position(x: x, y: y), default: 0] += 1 } }
        }
        #expect(tiled == Dictionary(uniqueKeysWithValues: cells.map { ($0, 1) }), sourceLocation: sourceLocation)
        #expect(region.rectCount == region.rects.count, sourceLocation: sourceLocation)
        #expect(region == rowByRow, "not canonical: \(region)", sourceLocation: sourceLocation)
        #expect(region.rects == rowByRow.rects, sourceLocation: sourceLocation)
    }

    private var extents: Rect {
        guard !cells.isEmpty else { return .empty }
        let xs = cells.map(\.x), ys = cells.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! + 1 - xs.min()!, height: ys.max()! + 1 - ys.min()!)
    }

    /// The same cells built another way, one-row runs from the bottom up: equal only if
    /// both forms are canonical (bands merged, spans merged).
    private var rowByRow: Region {
        var region = Region()
        for y in (Self.min..<(Self.min + Self.side)).reversed() {
            var x = Self.min
            while x < Self.min + Self.side {
                let start = x
                while cells.contains(Position(x: x, y: y)) { x += 1 }
                if x > start { region.add(Rect(x: start, y: y, width: x - start, height: 1)) } else { x += 1 }
            }
        }
        return region
    }
}
