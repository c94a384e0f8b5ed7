import Responder
import Testing

@Suite struct TimerTests {
    /// Deadlines fire in order, each at its own time, including one scheduled on the way
    /// (a tap timeout that arms a follow-up).
    @Test func aManualClockStopsAtEveryDeadlineOnTheWay() {
        var clock = ManualClock(now: ms(100))
        var pending = [ms(600), ms(350)]
        var fired: [Instant] = []
        clock.advance(by: .milliseconds(600), nextDeadline: { pending.min() }) { now in
            pending.removeAll { $0 <= now }
            fired.append(now)
            if now == ms(350) { pending.append(ms(450)) }
        }
        #expect(fired == [ms(350), ms(450), ms(600)])
        #expect(clock.now == ms(700))
    }

    @Test func instantsConvertToWaylandMillisecondsAndDurations() {
        let t = Instant(microseconds: 4_294_967_296_123_456)
        #expect(t.milliseconds == UInt32(truncatingIfNeeded: 4_294_967_296_123 as UInt64))
        #expect(ms(250) - ms(100) == .milliseconds(150))
        #expect(ms(100).advanced(by: .microseconds(1500)) == Instant(microseconds: 101_500))
    }
}
