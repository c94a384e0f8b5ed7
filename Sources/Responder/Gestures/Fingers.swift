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

/// What the multi-finger recognizers (`Swipe`, `Pinch`) share: gathering their fingers
/// within the gather time, and the states that lifting, cancelling and the gather deadline
/// cause. How the fingers move is for each recognizer to judge.
struct FingerGroup: Sendable {
    let fingers: Int
    let gatherTime: Duration
    private(set) var taken = Fingers()
    /// The fingers' centroid when the last of them came down; nil while gathering.
    private(set) var origin: Point?
    var state = GestureState.possible
    private(set) var deadline: Instant?

    init(fingers: Int, gatherTime: Duration) {
        self.fingers = fingers
        self.gatherTime = gatherTime
    }

    /// Takes fingers until it has enough, while still undecided.
    var wantsFinger: Bool { state == .possible && taken.count < fingers }

    /// How far the centroid has moved since the fingers were all down.
    var translation: Point { origin.map { taken.centroid.offset(from: $0) } ?? Point(x: 0, y: 0) }

    /// Applies `input`; returns true when one of its fingers moved while the gesture is still
    /// possible, which the recognizer then judges.
    mutating func handle(_ input: GestureInput) -> Bool {
        switch input {
        case .down(let id, let global, let time):
            if taken.isEmpty { deadline = time.advanced(by: gatherTime) }
            taken.add(id, at: global)
            if taken.count == fingers {
                origin = taken.centroid
                deadline = nil
            }
        case .motion(let id, let global, _):
            guard taken.move(id, to: global) else { return false }
            if state == .possible { return true }
            if state == .began || state == .changed { state = .changed }
        case .up(let id, _) where taken.contains(id):
            state = state == .possible ? .failed : (state.isLive ? .ended : state)
            deadline = nil
        case .cancel(let id, _) where taken.contains(id):
            state = state == .possible ? .failed : (state.isLive ? .cancelled : state)
            deadline = nil
        case .deadline(let now):
            if state == .possible, let deadline, now >= deadline { fail() }
        default: break
        }
        return false
    }

    mutating func fail() {
        state = .failed
        deadline = nil
    }

    mutating func reset() {
        taken.removeAll()
        origin = nil
        deadline = nil
        state = .possible
    }
}
