/// A moment on the input timeline, in microseconds from an arbitrary origin.
///
/// Microseconds because libinput stamps events that finely; Wayland's wire format wants
/// milliseconds (`milliseconds`), and the protocol layer converts at the last moment so that
/// replayed events keep their original time exactly.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: UInt64

    public init(microseconds: UInt64) { self.microseconds = microseconds }

    public static func milliseconds(_ ms: UInt64) -> Instant { Instant(microseconds: ms * 1000) }

    public static let zero = Instant(microseconds: 0)

    /// The 32-bit millisecond timestamp of wl_touch, wl_pointer and wl_keyboard (it wraps).
    public var milliseconds: UInt32 { UInt32(truncatingIfNeeded: microseconds / 1000) }

    public func advanced(by d: Duration) -> Instant {
        Instant(microseconds: UInt64(Int64(microseconds) + d.microseconds))
    }

    public static func - (a: Instant, b: Instant) -> Duration {
        .microseconds(Int64(a.microseconds) - Int64(b.microseconds))
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

    public var description: String {
        let fraction = microseconds % 1000
        return "\(microseconds / 1000)" + (fraction == 0 ? "" : ".\(String(fraction + 1000).dropFirst())") + "ms"
    }
}

extension Duration {
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// Whole milliseconds, rounded down (an event loop's timers count in them).
    public var milliseconds: Int64 { microseconds / 1000 }
}
