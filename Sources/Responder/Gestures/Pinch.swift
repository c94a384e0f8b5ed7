/// `fingers` fingers spreading apart or closing in: continuous. It begins when their spread
/// (mean distance from their centroid) has grown by `scale` or shrunk by its inverse, against
/// the spread when the last of them came down; `direction` limits it to one of the two. It
/// fails if a finger lifts before it begins, if the fingers do not all come down within
/// `gatherTime`, or if they travel together `maximumTranslation` pixels first (a swipe).
public struct Pinch: GestureRecognizer, Sendable {
    public enum Direction: String, Hashable, Sendable, CaseIterable { case apart, together }

    public var fingers: Int
    public var scale: Double
    public var direction: Direction?
    public var maximumTranslation: Double
    public var gatherTime: Duration
    private var taken = Fingers()
    private var origin: Point?
    private var startSpread = 1.0
    private var state = GestureState.possible
    public private(set) var deadline: Instant?

    public init(
        fingers: Int = 2, scale: Double = 1.25, direction: Direction? = nil, maximumTranslation: Double = 80,
        gatherTime: Duration = .milliseconds(150)
    ) {
        self.fingers = max(2, fingers)
        self.scale = max(1, scale)
        self.direction = direction
        self.maximumTranslation = maximumTranslation
        self.gatherTime = gatherTime
    }

    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool {
        state == .possible && taken.count < fingers
    }

    public var detail: GestureDetail {
        let c = taken.centroid
        return GestureDetail(
            location: c, translation: origin.map { c.offset(from: $0) } ?? Point(x: 0, y: 0),
            scale: origin == nil ? 1 : taken.spread / startSpread, count: taken.count
        )
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        switch input {
        case .down(let id, let global, let time):
            if taken.isEmpty { deadline = time.advanced(by: gatherTime) }
            taken.add(id, at: global)
            if taken.count == fingers {
                origin = taken.centroid
                // Fingers landing on one spot have no spread to scale; one pixel stands in.
                startSpread = max(1, taken.spread)
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
        startSpread = 1
        deadline = nil
        state = .possible
    }

    private mutating func judge() {
        guard let origin else { return }
        if !taken.centroid.isWithin(maximumTranslation, of: origin) {
            state = .failed
            return
        }
        let ratio = taken.spread / startSpread
        if (ratio >= scale && direction != .together) || (ratio * scale <= 1 && direction != .apart) { state = .began }
    }
}
