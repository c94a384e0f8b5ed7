import Responder

/// A loop timer kept armed for the core's next deadline (a recognizer's, what a touch filter
/// or an accommodation holds): re-armed only when that deadline moved, since arming is a
/// system call, and at a whole millisecond at or after it, as the loop's timers count.
struct DeadlineTimer {
    private let source: EventSource
    private var armed: Instant?

    init(_ source: EventSource) { self.source = source }

    /// Whether a deadline is set and has not fired.
    var isArmed: Bool { armed != nil }

    /// The timer fired: it is not armed any more.
    mutating func fired() { armed = nil }

    /// Armed for `deadline` (nil: disarmed), measured from `now`.
    mutating func arm(for deadline: Instant?, now: Instant) {
        guard deadline != armed else { return }
        armed = deadline
        guard let deadline else { return source.arm(milliseconds: 0) }
        let wait = deadline > now ? (deadline.microseconds - now.microseconds + 999) / 1000 : 1
        source.arm(milliseconds: Int32(clamping: max(1, wait)))
    }
}
