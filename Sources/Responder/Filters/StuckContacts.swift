/// `stuck-after`: a contact the sensor never lets go of holds a button down and blocks every
/// gesture until someone resets the panel. A finger resting on glass still moves a little,
/// and a panel reports it; a device on which nothing at all has changed for this long while
/// contacts are down has stuck ones. They end as cancelled, and what the device says of them
/// later (their motion, their lift) goes nowhere.
struct StuckContacts: TouchStage {
    let after: Duration
    private var down: [(id: Int32, at: Point)] = []
    /// Touches ended here, whose events are dropped until the device ends them too.
    private var ended: [Int32] = []
    /// The device's last event, of any of its touches.
    private var lastChange = Instant.zero

    init(after: Duration) {
        self.after = after
        down.reserveCapacity(8)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        guard let id = event.touchID, let time = event.touchTime else { return .pass(event) }
        if let k = ended.firstIndex(of: id) {
            if case .touchDown = event {
                ended.remove(at: k)
            } else {
                if case .touchMotion = event {} else { ended.remove(at: k) }
                return .drop
            }
        }
        lastChange = max(lastChange, time)
        switch event {
        case .touchDown(_, let global, _): down.append((id, global))
        case .touchMotion(_, let global, _): if let k = down.firstIndex(where: { $0.id == id }) { down[k].at = global }
        default: down.removeAll { $0.id == id }
        }
        return .pass(event)
    }

    var deadline: Instant? { down.isEmpty ? nil : lastChange.saturating(after) }

    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {
        guard !down.isEmpty, lastChange.saturating(after) <= now else { return }
        for touch in down {
            notes.note(touch.id, .stuck(still: now.since(lastChange)), at: touch.at, time: now)
            released.append(.touchCancel(id: touch.id, time: now))
            ended.append(touch.id)
        }
        down.removeAll(keepingCapacity: true)
    }
}
