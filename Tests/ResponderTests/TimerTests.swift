import Responder
import Testing

@Suite struct TimerTests {
    @Test func entriesComeOutInDeadlineOrderThenSchedulingOrder() {
        var queue = TimerQueue<String>()
        queue.schedule("late", at: ms(30))
        queue.schedule("early", at: ms(10))
        queue.schedule("tie", at: ms(10))
        #expect(queue.nextDeadline == ms(10))
        #expect(queue.popExpired(at: ms(9)) == nil)
        #expect(queue.popExpired(at: ms(20))?.payload == "early")
        #expect(queue.popExpired(at: ms(20))?.payload == "tie")
        #expect(queue.popExpired(at: ms(20)) == nil)
        #expect(queue.popExpired(at: ms(30))?.payload == "late")
        #expect(queue.isEmpty)
    }

    @Test func aCancelledEntryNeverFires() {
        var queue = TimerQueue<Int>()
        let token = queue.schedule(1, at: ms(5))
        queue.schedule(2, at: ms(6))
        let cancelled = queue.cancel(token)
        let cancelledAgain = queue.cancel(token)
        #expect(cancelled && !cancelledAgain)
        #expect(queue.popExpired(at: ms(10))?.payload == 2)
    }

    @Test func aManualClockFiresEachTimerAtItsOwnDeadlineIncludingOnesScheduledOnTheWay() {
        var clock = ManualClock(now: ms(100))
        var queue = TimerQueue<String>()
        queue.schedule("long press", at: ms(600))
        queue.schedule("tap timeout", at: ms(350))
        var fired: [(String, Instant)] = []
        clock.advance(by: .milliseconds(600), nextDeadline: { queue.nextDeadline }) { now in
            while let (_, name) = queue.popExpired(at: now) {
                fired.append((name, now))
                if name == "tap timeout" { queue.schedule("follow-up", at: now.advanced(by: .milliseconds(100))) }
            }
        }
        #expect(fired.map(\.0) == ["tap timeout", "follow-up", "long press"])
        #expect(fired.map(\.1) == [ms(350), ms(450), ms(600)])
        #expect(clock.now == ms(700))
    }

    @Test func instantsConvertToWaylandMillisecondsAndDurations() {
        let t = Instant(microseconds: 4_294_967_296_123_456)
        #expect(t.milliseconds == UInt32(truncatingIfNeeded: 4_294_967_296_123 as UInt64))
        #expect(ms(250) - ms(100) == .milliseconds(150))
        #expect(ms(100).advanced(by: .microseconds(1500)) == Instant(microseconds: 101_500))
    }
}
