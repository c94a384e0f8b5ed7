/// The fingers a multi-finger recognizer has taken, with where each started and is now.
/// Gathered one down at a time; the gesture's own start is when the last of them arrives.
struct Fingers: Sendable {
    private(set) var ids: [Int32] = []
    private var starts: [Point] = []
    private(set) var positions: [Point] = []

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }

    func contains(_ id: Int32) -> Bool { ids.contains(id) }

    mutating func add(_ id: Int32, at global: Point) {
        ids.append(id)
        starts.append(global)
        positions.append(global)
    }

    /// Moves a finger; false if it is not one of these.
    mutating func move(_ id: Int32, to global: Point) -> Bool {
        guard let k = ids.firstIndex(of: id) else { return false }
        positions[k] = global
        return true
    }

    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }

    /// Whether any finger has gone further than `distance` from where it came down.
    func anyMoved(beyond distance: Double) -> Bool {
        zip(starts, positions).contains { !$1.isWithin(distance, of: $0) }
    }

    var centroid: Point {
        guard !positions.isEmpty else { return Point(x: 0, y: 0) }
        var sum = Point(x: 0, y: 0)
        for p in positions {
            sum.x += p.x
            sum.y += p.y
        }
        let n = Double(positions.count)
        return Point(x: sum.x / n, y: sum.y / n)
    }

    /// The fingers' mean distance from their centroid: what a pinch scales.
    var spread: Double {
        let c = centroid
        var total = 0.0
        for p in positions {
            let (dx, dy) = (p.x - c.x, p.y - c.y)
            total += (dx * dx + dy * dy).squareRoot()
        }
        return positions.isEmpty ? 0 : total / Double(positions.count)
    }
}
