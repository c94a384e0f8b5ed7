/// Pending timeouts, earliest first: what the core asks the event loop to wake it for.
///
/// The core never sleeps or reads a clock. Whoever drives it (the event loop with a timerfd,
/// or a test with a `ManualClock`) asks for `nextDeadline`, waits until then, and hands back
/// the due entries with `popExpired(at:)`. That keeps every time-based decision (long press,
/// tap intervals, delayed touches) deterministic under test.
public struct TimerQueue<Payload> {
    /// Names one scheduled entry, for cancelling it.
    public struct Token: Hashable, Sendable {
        let value: UInt64
    }

    private var entries: [(deadline: Instant, token: Token, payload: Payload)] = []
    private var issued: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// The earliest deadline, or nil when nothing is pending.
    public var nextDeadline: Instant? { entries.first?.deadline }

    /// Entries with equal deadlines fire in the order they were scheduled.
    @discardableResult
    public mutating func schedule(_ payload: Payload, at deadline: Instant) -> Token {
        issued += 1
        let token = Token(value: issued)
        let k = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert((deadline, token, payload), at: k)
        return token
    }

    /// Cancels a pending entry; false when it already fired or was cancelled.
    @discardableResult
    public mutating func cancel(_ token: Token) -> Bool {
        guard let k = entries.firstIndex(where: { $0.token == token }) else { return false }
        entries.remove(at: k)
        return true
    }

    /// Removes and returns the earliest entry due at `now`, if any.
    public mutating func popExpired(at now: Instant) -> (deadline: Instant, payload: Payload)? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        entries.removeFirst()
        return (first.deadline, first.payload)
    }
}
