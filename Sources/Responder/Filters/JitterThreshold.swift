/// `jitter`: a finger at rest on a noisy panel wanders a few pixels, which turns a press
/// into a drag or a scroll in most toolkits. Until the finger has once moved the threshold
/// away from its down, its motion is held back; from then on every motion goes on, starting
/// from where the finger is (no offset is kept, so nothing jumps later). Like libinput's
/// touchpad hysteresis, but for touchscreens, where libinput has none.
struct JitterThreshold: TouchStage {
    let radius: Double
    /// Touches that have not yet left their down's radius.
    private var still: [(id: Int32, down: Point, noted: Bool)] = []

    init(radius: Double) {
        self.radius = radius
        still.reserveCapacity(8)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, _):
            still.append((id, global, false))
        case .touchMotion(let id, let global, let time):
            guard let k = still.firstIndex(where: { $0.id == id }) else { break }
            guard global.distanceSquared(to: still[k].down) < radius * radius else {
                still.remove(at: k)
                break
            }
            if !still[k].noted {
                still[k].noted = true
                notes.note(id, .heldStill(radius: radius), at: global, time: time)
            }
            return .drop
        case .touchUp(let id, _), .touchCancel(let id, _):
            if let k = still.firstIndex(where: { $0.id == id }) { still.remove(at: k) }
        default:
            break
        }
        return .pass(event)
    }
}
