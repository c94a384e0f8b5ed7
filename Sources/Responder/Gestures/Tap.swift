/// `count` taps of one finger: discrete. Each tap lifts within `maximumDuration` and moves
/// less than `slop`; each next tap comes down within `interval` of the last lift and within
/// `maximumDistance` of the first. Recognized on the last lift; failed by anything else.
public struct Tap: GestureRecognizer, Sendable {
    public var count: Int
    public var interval: Duration
    public var maximumDuration: Duration
    public var slop: Double
    public var maximumDistance: Double
    private var finger: Int32?
    private var first: Point?
    private var start = Point(x: 0, y: 0)
    private var taps = 0
    private var state = GestureState.possible
    public private(set) var deadline: Instant?

    public init(
        count: Int = 1, interval: Duration = .milliseconds(300), maximumDuration: Duration = .milliseconds(300),
        slop: Double = 10, maximumDistance: Double = 40
    ) {
        self.count = max(1, count)
        self.interval = interval
        self.maximumDuration = maximumDuration
        self.slop = slop
        self.maximumDistance = maximumDistance
    }

    /// One finger at a time: a second finger during a tap is not its business.
    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool { finger == nil }

    /// Where the first tap came down, and how many taps are done.
    public var detail: GestureDetail { GestureDetail(location: first ?? start, count: taps) }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        guard state == .possible else { return state }
        switch input {
        case .down(let id, let global, let time):
            if let first, !global.isWithin(maximumDistance, of: first) { return fail() }
            finger = id
            start = global
            first = first ?? global
            deadline = time.advanced(by: maximumDuration)
        case .motion(let id, let global, _) where id == finger:
            if !global.isWithin(slop, of: start) { return fail() }
        case .up(let id, let time) where id == finger:
            finger = nil
            taps += 1
            if taps == count {
                deadline = nil
                state = .recognized
            } else {
                deadline = time.advanced(by: interval)
            }
        case .cancel(let id, _) where id == finger:
            return fail()
        case .deadline(let now):
            if let deadline, now >= deadline { return fail() }
        default: break
        }
        return state
    }

    public mutating func reset() {
        finger = nil
        first = nil
        taps = 0
        deadline = nil
        state = .possible
    }

    private mutating func fail() -> GestureState {
        deadline = nil
        state = .failed
        return state
    }
}
