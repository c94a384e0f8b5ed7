import Logging
import Responder

/// The touchscreens' filters on the server (`TouchFilters` in the core): each device's
/// settings from its backend, a timer for what the stages hold, and what they did, for the
/// trace, the log, the metrics and the health answer. Events pass here before anything
/// else sees them but `tactile record`, which keeps what the device said.
final class TouchFiltering: ServerPart {
    private var filters = TouchFilters()
    private var names: [InputDeviceID: String] = [:]
    /// Touches each filter acted on, by device name and filter; counted from zero for each
    /// filter a device has, so a rate can be taken of one never seen.
    private(set) var counts: [FilteredTouches: Int] = [:]
    /// Stuck contacts ended, by device name, and when each device's last was.
    private(set) var stuck: [String: Int] = [:]
    private var lastStuck: [String: Instant] = [:]
    private var timer: DeadlineTimer?
    private var naming: () -> ServerNaming = { fatalError("TouchFiltering.start was not called") }
    /// Kept between calls so that passing an event through allocates nothing: taken out
    /// (`takeSpare`) while in use, so that its buffers have one owner and grow in place.
    private var spare = Output()
    private let tracer: Tracer
    private let logger: Logger

    init(tracer: Tracer, logger: Logger) {
        self.tracer = tracer
        self.logger = logger
    }

    /// The timer that lets go of held events (`fire` routes them), and the trace's names.
    /// Made by the server, which owns this part (so neither keeps the server alive).
    func start(timer: EventSource, naming: @escaping () -> ServerNaming) {
        self.timer = DeadlineTimer(timer)
        self.naming = naming
    }

    func stop() { timer = nil }

    /// `device` filters its touches with `settings` from its next first touch on; nil: the
    /// device is gone, and what its filters held goes to `route` now.
    func set(_ settings: TouchFilterSettings?, for device: InputDeviceID, named name: String, now: Instant, route: (InputEvent) -> Void) {
        guard let settings else {
            var output = takeSpare()
            filters.forget(device, into: &output)
            finish(&output, now: now, route)
            names[device] = nil
            return
        }
        names[device] = name
        filters.setFilters(settings, for: device)
        for filter in settings.filters { counts[FilteredTouches(device: name, filter: filter), default: 0] += 0 }
        if settings.stuckAfter != nil { stuck[name, default: 0] += 0 }
    }

    /// Runs `event` through `device`'s stages; `route` gets what comes out, in order.
    func filter(_ event: InputEvent, from device: InputDeviceID, now: Instant, route: (InputEvent) -> Void) {
        var output = takeSpare()
        filters.filter(event, from: device, into: &output)
        finish(&output, now: now, route)
    }

    /// The timer fired: what is due now goes on.
    func fire(now: Instant, route: (InputEvent) -> Void) {
        timer?.fired()
        var output = takeSpare()
        filters.fireDeadlines(at: now, into: &output)
        finish(&output, now: now, route)
    }

    /// Devices that ended a stuck contact in the last minute, for the health answer.
    func devicesWithStuckContacts(now: Instant) -> [String] {
        lastStuck.filter { now.since($0.value) <= .seconds(60) }.keys.sorted()
    }

    /// The spare output, left empty in its place (an empty one holds no buffer): appending to
    /// a copy that `spare` still shared would copy the buffer each time.
    private func takeSpare() -> Output {
        defer { spare = Output() }
        return spare
    }

    private func finish(_ output: inout Output, now: Instant, _ route: (InputEvent) -> Void) {
        for event in output.events { route(event) }
        if !output.reports.isEmpty { reported(output.reports, now: now) }
        output.events.removeAll(keepingCapacity: true)
        output.reports.removeAll(keepingCapacity: true)
        spare = output
        timer?.arm(for: filters.nextDeadline, now: now)
    }

    private func reported(_ reports: [TouchFilterReport], now: Instant) {
        var traced: [ProtocolSink.Traced] = []
        for report in reports {
            let name = names[report.device] ?? report.device.description
            counts[FilteredTouches(device: name, filter: report.filter), default: 0] += 1
            if tracer.isOn { traced.append(.core(.touchFiltered(report, device: name))) }
            if case .stuck(let still) = report.finding {
                stuck[name, default: 0] += 1
                lastStuck[name] = now
                logger.warning("touchscreen '\(name)': a contact at \(report.at) has not moved for \(still.milliseconds / 1000) s, nor anything else on the device: stuck, ended (its app gets wl_touch.cancel)")
            } else {
                logger.debug("touchscreen '\(name)': touch \(report.touch) \(report.filter.rawValue) at \(report.at)")
            }
        }
        if !traced.isEmpty { tracer.publish(traced, naming: naming()) }
    }

    private struct Output: TouchFilterOutput {
        var events: [InputEvent] = []
        var reports: [TouchFilterReport] = []
        mutating func pass(_ event: InputEvent) { events.append(event) }
        mutating func report(_ report: TouchFilterReport) { reports.append(report) }
    }
}

/// A device's count of touches one filter acted on, as the metrics label it.
public struct FilteredTouches: Hashable, Sendable {
    public var device: String
    public var filter: TouchFilterReport.Filter

    public init(device: String, filter: TouchFilterReport.Filter) {
        self.device = device
        self.filter = filter
    }
}

extension TouchFilterSettings {
    /// The filters these settings turn on.
    var filters: [TouchFilterReport.Filter] {
        var on: [TouchFilterReport.Filter] = []
        if debounce != nil { on.append(.debounce) }
        if jitter != nil { on.append(.jitter) }
        if smoothing != nil { on.append(.smoothing) }
        if !deadZones.isEmpty { on.append(.deadZone) }
        if minimumContact != nil { on.append(.minimumContact) }
        if stuckAfter != nil { on.append(.stuck) }
        return on
    }
}
