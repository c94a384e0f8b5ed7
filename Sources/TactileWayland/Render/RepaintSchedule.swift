import Responder

/// An output's frame clock: when it composes its next frame and releases frame callbacks,
/// on the display's refresh grid (`RefreshGrid`). After a frame shown at a vblank (a DRM page
/// flip, a headless output's timer), the next is composed as late as is safe: at the next
/// vblank less the budget a repaint needs, so a commit or touch that comes meanwhile makes
/// that vblank (weston keeps a fixed 7 ms window; here the window follows what repaints
/// really cost). The budget is the longest of the last 16 repaints (composing and handing
/// the frame to the backend) made within the last second, plus a 2 ms margin, kept between
/// 2 ms and three quarters of the refresh: a screen that was still for a while (a kiosk
/// between customers) does not weigh the next stroke down with the whole-screen repaint it
/// last made. Frames shown without a vblank (a nested window's frame callbacks, a modeset)
/// give no deadline: the next frame is composed at once.
///
/// A display without vblanks of its own (a DRM driver that completes a flip when it is
/// made and counts none: QEMU's bochs, simpledrm) shows a frame as soon as it is composed,
/// so there a deadline would only delay it: commits are composed at once, and only frame
/// callbacks keep to the refresh, on a grid laid from its first flip: released at the first
/// whole refresh after the last release, so an animating client draws at the display's
/// full rate, not as fast as it can, and not slower either.
public struct RepaintSchedule: Sendable {
    /// The next repaint waits until then; nil: at once.
    public private(set) var notBefore: Instant?
    /// Frame callbacks wait for a frame composed then or later; nil: any frame takes them.
    public var callbacksNotBefore: Instant? {
        guard withoutVblank, let callbacksReleased, let grid else { return nil }
        return grid.next(after: callbacksReleased)
    }

    /// The display's vblanks: its last one, or, without vblanks, a grid laid from its first
    /// flip; nil until a frame was shown at a known refresh.
    public private(set) var grid: RefreshGrid?

    /// The display completes flips without vblanks (learned from its frames).
    public private(set) var withoutVblank = false
    /// When frame callbacks were last released.
    private var callbacksReleased: Instant?
    /// The last repaints' durations and when each ended, a ring.
    private var costs = [(took: Duration, at: Instant)](repeating: (.zero, .zero), count: 16)
    private var next = 0

    public init() {}

    public static let margin = Duration.milliseconds(2)

    /// Repaints older than this are forgotten.
    public static let memory = Duration.seconds(1)

    /// What a repaint gets before the vblank, at `now`, for an output refreshing every `refresh`.
    public func budget(refresh: Duration, now: Instant) -> Duration {
        var longest = Duration.zero
        for cost in costs where now - cost.at < Self.memory { longest = max(longest, cost.took) }
        return min(max(longest + Self.margin, Self.margin), refresh * 3 / 4)
    }

    /// A frame was shown (releasing frame callbacks when `releasedCallbacks`): at a vblank,
    /// the next waits until a budget before the one after. Returns the budget when it moved
    /// by a millisecond or more since it was last returned, for the log.
    @discardableResult
    public mutating func presented(_ frame: PresentedFrame, refreshMilliHertz: Int32, releasedCallbacks: Bool = false) -> Duration? {
        guard let shownAt = RefreshGrid(vblank: frame.time, refreshMilliHertz: refreshMilliHertz) else {
            notBefore = nil
            grid = nil
            return nil
        }
        if releasedCallbacks { callbacksReleased = frame.time }
        // A modeset's or a parent's frame says nothing about the display's vblanks.
        if frame.flags.contains(.vsync) {
            withoutVblank = false
            grid = shownAt
        } else if frame.flags.contains(.hardwareCompletion) {
            if !withoutVblank || grid?.refreshNanoseconds != shownAt.refreshNanoseconds { grid = shownAt }
            withoutVblank = true
        }
        guard frame.flags.contains(.vsync) else {
            notBefore = nil
            return nil
        }
        let budget = budget(refresh: shownAt.refresh, now: frame.time)
        notBefore = shownAt.next(after: frame.time).advanced(by: .zero - budget)
        guard reported.map({ abs(($0 - budget).milliseconds) >= 1 }) ?? true else { return nil }
        reported = budget
        return budget
    }

    /// Everything the next frame waits for has come (`ClientFrameClock`): it is composed at
    /// once, not at the deadline.
    public mutating func composeNow() {
        notBefore = nil
    }

    /// The budget last returned by `presented`.
    private var reported: Duration?

    /// A repaint ending at `time` took `duration`; the next waits for the next frame shown.
    public mutating func repainted(took duration: Duration, at time: Instant) {
        costs[next] = (duration, time)
        next = (next + 1) % costs.count
        notBefore = nil
    }
}
