import Responder
import TactileWayland
import Testing

/// The frame scheduler's policy, without a screen: after a vblank the next frame is composed
/// one refresh later less the budget, which follows what repaints cost.
@Suite struct RepaintScheduleTests {
    static let vblank = PresentedFrame(time: .milliseconds(1000), sequence: 7, flags: [.vsync, .hardwareClock, .hardwareCompletion])
    static let refresh60 = Duration.nanoseconds(16_666_666)

    @Test func framesWithoutAVblankGiveNoDeadline() {
        var schedule = RepaintSchedule()
        schedule.presented(PresentedFrame(time: .milliseconds(1000)), refreshMilliHertz: 60_000)
        #expect(schedule.notBefore == nil, "a timer's or a parent's frame: compose at once")
        schedule.presented(Self.vblank, refreshMilliHertz: 0)
        #expect(schedule.notBefore == nil, "no refresh known")
    }

    @Test func afterAVblankTheNextFrameWaitsUntilABudgetBeforeTheNext() {
        var schedule = RepaintSchedule()
        #expect(schedule.presented(Self.vblank, refreshMilliHertz: 60_000) == .milliseconds(2), "the first budget, for the log")
        #expect(schedule.presented(Self.vblank, refreshMilliHertz: 60_000) == nil, "unchanged: nothing to log")
        #expect(schedule.budget(refresh: Self.refresh60) == .milliseconds(2), "nothing measured yet: the margin")
        #expect(schedule.notBefore == Instant(microseconds: 1_000_000 + 16_666 - 2000))
        schedule.repainted(took: .milliseconds(5))
        #expect(schedule.notBefore == nil, "until the next frame is shown")
        #expect(schedule.presented(Self.vblank, refreshMilliHertz: 60_000) == .milliseconds(7), "moved: logged")
        #expect(schedule.budget(refresh: Self.refresh60) == .milliseconds(7), "the longest repaint and the margin")
        #expect(schedule.notBefore == Instant(microseconds: 1_000_000 + 16_666 - 7000))
    }

    @Test func theBudgetForgetsOldRepaintsAndNeverTakesTheWholeFrame() {
        var schedule = RepaintSchedule()
        schedule.repainted(took: .milliseconds(30))
        #expect(schedule.budget(refresh: Self.refresh60) == Self.refresh60 * 3 / 4, "at most three quarters of the refresh")
        for _ in 0..<16 { schedule.repainted(took: .milliseconds(1)) }
        #expect(schedule.budget(refresh: Self.refresh60) == .milliseconds(3), "the slow one is forgotten after 16 repaints")
    }

    /// A display whose flips complete when made (no vblank counter): nothing waits for a
    /// deadline, and frame callbacks keep to the refresh, whatever else is shown meanwhile.
    @Test func withoutVblanksOnlyFrameCallbacksKeepToTheRefresh() {
        var schedule = RepaintSchedule()
        let flip = { (ms: UInt64) in PresentedFrame(time: .milliseconds(ms), flags: [.hardwareCompletion]) }
        schedule.presented(flip(1000), refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.notBefore == nil, "a commit is composed at once")
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_016_666), "callbacks one refresh after the last release")
        schedule.presented(flip(1005), refreshMilliHertz: 60_000)
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_016_666), "a frame without callbacks does not push them back")
        // An empty frame that only paces callbacks is answered without a flip (no flags).
        schedule.presented(PresentedFrame(time: .milliseconds(1017)), refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_033_666), "still a display without vblanks")
        schedule.presented(Self.vblank, refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.callbacksNotBefore == nil, "a vblank paces them itself")
        #expect(schedule.notBefore != nil)
    }
}
