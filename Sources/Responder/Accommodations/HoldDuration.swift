/// `hold-duration`: a touch counts only once the finger has stayed on the glass, within the
/// slop of where it came down, for the duration: a brush or a tremor's touch goes nowhere.
/// While it counts, its down is held and the compositor draws a ring that fills under the
/// finger (`rings`). Once it counts, the down goes on where the finger is then, stamped
/// with that moment, and the rest of the touch as usual; a lift or a slide before that
/// drops all of it.
struct HoldDuration: TouchStage {
    let duration: Duration
    let slop: Double

    private struct Counting {
        var id: Int32
        var down: Point
        var at: Point
        var time: Instant
    }
    private var counting: [Counting] = []
    /// Touches that moved away or whose hold was cut short by nothing counting: their later
    /// events go nowhere.
    private var dropped: [Int32] = []

    init(duration: Duration, slop: Double) {
        self.duration = duration
        self.slop = slop
        counting.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            counting.append(Counting(id: id, down: global, at: global, time: time))
            return .drop
        case .touchMotion(let id, let global, _):
            if dropped.contains(id) { return .drop }
            guard let k = counting.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            let distance = global.distanceSquared(to: counting[k].down)
            if distance > slop * slop {
                let touch = counting.remove(at: k)
                dropped.append(id)
                notes.note(id, .movedAway(distance: (distance.squareRoot() * 10).rounded() / 10), at: global, time: event.touchTime ?? touch.time)
            } else {
                counting[k].at = global
            }
            return .drop
        case .touchUp(let id, let time), .touchCancel(let id, let time):
            if let k = dropped.firstIndex(of: id) {
                dropped.remove(at: k)
                return .drop
            }
            guard let k = counting.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            let touch = counting.remove(at: k)
            if case .touchUp = event { notes.note(id, .liftedTooSoon(lasted: time.since(touch.time)), at: touch.at, time: time) }
            return .drop
        default:
            return .pass(event)
        }
    }

    var deadline: Instant? { counting.lazy.map { $0.time.saturating(duration) }.min() }

    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {
        while let k = counting.firstIndex(where: { $0.time.saturating(duration) <= now }) {
            let touch = counting.remove(at: k)
            let counted = touch.time.saturating(duration)
            notes.note(touch.id, .counted(held: counted.since(touch.time)), at: touch.at, time: counted)
            released.append(.touchDown(id: touch.id, global: touch.at, time: counted))
        }
    }

    var isIdle: Bool { counting.isEmpty && dropped.isEmpty }

    /// A ring under each finger still counting, at where the finger is.
    func appendRings(to rings: inout [TouchRing]) {
        for touch in counting {
            rings.append(TouchRing(touch: touch.id, at: touch.at, start: touch.time, end: touch.time.saturating(duration), purpose: .holdDuration))
        }
    }
}
