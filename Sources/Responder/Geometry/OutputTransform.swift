/// wl_output.transform: how a picture is turned between the upright space a person sees
/// (the layout; a surface's coordinates) and a buffer's own axes (a screen's panel, as it
/// scans out; a client's pre-rotated buffer). Output rotation and wl_surface's buffer
/// transform are the same eight maps, so a buffer rotated as its output is copies 1:1.
public enum OutputTransform: Int32, CaseIterable, Sendable, CustomStringConvertible {
    case normal = 0, rotated90, rotated180, rotated270, flipped, flipped90, flipped180, flipped270

    /// Quarter and three-quarter turns, flipped or not, swap width and height.
    public var swapsAxes: Bool { rawValue % 2 == 1 }

    /// The size on the other side of the transform (either way: it only swaps).
    public func applied(to size: Size) -> Size {
        swapsAxes ? Size(width: size.height, height: size.width) : size
    }

    /// The transform taking buffer axes back to upright ones.
    public var inverse: OutputTransform {
        switch self {
        case .rotated90: .rotated270
        case .rotated270: .rotated90
        default: self
        }
    }

    /// The map from the upright space (`width`×`height`) into the buffer's axes, as the
    /// 2×3 matrix `(x, y) ↦ (a·x + b·y + c, d·x + e·y + f)`.
    public func uprightToBuffer(width w: Double, height h: Double) -> (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        switch self {
        case .normal: (1, 0, 0, 0, 1, 0)
        case .rotated90: (0, 1, 0, -1, 0, w)
        case .rotated180: (-1, 0, w, 0, -1, h)
        case .rotated270: (0, -1, h, 1, 0, 0)
        case .flipped: (-1, 0, w, 0, 1, 0)
        case .flipped90: (0, 1, 0, 1, 0, 0)
        case .flipped180: (1, 0, 0, 0, -1, h)
        case .flipped270: (0, -1, h, -1, 0, w)
        }
    }

    /// A point of the upright space (`size`) in the buffer's axes.
    public func bufferPoint(_ p: Point, upright size: (width: Double, height: Double)) -> Point {
        let m = uprightToBuffer(width: size.width, height: size.height)
        return Point(x: m.a * p.x + m.b * p.y + m.c, y: m.d * p.x + m.e * p.y + m.f)
    }

    /// A point of the buffer (`size`, its own axes) in the upright space.
    public func uprightPoint(_ p: Point, buffer size: (width: Double, height: Double)) -> Point {
        inverse.bufferPoint(p, upright: size)
    }

    /// An upright rectangle (within `size`) in the buffer's axes: the rectangle its corners
    /// land on.
    public func bufferRect(_ r: Rect, upright size: Size) -> Rect {
        let bounds = (Double(size.width), Double(size.height))
        let a = bufferPoint(Point(x: Double(r.x), y: Double(r.y)), upright: bounds)
        let b = bufferPoint(Point(x: Double(r.maxX), y: Double(r.maxY)), upright: bounds)
        let (x0, y0) = (Int(min(a.x, b.x)), Int(min(a.y, b.y)))
        return Rect(x: x0, y: y0, width: Int(max(a.x, b.x)) - x0, height: Int(max(a.y, b.y)) - y0)
    }

    /// The names wlr-randr, sway and the configuration file use.
    public var description: String {
        ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"][Int(rawValue)]
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = found
    }
}
