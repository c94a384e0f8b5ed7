/// `debounce`: a panel whose contact bounces reports one tap as two, a lift and a new down
/// a few milliseconds apart, at nearly the same place. Each lift is held for the window; a
/// down within it, near where the lift was, continues the lifted touch (its owner sees a
/// motion, if anything), so a bounced tap is one tap and a bounced drag one drag. A lift no
/// down follows goes on when the window ends, with its own time: that wait is what a
/// debounce costs every lift.
struct Debounce: TouchStage {
    /// How soon after a lift a down must come to be a bounce.
    let window: Duration
    let radius: Double
    /// How long a lift is held: the window, and longer when an earlier stage holds downs back
    /// (`min-contact`), so that a bounce's down arrives before its lift is let go.
    let hold: Duration

    private struct Touch {
        var id: Int32
        var at: Point
    }
    private struct Lifted {
        var id: Int32
        var at: Point
        var up: InputEvent
        var time: Instant
    }
    /// Touches down now, as the stages after this one know them.
    private var live: [Touch] = []
    private var lifted: [Lifted] = []
    /// Touches that continue an earlier one: their events go on under its id.
    private var aliases: [(id: Int32, continues: Int32)] = []

    init(window: Duration, radius: Double, hold: Duration) {
        self.window = window
        self.radius = radius
        self.hold = hold
        live.reserveCapacity(8)
        lifted.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            if let k = bounced(at: global, time) {
                let lift = lifted.remove(at: k)
                aliases.append((id, lift.id))
                live.append(Touch(id: lift.id, at: global))
                let distance = (global.distanceSquared(to: lift.at).squareRoot() * 10).rounded() / 10
                notes.note(id, .bounce(continues: lift.id, gap: time.since(lift.time), distance: distance), at: global, time: time)
                return global == lift.at ? .drop : .pass(.touchMotion(id: lift.id, global: global, time: time))
            }
            live.append(Touch(id: id, at: global))
            return .pass(event)
        case .touchMotion(let id, let global, _):
            let id = continued(id)
            if let k = live.firstIndex(where: { $0.id == id }) { live[k].at = global }
            return .pass(event.renamed(id))
        case .touchUp(let input, let time):
            let id = continued(input)
            forgetAlias(input)
            guard let k = live.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            let touch = live.remove(at: k)
            lifted.append(Lifted(id: id, at: touch.at, up: event.renamed(id), time: time))
            return .drop
        case .touchCancel(let input, _):
            let id = continued(input)
            forgetAlias(input)
            live.removeAll { $0.id == id }
            return .pass(event.renamed(id))
        default:
            return .pass(event)
        }
    }

    var deadline: Instant? { lifted.lazy.map { $0.time.saturating(hold) }.min() }

    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {
        while let k = lifted.firstIndex(where: { $0.time.saturating(hold) <= now }) {
            released.append(lifted.remove(at: k).up)
        }
    }

    /// The held lift that a down at `global`, at `time`, bounces from: the nearest within
    /// the radius whose window it falls in.
    private func bounced(at global: Point, _ time: Instant) -> Int? {
        var best: (k: Int, distance: Double)?
        for (k, lift) in lifted.enumerated() where time >= lift.time && time.since(lift.time) <= window {
            let d = global.distanceSquared(to: lift.at)
            if d <= radius * radius, d < best?.distance ?? .infinity { best = (k, d) }
        }
        return best?.k
    }

    private func continued(_ id: Int32) -> Int32 {
        aliases.first { $0.id == id }?.continues ?? id
    }

    private mutating func forgetAlias(_ id: Int32) {
        if let k = aliases.firstIndex(where: { $0.id == id }) { aliases.remove(at: k) }
    }
}
