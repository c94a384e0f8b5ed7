/// `ignore-repeat`: a hand with a tremor touches the same place two or three times for one
/// intended tap. A touch that starts within the window of the start of the last touch that
/// went on, and within the radius of where that one started, is a repeat: all of it goes
/// nowhere, so the app sees the first touch alone. The window runs from the touch that went
/// on, not from each repeat, so a tremor cannot stretch it. A touch elsewhere is a new
/// intent and goes on, however soon.
struct IgnoreRepeat: TouchStage {
    let window: Duration
    let radius: Double

    private var last: (id: Int32, at: Point, time: Instant)?
    private var ignored: [Int32] = []

    init(window: Duration, radius: Double) {
        self.window = window
        self.radius = radius
        ignored.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            if let last, time >= last.time, time.since(last.time) <= window, global.distanceSquared(to: last.at) <= radius * radius {
                ignored.append(id)
                let distance = (global.distanceSquared(to: last.at).squareRoot() * 10).rounded() / 10
                notes.note(id, .repeatOf(last.id, after: time.since(last.time), distance: distance), at: global, time: time)
                return .drop
            }
            last = (id, global, time)
            return .pass(event)
        case .touchMotion(let id, _, _):
            return ignored.contains(id) ? .drop : .pass(event)
        case .touchUp(let id, _), .touchCancel(let id, _):
            guard let k = ignored.firstIndex(of: id) else { return .pass(event) }
            ignored.remove(at: k)
            return .drop
        default:
            return .pass(event)
        }
    }

    var isIdle: Bool { ignored.isEmpty }
}
