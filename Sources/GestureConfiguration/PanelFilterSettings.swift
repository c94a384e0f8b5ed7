import Responder

/// A `devices:` entry's touch filters, as the configuration file (or libtactile's
/// `tactile_device_set_touch_filters_yaml`) gives them: what is not given is nil (an earlier
/// matching entry's value, or the default, applies), and zero turns a filter off.
/// `touchFilters(on:)` makes the core's settings of them for one touchscreen.
public struct PanelFilterSettings: Sendable, Hashable {
    public var debounce: Duration?
    public var debounceRadius: Double?
    public var jitter: Double?
    /// `smoothing: one-euro` (true) or `off` (false).
    public var smoothing: Bool?
    public var minimumCutoff: Double?
    public var beta: Double?
    /// In the output's layout pixels (0,0 at its top left, as the screen shows it), each
    /// with where the file gave it, for the log.
    public var deadZones: [DeadZone]?
    public var minimumContact: Duration?
    public var stuckAfter: Duration?

    public struct DeadZone: Sendable, Hashable {
        public var rect: Rect
        /// `FILE:LINE:COLUMN devices[N].dead-zones[M]`.
        public var origin: String
        public init(rect: Rect, origin: String) {
            self.rect = rect
            self.origin = origin
        }
    }

    /// The keys of a `devices:` entry these settings come from (`YAMLReader.Table.touchFilters`).
    public static let keys = ["debounce", "debounce-radius", "jitter", "smoothing", "min-cutoff", "beta", "dead-zones", "min-contact", "stuck-after"]

    /// Every key of a `devices:` entry: libinput's settings (which only the server applies),
    /// then the filters.
    public static let deviceEntryKeys = ["match", "output", "calibration", "region", "accel-speed", "accel-profile", "tap-to-click", "natural-scroll"] + keys

    /// A touchscreen whose entries say nothing of stuck contacts ends one after this long
    /// without a change (docs/behaviour.md says why 30 s).
    public static let defaultStuckAfter = Duration.seconds(30)

    public init(debounce: Duration? = nil, debounceRadius: Double? = nil, jitter: Double? = nil, smoothing: Bool? = nil, minimumCutoff: Double? = nil,
                beta: Double? = nil, deadZones: [DeadZone]? = nil, minimumContact: Duration? = nil, stuckAfter: Duration? = nil) {
        self.debounce = debounce
        self.debounceRadius = debounceRadius
        self.jitter = jitter
        self.smoothing = smoothing
        self.minimumCutoff = minimumCutoff
        self.beta = beta
        self.deadZones = deadZones
        self.minimumContact = minimumContact
        self.stuckAfter = stuckAfter
    }

    /// `later`'s settings over these, setting by setting.
    package func merged(with later: PanelFilterSettings) -> PanelFilterSettings {
        PanelFilterSettings(
            debounce: later.debounce ?? debounce, debounceRadius: later.debounceRadius ?? debounceRadius, jitter: later.jitter ?? jitter,
            smoothing: later.smoothing ?? smoothing, minimumCutoff: later.minimumCutoff ?? minimumCutoff, beta: later.beta ?? beta,
            deadZones: later.deadZones ?? deadZones, minimumContact: later.minimumContact ?? minimumContact, stuckAfter: later.stuckAfter ?? stuckAfter)
    }

    /// The core's settings for a touchscreen on an output at `output` (layout pixels): dead
    /// zones move with the output; those that miss it entirely are returned apart, to log.
    public func touchFilters(on output: Rect) -> (settings: TouchFilterSettings, offScreen: [DeadZone]) {
        func on(_ d: Duration?) -> Duration? { d.flatMap { $0 > .zero ? $0 : nil } }
        let zones = (deadZones ?? []).map { ($0, $0.rect.offset(by: Position(x: output.x, y: output.y))) }
        let settings = TouchFilterSettings(
            debounce: on(debounce), debounceRadius: debounceRadius ?? TouchFilterSettings.defaultDebounceRadius,
            jitter: jitter.flatMap { $0 > 0 ? $0 : nil },
            smoothing: smoothing == true ? OneEuroSettings(minimumCutoff: minimumCutoff ?? OneEuroSettings.defaultMinimumCutoff, beta: beta ?? OneEuroSettings.defaultBeta) : nil,
            deadZones: zones.filter { !$0.1.intersection(output).isEmpty }.map(\.1),
            minimumContact: on(minimumContact), stuckAfter: on(stuckAfter ?? Self.defaultStuckAfter))
        return (settings, zones.filter { $0.1.intersection(output).isEmpty }.map(\.0))
    }
}

extension PanelFilterSettings {
    /// What a touchscreen's filters are, for the device's line in the log.
    package var summary: String {
        let (s, _) = touchFilters(on: .empty)
        var on: [String] = []
        if let d = s.debounce { on.append("debounce \(d.milliseconds) ms within \(s.debounceRadius.formatted) px") }
        if let j = s.jitter { on.append("jitter \(j.formatted) px") }
        if let e = s.smoothing { on.append("smoothing one-euro (min-cutoff \(e.minimumCutoff.formatted) Hz, beta \(e.beta.formatted))") }
        if let zones = deadZones, !zones.isEmpty { on.append("\(zones.count) dead zone\(zones.count == 1 ? "" : "s")") }
        if let m = s.minimumContact { on.append("min-contact \(m.milliseconds) ms") }
        if let a = s.stuckAfter { on.append("stuck-after \(a.milliseconds / 1000) s") }
        return "touch filters: " + (on.isEmpty ? "none" : on.joined(separator: ", "))
    }
}

extension Double {
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
