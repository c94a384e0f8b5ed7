/// `fingers` fingers moving together `distance` pixels, in `direction` if one is given:
/// continuous. The fingers must all come down within `gatherTime` of the first; it fails if
/// one lifts before it begins, if a finger travels `distance` before the others arrive (a
/// drag, not a swipe), or if the fingers go that far the wrong way. It ends when a finger
/// lifts. Its translation is the fingers' centroid's, from where they all were down.
public struct Swipe: GestureRecognizer, Sendable {
    public enum Direction: String, Hashable, Sendable, CaseIterable { case left, right, up, down }

    public var fingers: Int
    public var direction: Direction?
    public var distance: Double
    public var gatherTime: Duration
    private var taken = Fingers()
    private var origin: Point?
    private var state = GestureState.possible
    public private(set) var deadline: Instant?

    public init(fingers: Int = 3, direction: Direction? = nil, distance: Double = 100, gatherTime: Duration = .milliseconds(150)) {
        self.fingers = max(1, fingers)
        self.direction = direction
        self.distance = distance
        self.gatherTime = gatherTime
    }

    /// Fingers until it has enough; more are not its business.
    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool {
        state == .possible && taken.count < fingers
    }

    public var detail: GestureDetail {
        let c = taken.centroid
        return GestureDetail(location: c, translation: origin.map { c.offset(from: $0) } ?? Point(x: 0, y: 0), count: taken.count)
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        switch input {
        case .down(let id, let global, let time):
            if taken.isEmpty { deadline = time.advanced(by: gatherTime) }
            taken.add(id, at: global)
            if taken.count == fingers {
                origin = taken.centroid
                deadline = nil
            }
        case .motion(let id, let global, _):
            guard taken.move(id, to: global) else { break }
            switch state {
            case .possible: judge()
            case .began, .changed: state = .changed
            default: break
            }
        case .up(let id, _) where taken.contains(id):
            state = state == .possible ? .failed : (state.isLive ? .ended : state)
            deadline = nil
        case .cancel(let id, _) where taken.contains(id):
            state = state == .possible ? .failed : (state.isLive ? .cancelled : state)
            deadline = nil
        case .deadline(let now):
            if state == .possible, let deadline, now >= deadline {
                state = .failed
                self.deadline = nil
            }
        default: break
        }
        return state
    }

    public mutating func reset() {
        taken.removeAll()
        origin = nil
        deadline = nil
        state = .possible
    }

    /// Still gathering: a finger that travels far is a drag. Gathered: begin once far enough
    /// the right way, fail once as far any other way.
    private mutating func judge() {
        guard let origin else {
            if taken.anyMoved(beyond: distance) { fail() }
            return
        }
        let t = taken.centroid.offset(from: origin)
        guard let direction else {
            if max(abs(t.x), abs(t.y)) >= distance { state = .began }
            return
        }
        let (along, across) = switch direction {
        case .left: (-t.x, t.y)
        case .right: (t.x, t.y)
        case .up: (-t.y, t.x)
        case .down: (t.y, t.x)
        }
        if along >= distance { state = .began } else if abs(across) >= distance || along <= -distance { fail() }
    }

    private mutating func fail() {
        state = .failed
        deadline = nil
    }
}
