import Responder

/// How long one surface's client takes to draw a frame: from the frame callback's `done` it
/// was sent to the commit that answers it. A client drawing what a finger does samples the
/// touch when its callback comes, so the later the callback, the newer the touch in the
/// frame; but a callback so late that the commit misses the composition costs a whole
/// refresh. So the callback is sent its budget before the composition's deadline: the
/// longest of its last eight draws plus a millisecond. A draw that missed is one of those
/// eight, longer than the budget it missed: the next callback comes that much earlier at
/// once, and the budget shrinks again only as the slow draw leaves the eight.
public struct ClientDrawTime: Sendable {
    /// The last draws in microseconds, a ring of eight once full, kept in the surface itself:
    /// a client makes surfaces by the thousand, and each would otherwise be one more
    /// allocation to the heap.
    private var samples = SIMD8<Int64>(repeating: 0)
    private var count = 0
    private var next = 0

    public init() {}

    public static let margin = Duration.milliseconds(1)

    /// The time the client is given before a deadline; nil until it has drawn once.
    public var budget: Duration? {
        count == 0 ? nil : .microseconds(samples.max()) + Self.margin
    }

    /// A commit answered a callback sent `duration` before. Returns the budget when it moved
    /// by a millisecond or more since it was last returned, for the log.
    @discardableResult
    public mutating func drew(in duration: Duration) -> Duration? {
        let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        samples[next] = min(max(microseconds, 0), Int64(Int32.max))
        next = (next + 1) % 8
        count = min(count + 1, 8)
        guard let budget, reported.map({ abs(($0 - budget).milliseconds) >= 1 }) ?? true else { return nil }
        reported = budget
        return budget
    }

    /// The budget last returned by `drew`.
    private var reported: Duration?

    /// When to send the `done` of a callback whose answer should make a composition at
    /// `deadline`: its budget before; nil (at once) when that is not after `now`, when the
    /// client has not drawn yet, or when there is no deadline to aim at (a display without
    /// vblanks, a nested window).
    public func release(before deadline: Instant?, now: Instant) -> Instant? {
        guard let deadline, let budget else { return nil }
        let at = deadline.advanced(by: .zero - budget)
        return now < at ? at : nil
    }
}
