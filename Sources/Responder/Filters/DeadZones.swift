/// `dead-zones`: a touch that comes down inside a zone goes nowhere (apps, gestures, the
/// pointer), for its whole life; one that comes down outside and slides in goes on, since a
/// person is dragging. For a corner that fires by itself, or a bezel that gets wet.
struct DeadZones: TouchStage {
    /// In global layout pixels.
    let zones: [Rect]
    /// Touches that came down in a zone, until they end.
    private var dropped: [Int32] = []

    init(zones: [Rect]) {
        self.zones = zones
        dropped.reserveCapacity(4)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            guard let zone = zones.first(where: { $0.contains(global) }) else { return .pass(event) }
            dropped.append(id)
            notes.note(id, .inDeadZone(zone), at: global, time: time)
            return .drop
        case .touchMotion(let id, _, _):
            return dropped.contains(id) ? .drop : .pass(event)
        case .touchUp(let id, _), .touchCancel(let id, _):
            guard let k = dropped.firstIndex(of: id) else { return .pass(event) }
            dropped.remove(at: k)
            return .drop
        default:
            return .pass(event)
        }
    }
}
