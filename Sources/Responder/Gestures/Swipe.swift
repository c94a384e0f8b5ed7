/// `fingers` fingers moving together `distance` pixels, in `direction` if one is given:
/// continuous. The fingers must all come down within `gatherTime` of the first; it fails if
/// one lifts before it begins, if a finger travels `distance` before the others arrive (a
/// drag, not a swipe), or if the fingers go that far the wrong way. It ends when a finger
/// lifts. Its translation is the fingers' centroid's, from where they all were down.
public struct Swipe: GestureRecognizer, Sendable {
    public enum Direction: String, Hashable, Sendable, CaseIterable { case left, right, up, down }

    public var direction: Direction?
    public var distance: Double
    private var group: FingerGroup

    public var fingers: Int { group.fingers }
    public var fingerCount: Int? { group.fingers }
    public var touchpadKind: TouchpadGesture? { .swipe }
    public var gatherTime: Duration { group.gatherTime }
    public var deadline: Instant? { group.deadline }

    public init(fingers: Int = 3, direction: Direction? = nil, distance: Double = 100, gatherTime: Duration = .milliseconds(150)) {
        self.direction = direction
        self.distance = distance
        group = FingerGroup(fingers: max(1, fingers), gatherTime: gatherTime)
    }

    /// Fingers until it has enough; more are not its business.
    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool { group.wantsFinger }

    public var detail: GestureDetail {
        GestureDetail(location: group.taken.centroid, translation: group.translation, count: group.taken.count)
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        if group.handle(input) { judge() }
        return group.state
    }

    public mutating func reset() { group.reset() }

    /// Still gathering: a finger that travels far is a drag. Gathered: begin once far enough
    /// the right way, fail once as far any other way.
    private mutating func judge() {
        guard group.origin != nil else {
            if group.taken.anyMoved(beyond: distance) { group.fail() }
            return
        }
        let t = group.translation
        guard let direction else {
            if max(abs(t.x), abs(t.y)) >= distance { group.state = .began }
            return
        }
        let (along, across) = switch direction {
        case .left: (-t.x, t.y)
        case .right: (t.x, t.y)
        case .up: (-t.y, t.x)
        case .down: (t.y, t.x)
        }
        if along >= distance { group.state = .began } else if abs(across) >= distance || along <= -distance { group.fail() }
    }
}
