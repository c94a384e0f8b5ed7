/// `min-contact`: a contact that lifts within the minimum without having moved is a ghost (a
/// flicker of the sensor, a drop of water) and goes nowhere. To know that, every touch-down
/// waits: until the contact has lasted the minimum, or until it moves, whichever comes
/// first; then the down goes on with its own time, followed by the motion that freed it.
struct MinimumContact: TouchStage {
    let minimum: Duration
    /// How far a contact must move to be a finger, not a ghost: one pixel, less than any
    /// finger's slide and more than a ghost's rounding.
    static let movement = 1.0

    private struct Held {
        var down: InputEvent
        var id: Int32
        var at: Point
        var time: Instant
    }
    private var held: [Held] = []

    init(minimum: Duration) {
        self.minimum = minimum
        held.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            held.append(Held(down: event, id: id, at: global, time: time))
            return .drop
        case .touchMotion(let id, let global, _):
            guard let k = held.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            if global.distanceSquared(to: held[k].at) < Self.movement * Self.movement { return .drop }
            return .passBoth(held.remove(at: k).down, event)
        case .touchUp(let id, let time):
            guard let k = held.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            let ghost = held.remove(at: k)
            notes.note(id, .ghost(lasted: time.since(ghost.time)), at: ghost.at, time: time)
            return .drop
        case .touchCancel(let id, _):
            guard let k = held.firstIndex(where: { $0.id == id }) else { return .pass(event) }
            held.remove(at: k)
            return .drop
        default:
            return .pass(event)
        }
    }

    var deadline: Instant? { held.lazy.map { $0.time.saturating(minimum) }.min() }

    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {
        while let k = held.firstIndex(where: { $0.time.saturating(minimum) <= now }) {
            released.append(held.remove(at: k).down)
        }
    }
}
