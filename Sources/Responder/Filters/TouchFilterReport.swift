/// What a filter did to a touch, once per touch and filter: for the trace (why a touch went
/// nowhere, or arrived where it did), the log and the metrics.
public struct TouchFilterReport: Hashable, Sendable {
    public enum Filter: String, Hashable, Sendable, CaseIterable {
        case debounce, jitter, smoothing
        case deadZone = "dead-zone"
        case minimumContact = "min-contact"
        case stuck
    }

    public enum Finding: Hashable, Sendable {
        /// A touch-down `gap` after the lift of touch `continues`, `distance` px from it: the
        /// same touch, bounced. Neither the lift nor the down reaches anyone.
        case bounce(continues: Int32, gap: Duration, distance: Double)
        /// The finger moved less than `radius` px from its down: its motion is held back.
        case heldStill(radius: Double)
        /// Its motion is smoothed (1€ filter).
        case smoothed
        /// It came down inside this dead zone: it goes nowhere.
        case inDeadZone(Rect)
        /// It lifted after `lasted` without moving: a ghost, which goes nowhere.
        case ghost(lasted: Duration)
        /// It stayed still for `still` while nothing else on the device changed: it ends.
        case stuck(still: Duration)
    }

    public var device: InputDeviceID
    /// The touch as the device numbered it.
    public var touch: Int32
    public var finding: Finding
    /// Where the finger was.
    public var at: Point
    public var time: Instant

    public init(device: InputDeviceID, touch: Int32, finding: Finding, at: Point, time: Instant) {
        self.device = device
        self.touch = touch
        self.finding = finding
        self.at = at
        self.time = time
    }

    public var filter: Filter {
        switch finding {
        case .bounce: .debounce
        case .heldStill: .jitter
        case .smoothed: .smoothing
        case .inDeadZone: .deadZone
        case .ghost: .minimumContact
        case .stuck: .stuck
        }
    }
}
