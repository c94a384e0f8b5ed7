/// A set of points built from rectangles by union and subtraction, as wl_region is.
///
/// Kept y-x banded, as pixman and the X server keep regions: horizontal bands sorted by y,
/// each with sorted, disjoint, non-touching x-spans, and no two touching bands with the
/// same spans. That form is canonical (one set of points, one representation), so `==` is
/// set equality. A point lookup is two binary searches, and an edit rewrites only the bands
/// its rectangle crosses: a hostile client sending tens of thousands of rectangles pays
/// for what each one touches, not for everything it sent before.
public struct Region: Sendable, Equatable, CustomStringConvertible {
    /// Sorted by rows, rows disjoint, no band without spans.
    private var bands: [Band]

    /// How many rectangles `rects` lists: the measure of a region's complexity that the
    /// protocol layer caps per client. Kept by every edit, so reading it costs nothing.
    public private(set) var rectCount: Int

    public init() {
        bands = []
        rectCount = 0
    }

    public init(_ rect: Rect) {
        self.init()
        guard let (columns, rows) = rect.clampedRanges else { return }
        append(Band(rows: rows, spans: [columns]))
    }

    public static let empty = Region()

    /// What a surface's input region is until the client sets one: everything. Spans the
    /// whole int32 plane so any wl_region coordinate can be subtracted from it.
    public static let infinite = Region(Rect(x: Int(Int32.min), y: Int(Int32.min), width: 1 << 32, height: 1 << 32))

    public var isEmpty: Bool { bands.isEmpty }

    /// The bounding rectangle, exact (the hit test prunes with it); `.empty` for an empty region.
    public var extents: Rect {
        guard let top = bands.first?.rows.lowerBound, let bottom = bands.last?.rows.upperBound else { return .empty }
        let left = bands.reduce(Int.max) { min($0, $1.spans[0].lowerBound) }
        let right = bands.reduce(Int.min) { max($0, $1.spans[$1.spans.count - 1].upperBound) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Disjoint, none empty: one per span of each band, top to bottom, left to right.
    public var rects: [Rect] {
        bands.flatMap { band in
            band.spans.map { Rect(x: $0.lowerBound, y: band.rows.lowerBound, width: $0.count, height: band.rows.count) }
        }
    }

    /// Half-open on both axes, exactly as `Rect.contains`.
    public func contains(_ p: Point) -> Bool {
        let i = bands.partitioningIndex { Double($0.rows.upperBound) > p.y }
        guard i < bands.count, Double(bands[i].rows.lowerBound) <= p.y else { return false }
        let spans = bands[i].spans
        let j = spans.partitioningIndex { Double($0.upperBound) > p.x }
        return j < spans.count && Double(spans[j].lowerBound) <= p.x
    }

    /// wl_region.add
    public mutating func add(_ rect: Rect) {
        guard let (columns, rows) = rect.clampedRanges else { return }
        edit(rows: rows, fillingGaps: true) { $0.union(columns) }
    }

    /// wl_region.subtract
    public mutating func subtract(_ rect: Rect) {
        guard let (columns, rows) = rect.clampedRanges else { return }
        edit(rows: rows, fillingGaps: false) { $0.subtracting(columns) }
    }

    /// The bounding rectangle and rectangle count of `intersection(rect)`. The scene asks at
    /// every commit, and a surface's input region is nearly always one rectangle (the whole
    /// plane by default): that answer needs no region made.
    public func intersectionShape(_ rect: Rect) -> (extents: Rect, rectCount: Int) {
        if rectCount == 1 {
            let clipped = extents.intersection(rect)
            return clipped.isEmpty ? (.empty, 0) : (clipped, 1)
        }
        let clipped = intersection(rect)
        return (clipped.extents, clipped.rectCount)
    }

    /// The part of the region inside `rect`.
    public func intersection(_ rect: Rect) -> Region {
        var result = Region()
        guard let (columns, rows) = rect.clampedRanges else { return result }
        var i = bands.partitioningIndex { $0.rows.upperBound > rows.lowerBound }
        while i < bands.count, bands[i].rows.lowerBound < rows.upperBound {
            result.append(Band(rows: bands[i].rows.clamped(to: rows), spans: bands[i].spans.clipped(to: columns)))
            i += 1
        }
        return result
    }

    public var description: String {
        isEmpty ? "empty" : rects.map(\.description).joined(separator: " + ")
    }
}

extension Region {
    /// Applies `change` to the spans of every row in `rows` and splices the result in
    /// place of the bands those rows cross. Rows no band covers have no spans; they are
    /// only worth visiting when the change can add some (`fillingGaps`).
    ///
    /// The rewritten window takes in one untouched neighbour on each side, since a changed
    /// band may now equal it and must merge with it to keep the form canonical.
    private mutating func edit(rows: Range<Int>, fillingGaps: Bool, _ change: ([Range<Int>]) -> [Range<Int>]) {
        let first = bands.partitioningIndex { $0.rows.upperBound > rows.lowerBound }
        let end = bands.partitioningIndex(from: first) { $0.rows.lowerBound >= rows.upperBound }
        guard fillingGaps || first < end else { return }
        let window = max(first - 1, 0)..<min(end + 1, bands.count)
        var rewritten = Region()  // built band by band, so it comes out canonical
        rewritten.bands.reserveCapacity(2 * (end - first) + 5)  // gap, above, inside, below each; neighbours
        if window.lowerBound < first { rewritten.append(bands[window.lowerBound]) }
        var covered = rows.lowerBound
        for band in bands[first..<end] {
            if fillingGaps, covered < band.rows.lowerBound {
                rewritten.append(Band(rows: covered..<band.rows.lowerBound, spans: change([])))
            }
            // The rows of the band above and below `rows` keep their spans (clamping to a
            // side `rows` leaves none of the band gives an empty band, which append drops).
            rewritten.append(Band(rows: band.rows.clamped(to: Int.min..<rows.lowerBound), spans: band.spans))
            rewritten.append(Band(rows: band.rows.clamped(to: rows), spans: change(band.spans)))
            rewritten.append(Band(rows: band.rows.clamped(to: rows.upperBound..<Int.max), spans: band.spans))
            covered = band.rows.upperBound
        }
        if fillingGaps, covered < rows.upperBound {
            rewritten.append(Band(rows: covered..<rows.upperBound, spans: change([])))
        }
        if end < window.upperBound { rewritten.append(bands[end]) }
        rectCount += rewritten.rectCount - bands[window].reduce(0) { $0 + $1.spans.count }
        bands.replaceSubrange(window, with: rewritten.bands)
    }

    /// Appends a band below all others, dropping it when it covers nothing and merging it
    /// into the last band when it continues it with the same spans.
    private mutating func append(_ band: Band) {
        guard band.rows.lowerBound < band.rows.upperBound, !band.spans.isEmpty else { return }
        if let last = bands.last, last.rows.upperBound == band.rows.lowerBound, last.spans == band.spans {
            bands[bands.count - 1].rows = last.rows.lowerBound..<band.rows.upperBound
        } else {
            bands.append(band)
            rectCount += band.spans.count
        }
    }
}
