/// The stages a touchscreen's touches pass before routing: the repairs for what panels do in
/// the field (`TouchFilterSettings`), per device.
///
/// ```
///  device ─▶ stuck ─▶ dead-zone ─▶ min-contact ─▶ debounce ─▶ jitter ─▶ smoothing ─▶ InputRouter
///   (raw ids)                                                                  (ids unique on the seat)
/// ```
///
/// Stuck contacts are found first, on what the device really said; dead zones and ghosts are
/// dropped before a bounce can join them to a real touch; the jitter threshold and the
/// smoothing see motion only of touches that go somewhere. Each stage is its own file.
///
/// A value type driven from one thread, like `InputRouter`, and on the same clock: stages
/// that hold events ask for `nextDeadline`, and the caller calls `fireDeadlines(at:into:)`
/// then, beside the recognizers' deadlines. Touches are numbered afresh when a stage keeps
/// an id alive that the device has let go of (a held lift, a bounce's continued touch), so
/// the router never sees one id twice. Events of devices without filters, and every event
/// that is not a touch, pass at once.
public struct TouchFilters {
    /// The stages in the order they run.
    enum Stage: Int, CaseIterable {
        case stuck, deadZones, minimumContact, debounce, jitter, smoothing
    }

    struct Device {
        let id: InputDeviceID
        var settings: TouchFilterSettings
        /// Settings given while touches were under way: applied once the device is quiet.
        var pending: TouchFilterSettings?
        var stuck: StuckContacts?
        var deadZones: DeadZones?
        var minimumContact: MinimumContact?
        var debounce: Debounce?
        var jitter: JitterThreshold?
        var smoothing: Smoothing?

        init(_ id: InputDeviceID, _ settings: TouchFilterSettings) {
            self.id = id
            self.settings = settings
            stuck = settings.stuckAfter.map { StuckContacts(after: $0) }
            deadZones = settings.deadZones.isEmpty ? nil : DeadZones(zones: settings.deadZones)
            minimumContact = settings.minimumContact.map { MinimumContact(minimum: $0) }
            debounce = settings.debounce.map {
                Debounce(window: $0, radius: settings.debounceRadius, hold: $0 + (settings.minimumContact ?? .zero))
            }
            jitter = settings.jitter.map { JitterThreshold(radius: $0) }
            smoothing = settings.smoothing.map { Smoothing(settings: $0) }
        }

        var deadline: Instant? {
            earliest(earliest(stuck?.deadline, minimumContact?.deadline), debounce?.deadline)
        }
    }

    private var devices: [Device] = []
    /// Touches the devices have down now: the device's number, and the one routing uses.
    private var touchIDs: [(device: InputDeviceID, raw: Int32, id: Int32)] = []
    /// Ids the router has down now (a held lift's included).
    private var routed: [Int32] = []
    /// Whether events went on since the last frame.
    private var owesFrame = false
    private var notes = TouchStageNotes()

    public init() {
        touchIDs.reserveCapacity(16)
        routed.reserveCapacity(16)
    }

    /// The filters `device` was last given (those waiting for its touches to end, if any);
    /// nil for a device never given any, or forgotten.
    public func settings(of device: InputDeviceID) -> TouchFilterSettings? {
        devices.first { $0.id == device }.map { $0.pending ?? $0.settings }
    }

    /// Gives `device` these filters (none: `settings.isEmpty`). A device with touches under
    /// way keeps its old stages until they have all ended, so no touch changes filters midway.
    public mutating func setFilters(_ settings: TouchFilterSettings, for device: InputDeviceID) {
        guard let d = devices.firstIndex(where: { $0.id == device }) else {
            if !settings.isEmpty { devices.append(Device(device, settings)) }
            return
        }
        devices[d].pending = settings
        applyPendingSettings(d)
    }

    /// The device was unplugged (libinput has cancelled its touches already): lifts its
    /// debounce still held go on now, so that no app is left with a touch that never ends,
    /// and the rest of what its stages kept is forgotten.
    public mutating func forget(_ device: InputDeviceID, into output: inout some TouchFilterOutput) {
        guard let d = devices.firstIndex(where: { $0.id == device }) else { return }
        var released: [InputEvent] = []
        devices[d].debounce?.fire(at: Instant(microseconds: .max), into: &released, &notes)
        for event in released { run(event, from: .jitter, d, &output) }
        notes.findings.removeAll(keepingCapacity: true)
        endFrame(&output)
        devices.remove(at: d)
        touchIDs.removeAll { $0.device == device }
    }

    /// Runs one of `device`'s events through its stages; what comes out goes to `output`.
    public mutating func filter(_ event: InputEvent, from device: InputDeviceID, into output: inout some TouchFilterOutput) {
        guard let d = devices.firstIndex(where: { $0.id == device }) else { return output.pass(event) }
        guard let raw = event.touchID else {
            if case .touchFrame = event { return endFrame(&output) }
            return output.pass(event)
        }
        let known = touchIDs.firstIndex { $0.device == device && $0.raw == raw }
        let id: Int32
        switch (event, known) {
        case (.touchDown, nil):
            id = unusedID(preferring: raw)
            touchIDs.append((device, raw, id))
        case (_, let k?):
            id = touchIDs[k].id
        default:
            // Not a touch this device has down: the router says so.
            return output.pass(event)
        }
        if case .touchDown = event, known != nil {
            return output.pass(event.renamed(id))
        }
        run(event.renamed(id), from: .stuck, d, &output)
        switch event {
        case .touchUp, .touchCancel:
            touchIDs.removeAll { $0.device == device && $0.raw == raw }
            applyPendingSettings(d)
        default: break
        }
        report(device, &output)
    }

