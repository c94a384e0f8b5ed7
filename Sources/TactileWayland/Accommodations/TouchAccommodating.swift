import Logging
import Responder

/// The touch accommodations on the server (`TouchAccommodations` in the core): the seat's
/// settings, the apps whose window rules exempt them, a timer for the holds and delays, and
/// what they did, for the trace, the log and the metrics. Touches pass here after the
/// touchscreens' filters and before anything routes them.
final class TouchAccommodating: ServerPart {
    private var accommodations = TouchAccommodations()
    /// Window rules that turn the accommodations off for an app (`accommodations: false`).
    private(set) var exemptions: [WindowRule] = []
    /// Touches each accommodation acted on, from zero for each one on, so that a rate can be
    /// taken of one never used.
    private(set) var counts: [AccommodationReport.Accommodation: Int] = [:]
    private var timer: DeadlineTimer?
    private var naming: () -> ServerNaming = { fatalError("TouchAccommodating.start was not called") }
    /// Kept between calls, taken out while in use (as `TouchFiltering`'s): no allocation per event.
    private var spare = Released()
    private let tracer: Tracer
    private let logger: Logger

    init(tracer: Tracer, logger: Logger) {
        self.tracer = tracer
        self.logger = logger
    }

    /// The timer that lets go of held touches (`fire` routes them), and the trace's names.
    func start(timer: EventSource, naming: @escaping () -> ServerNaming) {
        self.timer = DeadlineTimer(timer)
        self.naming = naming
    }

    func stop() { timer = nil }

    /// Whether touches must pass here: off and quiet, the server routes them straight on.
    var isActive: Bool { accommodations.isActive }

    /// The accommodations from the next moment no finger is down; `exempting` the apps whose
    /// window rules say `accommodations: false`. Says in the log what applies.
    func set(_ settings: AccommodationSettings, exempting rules: [WindowRule]) {
        exemptions = rules.filter { $0.accommodations == false }
        let now = accommodations.setSettings(settings)
        for accommodation in settings.accommodations { counts[accommodation, default: 0] += 0 }
        logger.notice("touch accommodations: \(settings.summary)\(exemptions.isEmpty ? "" : "; off for \(exemptions.map(\.label).joined(separator: ", "))")\(now ? "" : ", once no finger is down")")
    }

    /// Whether a window of this app id and tag is exempt.
    func exempts(appID: String?, tag: String?) -> Bool {
        guard appID != nil || tag != nil else { return false }
        return exemptions.contains { $0.matches(appID: appID, tag: tag) }
    }

    /// Runs `event` through the accommodations; `route` gets what comes out, in order.
    func accommodate(_ event: InputEvent, now: Instant, exemption: (Point) -> AccommodationExemption?, route: (InputEvent) -> Void) {
        var output = takeSpare()
        accommodations.accommodate(event, into: &output, exemption: exemption)
        finish(&output, now: now, route)
    }

    /// The timer fired: what is due now goes on.
    func fire(now: Instant, route: (InputEvent) -> Void) {
        timer?.fired()
        var output = takeSpare()
        accommodations.fireDeadlines(at: now, into: &output)
        finish(&output, now: now, route)
    }

    /// The holds counting now, to draw.
    var rings: [TouchRing] { accommodations.rings }

    private func takeSpare() -> Released {
        defer { spare = Released() }
        return spare
    }

    private func finish(_ output: inout Released, now: Instant, _ route: (InputEvent) -> Void) {
        for event in output.events { route(event) }
        if !output.reports.isEmpty { reported(output.reports) }
        output.events.removeAll(keepingCapacity: true)
        output.reports.removeAll(keepingCapacity: true)
        spare = output
        timer?.arm(for: accommodations.nextDeadline, now: now)
    }

    private func reported(_ reports: [AccommodationReport]) {
        var traced: [ProtocolSink.Traced] = []
        for report in reports {
            if report.accommodation != .none { counts[report.accommodation, default: 0] += 1 }
            if tracer.isOn { traced.append(.core(.touchAccommodated(report))) }
        }
        if !traced.isEmpty { tracer.publish(traced, naming: naming()) }
    }

    private struct Released: AccommodationOutput {
        var events: [InputEvent] = []
        var reports: [AccommodationReport] = []
        mutating func pass(_ event: InputEvent) { events.append(event) }
        mutating func report(_ report: AccommodationReport) { reports.append(report) }
    }
}

extension AccommodationSettings {
    /// The accommodations these settings turn on.
    var accommodations: [AccommodationReport.Accommodation] {
        var on: [AccommodationReport.Accommodation] = []
        if holdDuration != nil { on.append(.holdDuration) }
        if ignoreRepeat != nil { on.append(.ignoreRepeat) }
        if tapAssistance != .off { on.append(.tapAssistance) }
        return on
    }

    /// For the log: `hold-duration 300 ms, tap-assistance final after 300 ms`, or `off`.
    var summary: String {
        var parts: [String] = []
        if let holdDuration { parts.append("hold-duration \(holdDuration.milliseconds) ms (slop \(pixels(holdSlop)) px)") }
        if let ignoreRepeat { parts.append("ignore-repeat \(ignoreRepeat.milliseconds) ms (within \(pixels(ignoreRepeatRadius)) px)") }
        if tapAssistance != .off { parts.append("tap-assistance \(tapAssistance.rawValue) after \(tapAssistanceDelay.milliseconds) ms") }
        return parts.isEmpty ? "off" : parts.joined(separator: ", ")
    }
}

/// Whole pixels without a fraction, as the configuration file writes them.
private func pixels(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
}
