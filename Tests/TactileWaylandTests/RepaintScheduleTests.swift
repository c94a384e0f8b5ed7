import Responder
import TactileWayland
import Testing

/// The frame clock's policy, without a screen: after a vblank the next frame is composed at
/// the next vblank less the budget, which follows what repaints cost; frames and frame
/// callbacks keep to whole refreshes, however late the last one was handled.
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
        #expect(schedule.budget(refresh: Self.refresh60, now: Self.vblank.time) == .milliseconds(2), "nothing measured yet: the margin")
        #expect(schedule.notBefore == Instant(microseconds: 1_000_000 + 16_667 - 2000))
        schedule.repainted(took: .milliseconds(5), at: .milliseconds(998))
        #expect(schedule.notBefore == nil, "until the next frame is shown")
        #expect(schedule.presented(Self.vblank, refreshMilliHertz: 60_000) == .milliseconds(7), "moved: logged")
        #expect(schedule.budget(refresh: Self.refresh60, now: Self.vblank.time) == .milliseconds(7), "the longest repaint and the margin")
        #expect(schedule.notBefore == Instant(microseconds: 1_000_000 + 16_667 - 7000))
    }

    @Test func theBudgetForgetsOldRepaintsAndNeverTakesTheWholeFrame() {
        var schedule = RepaintSchedule()
        let now = Instant.milliseconds(1000)
        schedule.repainted(took: .milliseconds(30), at: now)
        #expect(schedule.budget(refresh: Self.refresh60, now: now) == Self.refresh60 * 3 / 4, "at most three quarters of the refresh")
        for _ in 0..<16 { schedule.repainted(took: .milliseconds(1), at: now) }
        #expect(schedule.budget(refresh: Self.refresh60, now: now) == .milliseconds(3), "the slow one is forgotten after 16 repaints")
    }

    /// A still screen's last repaint (the whole screen, once) is forgotten after a second: the
    /// next stroke's frames are composed as late as its own repaints allow.
    @Test func theBudgetForgetsRepaintsOlderThanASecond() {
        var schedule = RepaintSchedule()
        schedule.repainted(took: .milliseconds(10), at: .milliseconds(1000))
        #expect(schedule.budget(refresh: Self.refresh60, now: .milliseconds(1999)) == .milliseconds(12))
        #expect(schedule.budget(refresh: Self.refresh60, now: .milliseconds(2000)) == .milliseconds(2), "forgotten: the margin")
        schedule.repainted(took: .milliseconds(1), at: .milliseconds(2500))
        #expect(schedule.budget(refresh: Self.refresh60, now: .milliseconds(2501)) == .milliseconds(3))
    }

    /// A display whose flips complete when made (no vblank counter): nothing waits for a
    /// deadline, and frame callbacks keep to a grid laid from its first flip, whatever else
    /// is shown meanwhile and however late the last release came.
    @Test func withoutVblanksOnlyFrameCallbacksKeepToTheRefreshGrid() {
        var schedule = RepaintSchedule()
        let flip = { (ms: UInt64) in PresentedFrame(time: .milliseconds(ms), flags: [.hardwareCompletion]) }
        schedule.presented(flip(1000), refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.notBefore == nil, "a commit is composed at once")
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_016_667), "callbacks at the next whole refresh")
        schedule.presented(flip(1005), refreshMilliHertz: 60_000)
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_016_667), "a frame without callbacks does not push them back")
        // An empty frame that only paces callbacks is answered without a flip (no flags), and
        // late: 1.5 ms after the vblank it was due at. The next is still on the grid.
        schedule.presented(PresentedFrame(time: Instant(microseconds: 1_018_167)), refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_033_334), "two refreshes after the first flip, not one after the release")
        schedule.presented(flip(1040), refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.callbacksNotBefore == Instant(microseconds: 1_050_000), "the grid is kept across flips: three refreshes after the first")
        schedule.presented(Self.vblank, refreshMilliHertz: 60_000, releasedCallbacks: true)
        #expect(schedule.callbacksNotBefore == nil, "a vblank paces them itself")
        #expect(schedule.notBefore != nil)
    }

    /// A repaint that is handled late (a busy loop) still aims at the next vblank of the
    /// grid, not a refresh after it was handled.
    @Test func theDeadlineIsTheNextVblankLessTheBudget() {
        var schedule = RepaintSchedule()
        schedule.presented(PresentedFrame(time: Instant(microseconds: 2_000_000), flags: [.vsync]), refreshMilliHertz: 120_000)
        #expect(schedule.notBefore == Instant(microseconds: 2_000_000 + 8_334 - 2_000), "a 120 Hz refresh less the 2 ms margin")
        #expect(schedule.grid?.next(after: Instant(microseconds: 2_020_000)) == Instant(microseconds: 2_025_000), "three refreshes on")
    }
}

/// A display's vblanks, to the microsecond, without drifting.
@Suite struct RefreshGridTests {
    static let grid = RefreshGrid(vblank: .milliseconds(1000), refreshMilliHertz: 60_000)!

    @Test func theNextVblankIsStrictlyLaterOnTheGrid() {
        #expect(Self.grid.next(after: .milliseconds(1000)) == Instant(microseconds: 1_016_667), "a vblank itself: the one after")
        #expect(Self.grid.next(after: Instant(microseconds: 1_016_666)) == Instant(microseconds: 1_016_667))
        #expect(Self.grid.next(after: Instant(microseconds: 1_016_667)) == Instant(microseconds: 1_033_334))
        #expect(Self.grid.next(after: Instant(microseconds: 990_000)) == Instant(microseconds: 1_000_000), "before the known vblank")
        #expect(Self.grid.next(after: Instant(microseconds: 983_000)) == Instant(microseconds: 983_334))
    }

    /// A day of 60 Hz refreshes on: 5,184,001 refreshes of 16,666,666 ns from the known
    /// vblank, where adding 16,667 µs a refresh would be 1.7 s off.
    @Test func aDayLaterItHasNotDrifted() {
        let day = Instant(microseconds: 1_000_000 + 86_400_000_000)
        #expect(Self.grid.next(after: day) == Instant(microseconds: 1_000_000 + 86_400_013_211))
        #expect(RefreshGrid(vblank: .zero, refreshMilliHertz: 0) == nil, "no refresh, no grid")
    }

    /// A time from a hostile or broken clock far from the vblank neither traps nor hangs.
    @Test func extremeTimesGiveALaterTime() {
        let far = Instant(microseconds: UInt64.max / 2)
        #expect(Self.grid.next(after: far) > far)
        #expect(Self.grid.next(after: .zero) == Instant(microseconds: 1), "60 refreshes before the vblank: 40 ns, rounded up")
    }
}
