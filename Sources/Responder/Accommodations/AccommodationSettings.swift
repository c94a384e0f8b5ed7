/// Touch accommodations (`TouchAccommodations`): what a person who cannot tap as a steady
/// hand taps needs from every touch, system-wide, as iOS's Touch Accommodations give it.
/// nil (or `.off`) leaves a touch as the finger made it.
public struct AccommodationSettings: Hashable, Sendable {
    /// A touch counts only once it has been held this long within `holdSlop` of its down: a
    /// brush of the glass, or a tremor's touch, goes nowhere.
    public var holdDuration: Duration?
    /// How far (layout pixels) a finger may wander while `holdDuration` counts.
    public var holdSlop: Double
    /// Touches that start this soon after the start of the last touch that went on, within
    /// `ignoreRepeatRadius` of it, go nowhere: one tap, however often a tremor touches.
    public var ignoreRepeat: Duration?
    public var ignoreRepeatRadius: Double
    /// A touch shorter than `tapAssistanceDelay` is a tap at its first or last place, however
    /// the finger slid; a longer one goes on as it is, from the delay on.
    public var tapAssistance: TapAssistance
    public var tapAssistanceDelay: Duration

    /// A fingertip's width on a 96 dpi panel, as the debounce's radius: a finger that stays
    /// on the thing it pressed.
    public static let defaultHoldSlop = 24.0
    /// Two fingertips: a tremor's repeat lands near, not on, the first touch.
    public static let defaultIgnoreRepeatRadius = 48.0
    /// iOS's default gesture delay for tap assistance.
    public static let defaultTapAssistanceDelay = Duration.milliseconds(300)
    /// The ranges the configuration accepts, in milliseconds: the for hold duration
    /// (iOS offers 0.1 s to 4 s), and as much for the others.
    public static let holdDurations = 100...4000
    public static let ignoreRepeats = 50...4000
    public static let tapAssistanceDelays = 50...4000

    public init(holdDuration: Duration? = nil, holdSlop: Double = Self.defaultHoldSlop, ignoreRepeat: Duration? = nil,
                ignoreRepeatRadius: Double = Self.defaultIgnoreRepeatRadius, tapAssistance: TapAssistance = .off,
                tapAssistanceDelay: Duration = Self.defaultTapAssistanceDelay) {
        self.holdDuration = holdDuration
        self.holdSlop = holdSlop
        self.ignoreRepeat = ignoreRepeat
        self.ignoreRepeatRadius = ignoreRepeatRadius
        self.tapAssistance = tapAssistance
        self.tapAssistanceDelay = tapAssistanceDelay
    }

    /// Nothing to do: touches pass untouched and cost one check.
    public var isEmpty: Bool { holdDuration == nil && ignoreRepeat == nil && tapAssistance == .off }
}

/// Where a short touch becomes a tap (`tap-assistance`).
public enum TapAssistance: String, Hashable, Sendable, CaseIterable {
    case off
    /// Where the finger came down: for someone whose finger slides off as it lifts.
    case initial
    /// Where the finger lifted: for someone who lands beside the target and slides onto it.
    case final
}

/// Why a touch passes the accommodations as the finger made it.
public enum AccommodationExemption: String, Hashable, Sendable {
    /// It came down on an app its window rule exempts (`accommodations: false`).
    case app
    /// It came down on a screen edge a system edge swipe starts from: a swipe is motion from
    /// its first frame, which a hold or a tap's delay would break.
    case systemEdge = "system-edge"
}
