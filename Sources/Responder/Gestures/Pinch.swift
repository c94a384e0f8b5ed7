/// `fingers` fingers spreading apart or closing in: continuous. It begins when their spread
/// (mean distance from their centroid) has grown by `scale` or shrunk by its inverse, against
/// the spread when the last of them came down; `direction` limits it to one of the two. It
/// fails if a finger lifts before it begins, if the fingers do not all come down within
/// `gatherTime`, or if they travel together `maximumTranslation` pixels first (a swipe).
public struct Pinch: GestureRecognizer, Sendable {
    public enum Direction: String, Hashable, Sendable, CaseIterable { case apart, together }

    public var scale: Double
    public var direction: Direction?
    public var maximumTranslation: Double
    private var group: FingerGroup
    /// The spread when the fingers were all down; nil while gathering.
    private var startSpread: Double?

    public var fingers: Int { group.fingers }
    public var fingerCount: Int? { group.fingers }
    public var touchpadKind: TouchpadGesture? { .pinch }
    public var gatherTime: Duration { group.gatherTime }
    public var deadline: Instant? { group.deadline }

    public init(
        fingers: Int = 2, scale: Double = 1.25, direction: Direction? = nil, maximumTranslation: Double = 80,
        gatherTime: Duration = .milliseconds(150)
    ) {
        self.scale = max(1, scale)
        self.direction = direction
        self.maximumTranslation = maximumTranslation
        group = FingerGroup(fingers: max(2, fingers), gatherTime: gatherTime)
    }

    public func wantsTouch(at global: Point, in bounds: Rect) -> Bool { group.wantsFinger }

    public var detail: GestureDetail {
        GestureDetail(
            location: group.taken.centroid, translation: group.translation,
            scale: startSpread.map { group.taken.spread / $0 } ?? 1, count: group.taken.count
        )
    }

    public mutating func handle(_ input: GestureInput) -> GestureState {
        let moved = group.handle(input)
        // Fingers landing on one spot have no spread to scale; one pixel stands in.
        if startSpread == nil, group.origin != nil { startSpread = max(1, group.taken.spread) }
        if moved { judge() }
        return group.state
    }

    public mutating func reset() {
        group.reset()
        startSpread = nil
    }

    private mutating func judge() {
        guard let startSpread else { return }
        let t = group.translation
        if t.x * t.x + t.y * t.y > maximumTranslation * maximumTranslation {
            group.fail()
            return
        }
        let ratio = group.taken.spread / startSpread
        if (ratio >= scale && direction != .together) || (ratio * scale <= 1 && direction != .apart) { group.state = .began }
    }
}
