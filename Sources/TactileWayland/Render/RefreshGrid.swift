import Responder

/// A display's vblanks: one it showed a frame at, and every whole refresh before and after
/// it. Frames and frame callbacks are timed to these points, never to "a refresh after
/// whatever happened last", so the time a frame took to compose or a timer's lateness is not
/// added to the next interval, and a client drawing on frame callbacks keeps the display's
/// full rate. Kept in nanoseconds: a 60 Hz refresh (16,666,666 ns) in whole microseconds
/// would drift by a refresh every 14 minutes.
public struct RefreshGrid: Sendable, Hashable {
    /// A vblank: a frame shown there (a DRM flip's time, a headless output's timer).
    public var vblank: Instant
    public var refreshNanoseconds: Int64

    /// nil for a refresh of 0 or less (a screen that does not say).
    public init?(vblank: Instant, refreshMilliHertz: Int32) {
        guard refreshMilliHertz > 0 else { return nil }
        self.vblank = vblank
        refreshNanoseconds = 1_000_000_000_000 / Int64(refreshMilliHertz)
    }

    public var refresh: Duration { .nanoseconds(refreshNanoseconds) }

    /// The first vblank strictly after `time` (rounded up to the microsecond).
    public func next(after time: Instant) -> Instant {
        let elapsed = (Int64(bitPattern: time.microseconds) &- Int64(bitPattern: vblank.microseconds)).multipliedReportingOverflow(by: 1000)
        guard !elapsed.overflow else {
            // Centuries from the vblank (a broken clock): a refresh on, saturating.
            let (later, overflow) = time.microseconds.addingReportingOverflow(UInt64(refreshNanoseconds / 1000))
            return Instant(microseconds: overflow ? .max : later)
        }
        // Whole refreshes from the known vblank to `time`, rounded down (also before it).
        var periods = elapsed.partialValue / refreshNanoseconds
        if elapsed.partialValue < 0, elapsed.partialValue % refreshNanoseconds != 0 { periods -= 1 }
        let candidate = point(periods + 1)
        return time < candidate ? candidate : point(periods + 2)
    }

    /// The vblank `periods` refreshes from the known one, rounded up to the microsecond.
    private func point(_ periods: Int64) -> Instant {
        let nanoseconds = periods.multipliedReportingOverflow(by: refreshNanoseconds)
        guard !nanoseconds.overflow else { return vblank }
        let value = nanoseconds.partialValue
        let microseconds = value / 1000 + (value > 0 && value % 1000 != 0 ? 1 : 0)
        return vblank.advanced(by: .microseconds(microseconds))
    }
}
