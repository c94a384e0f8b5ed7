/// An integer rectangle, half-open: it contains `x <= px < x + width`, `y <= py < y + height`.
///
/// Half-open so that two rectangles sharing an edge never both contain a point on it,
/// which is what makes "the topmost surface" well defined at every boundary.
/// Coordinates are `Int` so that wl_region's int32 rectangles, added to positions,
/// cannot overflow.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: Position = .zero, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    @inlinable
    public func contains(_ p: Point) -> Bool {
        Double(x) <= p.x && p.x < Double(x + width) && Double(y) <= p.y && p.y < Double(y + height)
    }

    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
    }

    /// The smallest rectangle holding both; an empty side does not count.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func offset(by p: Position) -> Rect {
        Rect(x: x + p.x, y: y + p.y, width: width, height: height)
    }

    public static let empty = Rect(x: 0, y: 0, width: 0, height: 0)

    public var description: String { "\(x),\(y) \(width)x\(height)" }
}
