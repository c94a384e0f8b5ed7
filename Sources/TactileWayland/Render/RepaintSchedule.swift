import Responder

/// When an output composes its next frame. After a frame shown at a vblank (a DRM page
/// flip), the next is composed as late as is safe: one refresh after that vblank, less the
/// budget a repaint needs, so a commit or touch that comes meanwhile makes the next vblank
/// (weston keeps a fixed 7 ms window; here the window follows what repaints really cost).
/// The budget is the longest of the last 16 repaints (composing and handing the frame to the
/// backend) plus a 2 ms margin, kept between 2 ms and three quarters of the refresh. Frames
/// shown without a vblank (headless timers, a nested window's frame callbacks, a modeset)
/// give no deadline: the next frame is composed at once.
///
/// A display without vblanks of its own (a DRM driver that completes a flip when it is
/// made and counts none: QEMU's bochs, simpledrm) shows a frame as soon as it is composed,
/// so there a deadline would only delay it: commits are composed at once, and only frame
/// callbacks keep to the refresh (released one refresh after the last release), so an
/// animating client still draws at the display's rate, not as fast as it can.
public struct RepaintSchedule: Sendable {
    /// The next repaint waits until then; nil: at once.
    public private(set) var notBefore: Instant?
    /// Frame callbacks wait for a frame composed then or later; nil: any frame takes them.
    public var callbacksNotBefore: Instant? {
        guard withoutVblank, let callbacksReleased, let refresh else { return nil }
        return callbacksReleased.advanced(by: refresh)
    }

    /// The display completes flips without vblanks (learned from its frames).
    public private(set) var withoutVblank = false
    /// When frame callbacks were last released, and the refresh then.
    private var callbacksReleased: Instant?
    private var refresh: Duration?
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

    /// A frame was shown (releasing frame callbacks when `releasedCallbacks`): at a vblank,
    /// the next waits until a budget before the one after. Returns the budget when it moved
    /// by a millisecond or more since it was last returned, for the log.
    @discardableResult
    public mutating func presented(_ frame: PresentedFrame, refreshMilliHertz: Int32, releasedCallbacks: Bool = false) -> Duration? {
        guard refreshMilliHertz > 0 else {
            notBefore = nil
            return nil
        }
        let refresh = Duration.nanoseconds(1_000_000_000_000 / Int64(refreshMilliHertz))
        self.refresh = refresh
        if releasedCallbacks { callbacksReleased = frame.time }
        // A modeset's or a timer's frame says nothing about the display's vblanks.
        if frame.flags.contains(.vsync) {
            withoutVblank = false
        } else if frame.flags.contains(.hardwareCompletion) {
            withoutVblank = true
        }
        guard frame.flags.contains(.vsync) else {
            notBefore = nil
            return nil
        }
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
