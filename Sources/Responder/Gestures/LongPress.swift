/// A finger held still (within `slop` pixels) for `duration`: continuous, one finger (others
/// are not its business). It begins when the time is up, changes as the finger then moves,
/// and ends when it lifts. With a `corner`, only a finger coming down in that corner's square
/// of the screen counts: a kiosk's staff knock where no customer presses.
public struct LongPress: GestureRecognizer, Sendable {
    public var duration: Duration
    public var slop: Double
    /// The corner of the layout it waits in, and the side of that corner's square.
    public var corner: (corner: Corner, side: Double)?
    /// A corner's square when none is given: bigger than a fingertip, smaller than a button.
    public static let cornerSize = 80.0
    private var finger: Int32?
    private var start = Point(x: 0, y: 0)
    private var current = Point(x: 0, y: 0)
    private var state = GestureState.possible
    public private(set) var deadline: Instant?

    public init(duration: Duration = .milliseconds(500), slop: Double = 10, corner: (corner: Corner, side: Double)? = nil) {
        self.duration = duration
        self.slop = slop
        self.corner = corner
    }

    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool {
        guard finger == nil else { return false }
        guard let (corner, side) = self.corner else { return true }
        return corner.square(side, of: bounds).contains(global)
    }

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

/// A corner of the screen.
public enum Corner: String, Hashable, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The square of `side` pixels in this corner of `bounds` (the whole of `bounds` when it
    /// is smaller).
    public func square(_ side: Double, of bounds: Rect) -> Rect {
        let w = Int(min(max(side, 1), Double(bounds.width)).rounded(.up)), h = Int(min(max(side, 1), Double(bounds.height)).rounded(.up))
        let left = self == .topLeft || self == .bottomLeft, top = self == .topLeft || self == .topRight
        return Rect(x: left ? bounds.x : bounds.maxX - w, y: top ? bounds.y : bounds.maxY - h, width: max(w, 0), height: max(h, 0))
    }
}
