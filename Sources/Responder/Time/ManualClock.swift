/// A clock that moves only when told to: the tests' stand-in for the event loop's clock.
///
/// `advance` stops at every deadline on the way, so timers fire in order, each at its own
/// time, and a timer that schedules another one (a tap waiting for a second tap) sees it
/// fire within the same advance if it falls inside it.
public struct ManualClock: Sendable {
    public private(set) var now: Instant

    public init(now: Instant = .zero) { self.now = now }

    /// Moves to `now + duration`. `nextDeadline` is asked before each step; `fire` is called
    /// with each deadline reached, after `now` has moved to it.
    public mutating func advance(by duration: Duration, nextDeadline: () -> Instant?, fire: (Instant) -> Void) {
        let target = now.advanced(by: duration)
        while let deadline = nextDeadline(), deadline <= target {
            now = max(now, deadline)
            fire(now)
        }
        now = target
    }

    /// Moves time with no timers to fire.
    public mutating func advance(by duration: Duration) {
        now = now.advanced(by: duration)
    }
}
