/// A swipe that starts within `startBand` pixels of one edge of its node (the output, for a
/// system gesture) and travels `distance` pixels inward: continuous, one finger. Touches
/// starting elsewhere, and other fingers, are not its business. It fails if the finger lifts
/// first, or drifts sideways by more than `distance` before going inward that far.
public struct EdgeSwipe: GestureRecognizer, Sendable {
    public var edge: Edge
    public var startBand: Double
    public var distance: Double
    /// How far the finger is in from where it started, along the inward direction.
    public private(set) var progress: Double = 0
    private var finger: Int32?
    private var start = Point(x: 0, y: 0)
    private var current = Point(x: 0, y: 0)
    private var state = GestureState.possible

    public init(edge: Edge, startBand: Double = 24, distance: Double = 80) {
        self.edge = edge
        self.startBand = startBand
        self.distance = distance
    }

    public var deadline: Instant? { nil }
    public var systemEdge: Edge? { edge }
    public var detail: GestureDetail {
        GestureDetail(location: current, translation: current.offset(from: start), count: finger == nil ? 0 : 1)
    }

    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool {
        finger == nil && inset(of: global, in: bounds) < startBand
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        switch input {
        case .down(let id, let global, _):
            finger = id
            start = global
            current = global
        case .motion(let id, let global, _) where id == finger:
            current = global
            let (inward, sideways) = travel(to: global)
            progress = inward
            switch state {
            case .possible:
                if inward >= distance { state = .began } else if abs(sideways) > distance || inward < -startBand { return fail() }
            case .began, .changed: state = .changed
            default: break
            }
        case .up(let id, _) where id == finger:
            state = state == .possible ? .failed : (state.isLive ? .ended : state)
        case .cancel(let id, _) where id == finger:
            state = state == .possible ? .failed : (state.isLive ? .cancelled : state)
        default: break
        }
        return state
    }

    public mutating func reset() {
        finger = nil
        progress = 0
        state = .possible
    }

    private mutating func fail() -> GestureState {
        state = .failed
        return state
    }

    /// How far `p` is inside the edge.
    private func inset(of p: Point, in b: Rect) -> Double {
        switch edge {
        case .left: p.x - Double(b.x)
        case .right: Double(b.maxX) - p.x
        case .top: p.y - Double(b.y)
        case .bottom: Double(b.maxY) - p.y
        }
    }

    private func travel(to p: Point) -> (inward: Double, sideways: Double) {
        let (dx, dy) = (p.x - start.x, p.y - start.y)
        return switch edge {
        case .left: (dx, dy)
        case .right: (-dx, dy)
        case .top: (dy, dx)
        case .bottom: (-dy, dx)
        }
    }
}
