/// The touch accommodations (`AccommodationSettings`) between the touchscreens' filters and
/// routing, for the whole seat: what a person who taps unlike a steady hand needs from every
/// touch, as iOS's Touch Accommodations and Android's touch-and-hold delay give it.
///
/// ```
///  TouchFilters ─▶ ignore-repeat ─▶ hold-duration ─▶ tap-assistance ─▶ InputRouter
/// ```
///
/// A repeat is dropped before it can count as a hold; a touch's tap-assistance delay runs
/// from the moment its hold counted. Each stage is its own file, on the filters'
/// `TouchStage`; a touch that comes down where the caller exempts it (`exemption`: an app's
/// window rule, a system edge swipe's edge) passes every stage as it is, so a swipe from the
/// edge is a swipe from its first frame. No stage keeps an up past the device's, so ids
/// stay as the filters numbered them.
///
/// A value type driven from one thread, on the router's clock: the caller arms a timer for
/// `nextDeadline` and calls `fireDeadlines(at:into:)` then; while a hold counts, `rings`
/// says what to draw under the finger.
public struct TouchAccommodations {
    enum Stage: Int, CaseIterable {
        case ignoreRepeat, holdDuration, tapAssistance
    }

    public private(set) var settings = AccommodationSettings()
    /// Settings given while touches were under way: applied once the seat is quiet.
    private var pending: AccommodationSettings?
    private var ignoreRepeat: IgnoreRepeat?
    private var holdDuration: HoldDuration?
    private var tapAssistance: AssistedTap?
    /// Touches down now, as they came in; and those of them that pass as they are.
    private var down: [Int32] = []
    private var exempt: [Int32] = []
    private var owesFrame = false
    private var notes = TouchStageNotes()

    public init(settings: AccommodationSettings = AccommodationSettings()) {
        down.reserveCapacity(16)
        exempt.reserveCapacity(16)
        apply(settings)
    }

    /// Whether any touch needs to pass through here: off and quiet, the caller may route
    /// touches straight on.
    public var isActive: Bool { !settings.isEmpty || pending != nil || !down.isEmpty }

    /// The settings from the next moment no touch is down (at once, if none is): no touch
    /// changes accommodations midway. Returns whether they apply already.
    @discardableResult
    public mutating func setSettings(_ settings: AccommodationSettings) -> Bool {
        pending = settings
        applyPendingSettings()
        return pending == nil
    }

    /// Runs one touch event through the stages; what comes out goes to `output`, in order,
    /// with frames. At a touch-down `exemption` says whether the touch passes as it is.
    /// Events other than touches pass at once.
    public mutating func accommodate(_ event: InputEvent, into output: inout some AccommodationOutput,
                                     exemption: (Point) -> AccommodationExemption?) {
        guard let id = event.touchID else {
            if case .touchFrame = event { return endFrame(&output) }
            return output.pass(event)
        }
        switch event {
        case .touchDown(_, let global, let time):
            guard !down.contains(id) else { return emit(event, &output) }
            down.append(id)
            if settings.isEmpty { return emit(event, &output) }
            if let reason = exemption(global) {
                exempt.append(id)
                notes.note(id, .exempt(reason), at: global, time: time)
                report(&output)
                return emit(event, &output)
            }
        case .touchUp, .touchCancel:
            down.removeAll { $0 == id }
            if let k = exempt.firstIndex(of: id) {
                exempt.remove(at: k)
                emit(event, &output)
                return applyPendingSettings()
            }
        default:
            if exempt.contains(id) { return emit(event, &output) }
        }
        run(event, from: .ignoreRepeat, &output)
        report(&output)
        if down.isEmpty { applyPendingSettings() }
    }

    /// The earliest time a stage wants `fireDeadlines(at:into:)`.
    public var nextDeadline: Instant? {
        switch (holdDuration?.deadline, tapAssistance?.deadline) {
        case (let a?, let b?): min(a, b)
        case (let a, let b): a ?? b
        }
    }

