/// How one touchscreen's touches are repaired before routing (`TouchFilters`): each setting
/// answers one fault a panel has in the field, and nil (or empty) leaves it alone.
public struct TouchFilterSettings: Hashable, Sendable {
    /// A lift followed this soon by a touch-down within `debounceRadius` of it is the panel
    /// bouncing, not a second tap: the two are one touch. Every lift waits this long.
    public var debounce: Duration?
    public var debounceRadius: Double
    /// A finger that has not yet moved this far (layout pixels) from where it came down
    /// sends no motion: a press stays a press on a panel that jitters.
    public var jitter: Double?
    /// Every motion smoothed by the 1€ filter.
    public var smoothing: OneEuroSettings?
    /// Touches that come down inside one of these (global layout pixels) go nowhere: a
    /// failing corner, a wet bezel.
    public var deadZones: [Rect]
    /// A contact that lifts this soon without moving is a ghost and goes nowhere; every
    /// touch-down waits up to this long (less when the finger moves first).
    public var minimumContact: Duration?
    /// A contact that has not moved for this long while nothing else on the device changed
    /// is stuck: it is ended (cancelled) and its later events go nowhere.
    public var stuckAfter: Duration?

    /// The radius `debounce` uses when none is given: a fingertip's width on a 96 dpi panel.
    public static let defaultDebounceRadius = 24.0

    public init(debounce: Duration? = nil, debounceRadius: Double = Self.defaultDebounceRadius, jitter: Double? = nil,
                smoothing: OneEuroSettings? = nil, deadZones: [Rect] = [], minimumContact: Duration? = nil, stuckAfter: Duration? = nil) {
        self.debounce = debounce
        self.debounceRadius = debounceRadius
        self.jitter = jitter
        self.smoothing = smoothing
        self.deadZones = deadZones
        self.minimumContact = minimumContact
        self.stuckAfter = stuckAfter
    }

    /// Nothing to do: the device's touches pass untouched and cost one lookup.
    public var isEmpty: Bool {
        debounce == nil && jitter == nil && smoothing == nil && deadZones.isEmpty && minimumContact == nil && stuckAfter == nil
    }
}

/// The 1€ filter's parameters (Casiez, Roussel and Vogel, CHI 2012): a low-pass filter
/// whose cutoff rises with speed, so a still finger is smoothed hard and a fast one barely
/// lags.
public struct OneEuroSettings: Hashable, Sendable {
    /// The cutoff (Hz) at rest: lower smooths a still finger more.
    public var minimumCutoff: Double
    /// How much the cutoff rises per pixel per second of speed: higher lags less when moving.
    public var beta: Double
    /// The cutoff (Hz) of the speed estimate itself.
    public var derivativeCutoff: Double

    /// Chosen for a 60 Hz panel with a few pixels of noise (docs/behaviour.md has the
    /// figures): at rest the cutoff is 1 Hz, at 1,000 px/s about 21 Hz.
    public static let defaultMinimumCutoff = 1.0
    public static let defaultBeta = 0.02
    public static let defaultDerivativeCutoff = 1.0

    public init(minimumCutoff: Double = Self.defaultMinimumCutoff, beta: Double = Self.defaultBeta,
                derivativeCutoff: Double = Self.defaultDerivativeCutoff) {
        self.minimumCutoff = minimumCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }
}

/// An input device, as the backend numbers it while it is plugged in.
public struct InputDeviceID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "device \(rawValue)" }
}
