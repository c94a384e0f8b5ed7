/// A point in some coordinate space, in logical pixels.
///
/// Fractional because touch and pointer positions are (wl_fixed_t carries 1/256 px);
/// which space a point is in is said by the label that carries it: `global:` for the
/// compositor's layout, `local:` for a surface's own coordinates.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Whether input may carry this point: finite, and within 2^40 px of the origin, far past
    /// any screen (wl_fixed_t itself ends near 2^23). What the core computes from input
    /// points (centroids, spreads, distances squared) then never overflows to infinity and
    /// never makes a NaN, whatever a backend or an embedder passes.
    public var isRoutable: Bool { isFinite && abs(x) <= Self.routableMagnitude && abs(y) <= Self.routableMagnitude }

    public static let routableMagnitude = Double(1 << 40)

    /// This point seen from a space whose origin sits at `origin` in this point's space.
    @inlinable
    public func relative(to origin: Position) -> Point {
        Point(x: x - Double(origin.x), y: y - Double(origin.y))
    }

    /// Whether `other` lies within `radius` of this point (compared squared: no square root,
    /// so the core needs no libm).
    public func isWithin(_ radius: Double, of other: Point) -> Bool {
        let (dx, dy) = (x - other.x, y - other.y)
        return dx * dx + dy * dy <= radius * radius
    }

    /// The vector from `origin` to this point.
    public func offset(from origin: Point) -> Point { Point(x: x - origin.x, y: y - origin.y) }

    public var description: String { "(\(x.formatted), \(y.formatted))" }
}

/// An integer position: where a node sits in its parent, as wl_subsurface.set_position gives it.
public struct Position: Hashable, Sendable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = Position(x: 0, y: 0)

    public static func + (a: Position, b: Position) -> Position {
        Position(x: a.x + b.x, y: a.y + b.y)
    }
}

/// A node's extent in logical pixels, as a committed buffer gives it.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}

extension Double {
    /// Whole numbers print without a fraction so traces read like the integers they usually are.
    var formatted: String {
        abs(self) < 1e15 && self == Double(Int(self)) ? String(Int(self)) : String(self)
    }
}
