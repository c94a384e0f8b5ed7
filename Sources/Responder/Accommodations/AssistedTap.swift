/// `tap-assistance`: for someone whose finger slides as it taps (on as it lands, or off as
/// it lifts). A touch's events wait for the delay; a touch that lifts inside it is a tap,
/// a down and an up at its first place (`initial`) or its last (`final`), with no motion
/// between. A touch that outlasts the delay goes on as the finger made it, its waiting
/// events let go in order with their own times: a drag or a long press is only late.
struct AssistedTap: TouchStage {
    let mode: TapAssistance
    let delay: Duration

    private struct Waiting {
        var id: Int32
        var first: Point
        var last: Point
        var time: Instant
        var motions: [InputEvent]
    }
    private var waiting: [Waiting] = []

    init(mode: TapAssistance, delay: Duration) {
        self.mode = mode
        self.delay = delay
        waiting.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            waiting.append(Waiting(id: id, first: global, last: global, time: time, motions: []))
            return .drop
        case .touchMotion(let id, let global, _):
            guard let k = waiting.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            waiting[k].last = global
            waiting[k].motions.append(event)
            return .drop
        case .touchUp(let id, let time):
            guard let k = waiting.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            let touch = waiting.remove(at: k)
            let place = mode == .final ? touch.last : touch.first
            let slid = (touch.last.distanceSquared(to: touch.first).squareRoot() * 10).rounded() / 10
            notes.note(id, .tap(mode, lasted: time.since(touch.time), slid: slid), at: place, time: time)
            return .passBoth(.touchDown(id: id, global: place, time: touch.time), event)
        case .touchCancel(let id, _):
            guard let k = waiting.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            waiting.remove(at: k)
            return .drop
        default:
            return .pass(event)
        }
    }

    var deadline: Instant? { waiting.lazy.map { $0.time.saturating(delay) }.min() }

    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {
        while let k = waiting.firstIndex(where: { $0.time.saturating(delay) <= now }) {
            let touch = waiting.remove(at: k)
            notes.note(touch.id, .delayed(now.since(touch.time)), at: touch.last, time: now)
            released.append(.touchDown(id: touch.id, global: touch.first, time: touch.time))
            released.append(contentsOf: touch.motions)
        }
    }

    var isIdle: Bool { waiting.isEmpty }
}
