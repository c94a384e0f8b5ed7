/// A set of points built from rectangles by union and subtraction, as wl_region is.
///
/// Kept as disjoint rectangles so that containment is "any rectangle contains it" and the
/// extents are exact (the hit test prunes with them). Real input regions have a handful of
/// rectangles, so the simple split-on-subtract representation is plenty.
public struct Region: Sendable, CustomStringConvertible {
    /// Disjoint, none empty.
    public private(set) var rects: [Rect]

    public init() { rects = [] }

    public init(_ rect: Rect) {
        rects = rect.isEmpty ? [] : [rect]
    }

    public static let empty = Region()

    /// What a surface's input region is until the client sets one: everything. Spans the
    /// whole int32 plane so any wl_region coordinate can be subtracted from it.
    public static let infinite = Region(Rect(x: Int(Int32.min), y: Int(Int32.min), width: 1 << 32, height: 1 << 32))

    public var isEmpty: Bool { rects.isEmpty }

    /// The bounding rectangle; `.empty` for an empty region.
    public var extents: Rect { rects.reduce(Rect.empty) { $0.union($1) } }

    public func contains(_ p: Point) -> Bool {
        for r in rects where r.contains(p) { return true }
        return false
    }

    /// wl_region.add
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        subtract(rect)
        rects.append(rect)
    }

    /// wl_region.subtract
    public mutating func subtract(_ cut: Rect) {
        guard !cut.isEmpty, rects.contains(where: { !$0.intersection(cut).isEmpty }) else { return }
        var kept: [Rect] = []
        kept.reserveCapacity(rects.count + 3)
        for r in rects {
            r.appendPieces(outside: cut, to: &kept)
        }
        rects = kept
    }

    /// The part of the region inside `rect`.
    public func intersection(_ rect: Rect) -> Region {
        var result = Region()
        result.rects = rects.map { $0.intersection(rect) }.filter { !$0.isEmpty }
        return result
    }

    public var description: String {
        rects.isEmpty ? "empty" : rects.map(\.description).joined(separator: " + ")
    }
}

extension Rect {
    /// Appends up to four disjoint rectangles that together cover `self` minus `cut`:
    /// full-width bands above and below the cut, and the pieces left and right of it.
    fileprivate func appendPieces(outside cut: Rect, to out: inout [Rect]) {
        let inner = intersection(cut)
        guard !inner.isEmpty else {
            out.append(self)
            return
        }
        let pieces = [
            Rect(x: x, y: y, width: width, height: inner.y - y),
            Rect(x: x, y: inner.maxY, width: width, height: maxY - inner.maxY),
            Rect(x: x, y: inner.y, width: inner.x - x, height: inner.height),
            Rect(x: inner.maxX, y: inner.y, width: maxX - inner.maxX, height: inner.height),
        ]
        out.append(contentsOf: pieces.lazy.filter { !$0.isEmpty })
    }
}
