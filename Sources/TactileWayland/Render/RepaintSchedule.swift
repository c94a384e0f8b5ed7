import Responder

/// When an output composes its next frame. After a frame shown at a vblank (a DRM page
/// flip), the next is composed as late as is safe: one refresh after that vblank, less the
/// budget a repaint needs, so a commit or touch that comes meanwhile makes the next vblank
/// (weston keeps a fixed 7 ms window; here the window follows what repaints really cost).
/// The budget is the longest of the last 16 repaints (composing and handing the frame to the
/// backend) plus a 2 ms margin, kept between 2 ms and three quarters of the refresh. Frames
/// shown without a vblank (headless timers, a nested window's frame callbacks, a modeset)
/// give no deadline: the next frame is composed at once.
public struct RepaintSchedule: Sendable {
    /// The next repaint waits until then; nil: at once.
    public private(set) var notBefore: Instant?
    /// The last repaints' durations, a ring.
    private var costs = [Duration](repeating: .zero, count: 16)
    private var next = 0

    public init() {}

    public static let margin = Duration.milliseconds(2)

    /// What a repaint gets before the vblank, for an output refreshing every `refresh`.
    public func budget(refresh: Duration) -> Duration {
        let longest = costs.max() ?? .zero
        return min(max(longest + Self.margin, Self.margin), refresh * 3 / 4)
    }

    /// A frame was shown: at a vblank, the next waits until a budget before the one after.
    /// Returns the budget when it moved by a millisecond or more since it was last returned,
    /// for the log.
    @discardableResult
    public mutating func presented(_ frame: PresentedFrame, refreshMilliHertz: Int32) -> Duration? {
        guard frame.flags.contains(.vsync), refreshMilliHertz > 0 else {
            notBefore = nil
            return nil
        }
        let refresh = Duration.nanoseconds(1_000_000_000_000 / Int64(refreshMilliHertz))
        let budget = budget(refresh: refresh)
        notBefore = frame.time.advanced(by: refresh - budget)
        guard reported.map({ abs(($0 - budget).milliseconds) >= 1 }) ?? true else { return nil }
        reported = budget
        return budget
    }

    /// The budget last returned by `presented`.
    private var reported: Duration?

    /// A repaint took `duration`; the next waits for the next frame shown.
    public mutating func repainted(took duration: Duration) {
        costs[next] = duration
        next = (next + 1) % costs.count
        notBefore = nil
    }
}
