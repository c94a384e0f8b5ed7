import Responder
import TactileWayland
import Testing

/// A client's draw budget: its frame callback goes that long before the composition it
/// should make, the longest of its last eight draws plus a millisecond; a draw that missed
/// gives it more time at once, and the time shrinks again once the slow draw is old.
@Suite struct ClientDrawTimeTests {
    static let deadline = Instant.milliseconds(1_014)
    static let vblank = Instant.milliseconds(1_000)

    @Test func aClientThatHasNotDrawnHearsAtOnce() {
        let time = ClientDrawTime()
        #expect(time.budget == nil)
        #expect(time.release(before: Self.deadline, now: Self.vblank) == nil)
    }

    @Test func theCallbackGoesItsBudgetBeforeTheDeadline() {
        var time = ClientDrawTime()
        time.drew(in: .milliseconds(3))
        time.drew(in: .microseconds(1_500))
        #expect(time.budget == .milliseconds(4), "the longest draw and a millisecond")
        #expect(time.release(before: Self.deadline, now: Self.vblank) == .milliseconds(1_010))
        #expect(time.release(before: nil, now: Self.vblank) == nil, "no deadline to aim at: at once")
        #expect(time.release(before: Self.deadline, now: .milliseconds(1_010)) == nil, "its time has come: at once")
    }

    @Test func aMissGivesMoreTimeAtOnceAndIsForgottenAfterEightDraws() {
        var time = ClientDrawTime()
        for _ in 0..<8 { time.drew(in: .milliseconds(2)) }
        #expect(time.budget == .milliseconds(3))
        // Sent 3 ms before the deadline, it answered 9 ms later: that frame was missed.
        time.drew(in: .milliseconds(9))
        #expect(time.budget == .milliseconds(10), "the next callback comes 7 ms earlier")
        #expect(time.release(before: Self.deadline, now: Self.vblank) == .milliseconds(1_004))
        for _ in 0..<7 { time.drew(in: .milliseconds(2)) }
        #expect(time.budget == .milliseconds(10), "kept while the slow draw is among the last eight")
        time.drew(in: .milliseconds(2))
        #expect(time.budget == .milliseconds(3))
    }

    @Test func aClientSlowerThanTheRefreshHearsAtTheVblank() {
        var time = ClientDrawTime()
        time.drew(in: .milliseconds(20))
        #expect(time.release(before: Self.deadline, now: Self.vblank) == nil)
    }
}
