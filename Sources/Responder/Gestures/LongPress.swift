/// A finger held still (within `slop` pixels) for `duration`: continuous, one finger (others
/// are not its business). It begins when the time is up, changes as the finger then moves,
/// and ends when it lifts.
public struct LongPress: GestureRecognizer, Sendable {
    public var duration: Duration
    public var slop: Double
    private var finger: Int32?
    private var start = Point(x: 0, y: 0)
    private var current = Point(x: 0, y: 0)
    private var state = GestureState.possible
    public private(set) var deadline: Instant?

    public init(duration: Duration = .milliseconds(500), slop: Double = 10) {
        self.duration = duration
        self.slop = slop
    }

    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool { finger == nil }

    public var detail: GestureDetail {
        GestureDetail(location: current, translation: current.offset(from: start), count: finger == nil ? 0 : 1)
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        switch input {
        case .down(let id, let global, let time):
            finger = id
            start = global
            current = global
            deadline = time.advanced(by: duration)
        case .motion(let id, let global, _) where id == finger:
            current = global
            if state == .possible, !global.isWithin(slop, of: start) { return fail() }
            if state == .began || state == .changed { state = .changed }
        case .deadline(let now) where state == .possible:
            if let deadline, now >= deadline {
                state = .began
                self.deadline = nil
            }
        case .up(let id, _) where id == finger:
            state = state == .possible ? .failed : (state.isLive ? .ended : state)
            deadline = nil
        case .cancel(let id, _) where id == finger:
            state = state == .possible ? .failed : (state.isLive ? .cancelled : state)
            deadline = nil
        default: break
        }
        return state
    }

    public mutating func reset() {
        finger = nil
        deadline = nil
        state = .possible
    }

    private mutating func fail() -> GestureState {
        deadline = nil
        state = .failed
        return state
    }
}
