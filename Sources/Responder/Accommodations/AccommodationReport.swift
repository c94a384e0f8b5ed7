/// What an accommodation did to a touch, once per touch and accommodation: for the trace
/// (why a touch went nowhere, arrived late, or somewhere else than the finger was).
public struct AccommodationReport: Hashable, Sendable {
    public enum Accommodation: String, Hashable, Sendable, CaseIterable {
        case holdDuration = "hold-duration"
        case ignoreRepeat = "ignore-repeat"
        case tapAssistance = "tap-assistance"
        /// None: the touch was exempt.
        case none
    }

    public enum Finding: Hashable, Sendable {
        /// Held long enough: its down goes on now, `held` after the finger came down.
        case counted(held: Duration)
        /// Lifted after `lasted`, before it counted: it goes nowhere.
        case liftedTooSoon(lasted: Duration)
        /// Moved `distance` px from its down before it counted: it goes nowhere.
        case movedAway(distance: Double)
        /// Started `after` the start of touch `of`, `distance` px from it: a repeat, which goes nowhere.
        case repeatOf(Int32, after: Duration, distance: Double)
        /// Lifted after `lasted`, inside the delay: a tap at its first or last place, `slid` px apart.
        case tap(TapAssistance, lasted: Duration, slid: Double)
        /// Outlasted the delay: it goes on as it is, `delay` late.
        case delayed(Duration)
        /// Passed as it is, for this reason.
        case exempt(AccommodationExemption)
    }

    public var touch: Int32
    public var finding: Finding
    /// Where the finger was.
    public var at: Point
    public var time: Instant

    public init(touch: Int32, finding: Finding, at: Point, time: Instant) {
        self.touch = touch
        self.finding = finding
        self.at = at
        self.time = time
    }

    public var accommodation: Accommodation {
        switch finding {
        case .counted, .liftedTooSoon, .movedAway: .holdDuration
        case .repeatOf: .ignoreRepeat
        case .tap, .delayed: .tapAssistance
        case .exempt: .none
        }
    }
}

/// A countdown the compositor draws under a finger: a ring that fills from `start` to `end`
/// (a hold that will count, a long press that will right-click), gone once it is full or
/// the finger lifts or moves away.
public struct TouchRing: Hashable, Sendable {
    public enum Purpose: String, Hashable, Sendable {
        case holdDuration = "hold-duration"
        case secondaryClick = "secondary-click"
    }

    public var touch: Int32
    public var at: Point
    public var start: Instant
    public var end: Instant
    public var purpose: Purpose

    public init(touch: Int32, at: Point, start: Instant, end: Instant, purpose: Purpose) {
        self.touch = touch
        self.at = at
        self.start = start
        self.end = end
        self.purpose = purpose
    }

    /// How full the ring is at `now`, 0 to 1.
    public func progress(at now: Instant) -> Double {
        let total = end.since(start).microseconds
        guard total > 0 else { return 1 }
        return min(1, Double(now.since(start).microseconds) / Double(total))
    }
}
