import CPixman
import Responder

/// One surface as an output shows it: its pixels, where they land on the canvas, and how
/// canvas pixels map back to them.
public struct DrawItem {
    public var image: Image
    /// The canvas pixels the item covers; nothing outside it is drawn.
    public var bounds: Rect
    /// Canvas pixels where the item hides everything below it (its opaque region, or all of
    /// `bounds` for an opaque image drawn whole).
    public var opaque: RectList
    public var sampling: Sampling
    /// What the item's alpha is multiplied by, 0 to 1 (wp_alpha_modifier_v1): below 1 it is
    /// blended everywhere and hides nothing.
    public var opacity: Double = 1

    /// How a canvas pixel finds its image pixel.
    public enum Sampling {
        /// The image drawn 1:1 with its top-left corner at this canvas position.
        case translated(Position)
        /// Any affine map from canvas to image coordinates (buffer scale and transform, a
        /// viewport, an output scale), sampled bilinearly when it scales.
        case transformed(Affine)

        /// `map` (canvas to image), as a plain copy when it is only a whole-pixel shift.
        public init(_ map: Affine) {
            if map.a == 1, map.b == 0, map.d == 0, map.e == 1, map.c == map.c.rounded(), map.f == map.f.rounded(), abs(map.c) < 1e9, abs(map.f) < 1e9 {
                self = .translated(Position(x: Int(-map.c), y: Int(-map.f)))
            } else {
                self = .transformed(map)
            }
        }
    }

    /// Where a renderer copies the item's pixels instead of blending them over what is below:
    /// one rule for every renderer, so that their frames agree.
    enum Copying {
        case everything, opaqueRegion, nothing
    }

    /// An opaque image drawn 1:1 is copied. A transformed one is blended, since a sample at its
    /// edge may take in the nothing beyond the image, unless it turns whole pixels and lies
    /// wholly inside its image (a window on a turned output): then where it is opaque (an
    /// opaque image, or its opaque region, where its alpha does not count) it is copied.
    var copying: Copying {
        guard opacity >= 1 else { return .nothing }
        switch sampling {
        case .translated: return image.isOpaque ? .everything : .nothing
        case .transformed(let map):
            guard map.isPixelExact, map.covers(bounds, within: image.size) else { return .nothing }
            return image.isOpaque ? .everything : opaque.isEmpty ? .nothing : .opaqueRegion
        }
    }

    /// Whether the item is, alone, the whole frame of a canvas of `size` pixel for pixel: an
    /// opaque image of that size drawn 1:1 at the origin. A client's dmabuf that is may be
    /// scanned out instead of composed.
    public func isWholeFrame(of size: Size) -> Bool {
        guard case .translated(let origin) = sampling else { return false }
        return origin == .zero && image.isOpaque && opacity >= 1 && image.size == size && bounds == Rect(size: size)
    }

    public init(image: Image, bounds: Rect, opaque: RectList = [], sampling: Sampling, opacity: Double = 1) {
        self.image = image
        self.bounds = bounds
        self.opacity = min(max(opacity.isNaN ? 1 : opacity, 0), 1)
        self.opaque = self.opacity < 1 ? [] : opaque
        self.sampling = sampling
    }
}

/// A 2D affine map, `(x, y) ↦ (a·x + b·y + c, d·x + e·y + f)`.
public struct Affine: Equatable, Sendable {
    public var a, b, c, d, e, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = Affine(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    public static func translation(_ x: Double, _ y: Double) -> Affine { Affine(a: 1, b: 0, c: x, d: 0, e: 1, f: y) }
    public static func scale(_ x: Double, _ y: Double) -> Affine { Affine(a: x, b: 0, c: 0, d: 0, e: y, f: 0) }

    /// `transform`'s map from its upright space (`width`×`height`) into the buffer's axes.
    public init(_ transform: OutputTransform, upright size: (width: Double, height: Double)) {
        let m = transform.uprightToBuffer(width: size.width, height: size.height)
        self.init(a: m.a, b: m.b, c: m.c, d: m.d, e: m.e, f: m.f)
    }

    /// First `self`, then `next`.
    public func then(_ next: Affine) -> Affine {
        let (x0, y0) = next.linear(a, d)
        let (x1, y1) = next.linear(b, e)
        let (x2, y2) = next.apply(c, f)
        return Affine(a: x0, b: x1, c: x2, d: y0, e: y1, f: y2)
    }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let (lx, ly) = linear(x, y)
        return (lx + c, ly + f)
    }

    /// The map without its translation, for directions rather than points.
    private func linear(_ x: Double, _ y: Double) -> (Double, Double) {
        let x1: Double = a * x + b * y
        let y1: Double = d * x + e * y
        return (x1, y1)
    }

    /// Whether it maps pixels onto pixels (integer translation, quarter turns, flips), which
    /// nearest sampling copies exactly.
    public var isPixelExact: Bool {
        let unit: (Double) -> Bool = { $0 == 0 || abs($0) == 1 }
        return unit(a) && unit(b) && unit(d) && unit(e) && c == c.rounded() && f == f.rounded()
    }

    /// Whether every pixel of `rect` maps inside an image of `size`.
    public func covers(_ rect: Rect, within size: Size) -> Bool {
        let corners = [apply(Double(rect.x), Double(rect.y)), apply(Double(rect.maxX), Double(rect.maxY))]
        return corners.allSatisfy { 0 <= $0.x && $0.x <= Double(size.width) && 0 <= $0.y && $0.y <= Double(size.height) }
    }

    /// The map as pixman holds it: each coefficient to the nearest 65536th.
    var roundedToFixed: Affine {
        let m = pixman.matrix
        let value = { (v: pixman_fixed_t) in Double(v) / 65536 }
        return Affine(a: value(m.0.0), b: value(m.0.1), c: value(m.0.2), d: value(m.1.0), e: value(m.1.1), f: value(m.1.2))
    }

    var pixman: pixman_transform {
        var matrix = pixman_f_transform()
        matrix.m = ((a, b, c), (d, e, f), (0, 0, 1))
        var fixed = pixman_transform()
        pixman_transform_from_pixman_f_transform(&fixed, &matrix)
        return fixed
    }
}
