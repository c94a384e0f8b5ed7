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
}
