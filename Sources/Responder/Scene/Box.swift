/// A half-open box in floating point, for the hit test's subtree bounds: compared against
/// points directly, no conversions in the walk. Infinite sides stand for hook-driven nodes.
struct Box: Equatable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    static let empty = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    static let infinite = Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    init(_ r: Rect) {
        self = r.isEmpty ? .empty : Box(minX: Double(r.x), minY: Double(r.y), maxX: Double(r.maxX), maxY: Double(r.maxY))
    }

    var isEmpty: Bool { !(minX < maxX && minY < maxY) }

    @inline(__always)
    func contains(_ p: Point) -> Bool {
        minX <= p.x && p.x < maxX && minY <= p.y && p.y < maxY
    }

    func union(_ b: Box) -> Box {
        if b.isEmpty { return self }
        if isEmpty { return b }
        return Box(minX: min(minX, b.minX), minY: min(minY, b.minY), maxX: max(maxX, b.maxX), maxY: max(maxY, b.maxY))
    }

    func intersection(_ b: Box) -> Box {
        let r = Box(minX: max(minX, b.minX), minY: max(minY, b.minY), maxX: min(maxX, b.maxX), maxY: min(maxY, b.maxY))
        return r.isEmpty ? .empty : r
    }

    func offset(x: Double, y: Double) -> Box {
        isEmpty ? self : Box(minX: minX + x, minY: minY + y, maxX: maxX + x, maxY: maxY + y)
    }
}