    /// The earliest time a stage wants `fireDeadlines(at:into:)`.
    public var nextDeadline: Instant? {
        devices.reduce(nil) { earliest($0, $1.deadline) }
    }

    /// Lets go of what is due at `now` (held downs and lifts, stuck contacts' cancels), each
    /// through the stages after the one that held it, then a frame.
    public mutating func fireDeadlines(at now: Instant, into output: inout some TouchFilterOutput) {
        for d in devices.indices {
            guard let deadline = devices[d].deadline, deadline <= now else { continue }
            for stage in [Stage.stuck, .minimumContact, .debounce] {
                var released: [InputEvent] = []
                switch stage {
                case .stuck: devices[d].stuck?.fire(at: now, into: &released, &notes)
                case .minimumContact: devices[d].minimumContact?.fire(at: now, into: &released, &notes)
                default: devices[d].debounce?.fire(at: now, into: &released, &notes)
                }
                for event in released { run(event, from: Stage(rawValue: stage.rawValue + 1)!, d, &output) }
            }
            report(devices[d].id, &output)
            applyPendingSettings(d)
        }
        endFrame(&output)
    }

    private mutating func run(_ event: InputEvent, from stage: Stage, _ d: Int, _ output: inout some TouchFilterOutput) {
        let result: StageResult?
        switch stage {
        case .stuck: result = devices[d].stuck?.process(event, &notes)
        case .deadZones: result = devices[d].deadZones?.process(event, &notes)
        case .minimumContact: result = devices[d].minimumContact?.process(event, &notes)
        case .debounce: result = devices[d].debounce?.process(event, &notes)
        case .jitter: result = devices[d].jitter?.process(event, &notes)
        case .smoothing: result = devices[d].smoothing?.process(event, &notes)
        }
        guard let next = Stage(rawValue: stage.rawValue + 1) else {
            switch result ?? .pass(event) {
            case .pass(let e): emit(e, &output)
            case .passBoth(let a, let b): emit(a, &output); emit(b, &output)
            case .drop: break
            }
            return
        }
        switch result ?? .pass(event) {
        case .pass(let e): run(e, from: next, d, &output)
        case .passBoth(let a, let b): run(a, from: next, d, &output); run(b, from: next, d, &output)
        case .drop: break
        }
    }

    private mutating func emit(_ event: InputEvent, _ output: inout some TouchFilterOutput) {
        switch event {
        case .touchDown(let id, _, _): routed.append(id)
        case .touchUp(let id, _), .touchCancel(let id, _): if let k = routed.firstIndex(of: id) { routed.remove(at: k) }
        default: break
        }
        owesFrame = true
        output.pass(event)
    }

    private mutating func endFrame(_ output: inout some TouchFilterOutput) {
        guard owesFrame else { return }
        owesFrame = false
        output.pass(.touchFrame)
    }

    private mutating func report(_ device: InputDeviceID, _ output: inout some TouchFilterOutput) {
        guard !notes.findings.isEmpty else { return }
        for f in notes.findings {
            guard case .filter(let finding) = f.finding else { continue }
            output.report(TouchFilterReport(device: device, touch: f.touch, finding: finding, at: f.at, time: f.time))
        }
        notes.findings.removeAll(keepingCapacity: true)
    }

    /// The device's own number for the touch if nobody uses it, else the lowest free one.
    private func unusedID(preferring raw: Int32) -> Int32 {
        func used(_ id: Int32) -> Bool { routed.contains(id) || touchIDs.contains { $0.id == id } }
        guard used(raw) else { return raw }
        var id: Int32 = 0
        while used(id) { id += 1 }
        return id
    }

    private mutating func applyPendingSettings(_ d: Int) {
        guard let pending = devices[d].pending, !touchIDs.contains(where: { $0.device == devices[d].id }), devices[d].deadline == nil else { return }
        devices[d] = Device(devices[d].id, pending)
    }
}

private func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
    guard let a, let b else { return a ?? b }
    return min(a, b)
}

/// Where `TouchFilters` puts what comes out of its stages.
public protocol TouchFilterOutput {
    /// An event to route, in order (frames included).
    mutating func pass(_ event: InputEvent)
    /// What a filter did, once per touch and filter.
    mutating func report(_ report: TouchFilterReport)
}

/// Keeps everything it is given: the tests' output, and the libtactile's before routing.
public struct RecordingFilterOutput: TouchFilterOutput {
    public var events: [InputEvent] = []
    public var reports: [TouchFilterReport] = []
    public init() {}
    public mutating func pass(_ event: InputEvent) { events.append(event) }
    public mutating func report(_ report: TouchFilterReport) { reports.append(report) }
}