    /// Lets go of what is due at `now` (holds that counted, touches that outlasted the tap
    /// delay), each through the stages after the one that held it, then a frame.
    public mutating func fireDeadlines(at now: Instant, into output: inout some AccommodationOutput) {
        var released: [InputEvent] = []
        holdDuration?.fire(at: now, into: &released, &notes)
        for event in released { run(event, from: .tapAssistance, &output) }
        released.removeAll()
        tapAssistance?.fire(at: now, into: &released, &notes)
        for event in released { emit(event, &output) }
        report(&output)
        endFrame(&output)
        applyPendingSettings()
    }

    /// The countdowns to draw now: a ring under each finger whose hold is counting.
    public var rings: [TouchRing] {
        var rings: [TouchRing] = []
        holdDuration?.appendRings(to: &rings)
        return rings
    }

    private mutating func run(_ event: InputEvent, from stage: Stage, _ output: inout some AccommodationOutput) {
        let result: StageResult?
        switch stage {
        case .ignoreRepeat: result = ignoreRepeat?.process(event, &notes)
        case .holdDuration: result = holdDuration?.process(event, &notes)
        case .tapAssistance: result = tapAssistance?.process(event, &notes)
        }
        let next = Stage(rawValue: stage.rawValue + 1)
        func go(_ e: InputEvent, _ output: inout some AccommodationOutput) {
            if let next { run(e, from: next, &output) } else { emit(e, &output) }
        }
        switch result ?? .pass(event) {
        case .pass(let e): go(e, &output)
        case .passBoth(let a, let b): go(a, &output); go(b, &output)
        case .drop: break
        }
    }

    private mutating func emit(_ event: InputEvent, _ output: inout some AccommodationOutput) {
        owesFrame = true
        output.pass(event)
    }

    private mutating func endFrame(_ output: inout some AccommodationOutput) {
        guard owesFrame else { return }
        owesFrame = false
        output.pass(.touchFrame)
    }

    private mutating func report(_ output: inout some AccommodationOutput) {
        guard !notes.findings.isEmpty else { return }
        for f in notes.findings {
            guard case .accommodation(let finding) = f.finding else { continue }
            output.report(AccommodationReport(touch: f.touch, finding: finding, at: f.at, time: f.time))
        }
        notes.findings.removeAll(keepingCapacity: true)
    }

    private var isQuiet: Bool {
        down.isEmpty && (ignoreRepeat?.isIdle ?? true) && (holdDuration?.isIdle ?? true) && (tapAssistance?.isIdle ?? true)
    }

    private mutating func applyPendingSettings() {
        guard let pending, isQuiet else { return }
        self.pending = nil
        apply(pending)
    }

    private mutating func apply(_ settings: AccommodationSettings) {
        self.settings = settings
        ignoreRepeat = settings.ignoreRepeat.map { IgnoreRepeat(window: $0, radius: settings.ignoreRepeatRadius) }
        holdDuration = settings.holdDuration.map { HoldDuration(duration: $0, slop: settings.holdSlop) }
        tapAssistance = settings.tapAssistance == .off ? nil : AssistedTap(mode: settings.tapAssistance, delay: settings.tapAssistanceDelay)
    }
}

/// Where `TouchAccommodations` puts what comes out of its stages.
public protocol AccommodationOutput {
    /// An event to route, in order (frames included).
    mutating func pass(_ event: InputEvent)
    /// What an accommodation did, once per touch and accommodation.
    mutating func report(_ report: AccommodationReport)
}

/// Keeps everything it is given: the tests' output, and libtactile's before routing.
public struct RecordingAccommodationOutput: AccommodationOutput {
    public var events: [InputEvent] = []
    public var reports: [AccommodationReport] = []
    public init() {}
    public mutating func pass(_ event: InputEvent) { events.append(event) }
    public mutating func report(_ report: AccommodationReport) { reports.append(report) }
}
