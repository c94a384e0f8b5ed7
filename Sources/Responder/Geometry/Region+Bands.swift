/// Rows of a region that all cover the same columns.
struct Band: Equatable, Sendable {
    var rows: Range<Int>
    /// Sorted, disjoint and non-touching, so that bands covering the same columns have
    /// equal arrays and the region's form stays canonical.
    var spans: [Range<Int>]
}

extension [Range<Int>] {
    /// These spans and `new`, merged with every span it overlaps or touches.
    func union(_ new: Range<Int>) -> [Range<Int>] {
        let first = partitioningIndex { $0.upperBound >= new.lowerBound }
        let end = partitioningIndex(from: first) { $0.lowerBound > new.upperBound }
        guard first < end else { return replacing(first..<first, with: new) }
        let merged = Swift.min(self[first].lowerBound, new.lowerBound)..<Swift.max(self[end - 1].upperBound, new.upperBound)
        return replacing(first..<end, with: merged)
    }

    /// These spans without `cut`, keeping what sticks out of it on either side.
    func subtracting(_ cut: Range<Int>) -> [Range<Int>] {
        let first = partitioningIndex { $0.upperBound > cut.lowerBound }
        let end = partitioningIndex(from: first) { $0.lowerBound >= cut.upperBound }
        guard first < end else { return self }
        let left = self[first].clamped(to: Int.min..<cut.lowerBound)
        let right = self[end - 1].clamped(to: cut.upperBound..<Int.max)
        return replacing(first..<end, with: left, right)
    }

    /// A copy with the spans at `replaced` swapped for the non-empty `pieces`, built in one
    /// allocation: a copy-on-write copy edited in place would allocate again as it grew.
    private func replacing(_ replaced: Range<Int>, with pieces: Range<Int>...) -> [Range<Int>] {
        var result: [Range<Int>] = []
        result.reserveCapacity(count - replaced.count + pieces.count)
        result += self[..<replaced.lowerBound]
        for piece in pieces where !piece.isEmpty { result.append(piece) }
        result += self[replaced.upperBound...]
        return result
    }

    /// The parts of the spans inside `columns`.
    func clipped(to columns: Range<Int>) -> [Range<Int>] {
        let first = partitioningIndex { $0.upperBound > columns.lowerBound }
        let end = partitioningIndex(from: first) { $0.lowerBound >= columns.upperBound }
        return self[first..<end].map { $0.clamped(to: columns) }
    }
}

extension Array {
    /// The first index from `start` whose element is past the point sought, by binary
    /// search: `isPast` must be false and then true along the array.
    func partitioningIndex(from start: Int = 0, where isPast: (Element) -> Bool) -> Int {
        var (low, high) = (start, count)
        while low < high {
            let mid = low + (high - low) / 2
            if isPast(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension Rect {
    /// The columns and rows the rectangle covers, or nil when it covers none. Ends are
    /// computed without overflow and clamped to ±2^61, far beyond any int32 coordinate
    /// plus surface offset, so that every width and height a region hands back fits in an Int.
    var clampedRanges: (columns: Range<Int>, rows: Range<Int>)? {
        guard let columns = Self.clampedRange(from: x, length: width),
              let rows = Self.clampedRange(from: y, length: height) else { return nil }
        return (columns, rows)
    }

    private static func clampedRange(from origin: Int, length: Int) -> Range<Int>? {
        guard length > 0 else { return nil }
        let limit = 1 << 61
        let clamp = { (v: Int) in min(max(v, -limit), limit) }
        let (end, overflow) = origin.addingReportingOverflow(length)  // only upward: length > 0
        let (lower, upper) = (clamp(origin), overflow ? limit : clamp(end))
        return lower < upper ? lower..<upper : nil
    }
}
