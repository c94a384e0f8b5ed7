/// One filter between a touchscreen and routing: it reads each of the device's touch events
/// and passes it on, changed or not, holds it for later, or drops it. A stage knows only its
/// own fault; `TouchFilters` puts the stages in order, numbers touches and keeps frames.
///
/// Touches a stage does not know (down before the stage was made) pass it unchanged.
protocol TouchStage {
    /// What becomes of `event` (a touch down, motion, up or cancel).
    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult
    /// When the stage wants `fire` called, if it holds anything.
    var deadline: Instant? { get }
    /// Releases (or makes up) what is due at `now`, in order, into `released`.
    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes)
}

extension TouchStage {
    var deadline: Instant? { nil }
    mutating func fire(at now: Instant, into released: inout [InputEvent], _ notes: inout TouchStageNotes) {}
}

/// What a stage made of one event.
enum StageResult {
    case pass(InputEvent)
    /// Two events, in this order (a held lift let go before a new down).
    case passBoth(InputEvent, InputEvent)
    case drop
}

/// Findings a stage makes while it runs; the pipeline stamps them with the device.
struct TouchStageNotes {
    enum Finding {
        case filter(TouchFilterReport.Finding)
        case accommodation(AccommodationReport.Finding)
    }

    var findings: [(touch: Int32, finding: Finding, at: Point, time: Instant)] = []

    mutating func note(_ touch: Int32, _ finding: TouchFilterReport.Finding, at: Point, time: Instant) {
        findings.append((touch, .filter(finding), at, time))
    }

    mutating func note(_ touch: Int32, _ finding: AccommodationReport.Finding, at: Point, time: Instant) {
        findings.append((touch, .accommodation(finding), at, time))
    }
}

extension InputEvent {
    /// The touch a touch event is about; nil for a frame and every other kind.
    var touchID: Int32? {
        switch self {
        case .touchDown(let id, _, _), .touchMotion(let id, _, _), .touchUp(let id, _), .touchCancel(let id, _): id
        default: nil
        }
    }

    var touchTime: Instant? {
        switch self {
        case .touchDown(_, _, let time), .touchMotion(_, _, let time), .touchUp(_, let time), .touchCancel(_, let time): time
        default: nil
        }
    }

    /// The same touch event for touch `id`.
    func renamed(_ id: Int32) -> InputEvent {
        switch self {
        case .touchDown(_, let global, let time): .touchDown(id: id, global: global, time: time)
        case .touchMotion(_, let global, let time): .touchMotion(id: id, global: global, time: time)
        case .touchUp(_, let time): .touchUp(id: id, time: time)
        case .touchCancel(_, let time): .touchCancel(id: id, time: time)
        default: self
        }
    }
}

extension Instant {
    /// `self + duration`, held at the end of time rather than wrapping: a device's (or an
    /// embedder's) clock is not ours to trust.
    func saturating(_ duration: Duration) -> Instant {
        let (sum, overflow) = microseconds.addingReportingOverflow(UInt64(clamping: max(0, duration.microseconds)))
        return Instant(microseconds: overflow ? .max : sum)
    }

    /// `self - earlier`, never negative (a clock that went back).
    public func since(_ earlier: Instant) -> Duration {
        .microseconds(Int64(clamping: microseconds >= earlier.microseconds ? microseconds - earlier.microseconds : 0))
    }
}

extension Point {
    /// Squared, so the core needs no square root to compare distances.
    func distanceSquared(to other: Point) -> Double {
        let (dx, dy) = (x - other.x, y - other.y)
        return dx * dx + dy * dy
    }
}
