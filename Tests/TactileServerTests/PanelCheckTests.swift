import Responder
import TactileServer
import Testing

/// tactile panel-check's arithmetic: a panel that jitters, bounces, ghosts in one corner and
/// sticks, played through its four steps, and the settings that repair it.
private func ms(_ t: UInt64) -> Instant { .milliseconds(t) }

@Suite struct PanelCheckTests {
    /// Plays a misbehaving panel through every step; `t` is the panel's clock.
    static func misbehaving() -> PanelCheck {
        var check = PanelCheck(quiet: .seconds(5))
        var t: UInt64 = 1000
        // Hold: ±3 px of noise around (640, 400) for 2.5 s.
        _ = check.take(.down(id: 0, Point(x: 640, y: 400), ms(t)))
        for (k, (dx, dy)) in zip(0..., [(3.0, 2.0), (-2, 3), (1, -3), (-3, -1), (2, 2)] as [(Double, Double)]) {
            t += 100 + UInt64(k)
            _ = check.take(.motion(id: 0, Point(x: 640 + dx, y: 400 + dy), ms(t)))
        }
        t = 3600
        #expect(check.take(.up(id: 0, ms(t))) == .holdStill)
        // Ten taps, three of which bounce 15 to 25 ms after their lift, 2 px away.
        for k in 0..<10 {
            t += 300
            _ = check.take(.down(id: 0, Point(x: 640, y: 400), ms(t)))
            t += 60
            let ended = check.take(.up(id: 0, ms(t)))
            if k < 3 {
                t += 15 + 5 * UInt64(k)
                _ = check.take(.down(id: 0, Point(x: 642, y: 400), ms(t)))
                t += 40
                #expect(check.take(.up(id: 0, ms(t))) == nil)
            } else {
                #expect(ended == (k == 9 ? .tapTen : nil))
            }
        }
        // A line of 300 px at 125 Hz.
        t += 500
        _ = check.take(.down(id: 0, Point(x: 320, y: 400), ms(t)))
        for k in 1...50 { _ = check.take(.motion(id: 0, Point(x: 320 + Double(6 * k), y: 400), ms(t + 8 * UInt64(k)))) }
        t += 8 * 50
        #expect(check.take(.up(id: 0, ms(t))) == .drawLine)
        // Nothing touched: three one-frame ghosts in the bottom right corner, a contact that stays.
        _ = check.tick(ms(t))
        for k in 0..<3 {
            t += 500
            _ = check.take(.down(id: 0, Point(x: 1250 + Double(k), y: 780), ms(t)))
            _ = check.take(.up(id: 0, ms(t + 1)))
        }
        _ = check.take(.down(id: 1, Point(x: 100, y: 700), ms(t + 200)))
        #expect(check.tick(ms(t + 3000)) == nil)
        #expect(check.tick(ms(t + 4000)) == .touchNothing)
        #expect(check.step == nil)
        return check
    }

    @Test func aMisbehavingPanelIsMeasuredAndItsRepairsWritten() {
        let check = Self.misbehaving()
        #expect(check.bounces.count == 3 && check.bounces.map(\.gap) == [.milliseconds(15), .milliseconds(20), .milliseconds(25)])
        #expect(check.ghosts.count == 3 && check.stuck.count == 1)
        let report = check.report
        #expect(report[0].hasPrefix("jitter at rest: 3.6 px at most"), "\(report)")
        #expect(report[1] == "taps: 10; bounces seen: 3 (15–25 ms after the lift, within 2.0 px)")
        #expect(report[2] == "report rate: 125 Hz while drawing; between reports: 8.0 ms median, 8.0 ms at most")
        #expect(report[3] == "ghost contacts while nothing touched it for 5 s: 3 (1250,780 for 1 ms, 1251,780 for 1 ms, 1252,780 for 1 ms)")
        #expect(report[4].hasPrefix("stuck contacts: 1 (100,700, down "), "\(report[4])")
        let fixes = check.fixes(screen: Size(width: 1280, height: 800))
        #expect(fixes.map(\.key) == ["jitter", "smoothing", "debounce", "min-contact", "dead-zones", "stuck-after"])
        #expect(fixes.map(\.value) == ["5", "one-euro", "50", "10", "[[1200, 720, 80, 80]]", "30"])
    }

    /// A hold lifted too soon is asked again; a line too short too; a panel that behaves
    /// needs nothing.
    @Test func aWellBehavedPanelNeedsNoRepair() {
        var check = PanelCheck(quiet: .seconds(1))
        _ = check.take(.down(id: 0, Point(x: 10, y: 10), ms(0)))
        #expect(check.take(.up(id: 0, ms(500))) == nil)
        #expect(check.step == .holdStill)
        _ = check.take(.down(id: 0, Point(x: 10, y: 10), ms(1000)))
        #expect(check.take(.up(id: 0, ms(3100))) == .holdStill)
        for k in 0..<10 {
            _ = check.take(.down(id: 0, Point(x: 10, y: 10), ms(4000 + 400 * UInt64(k))))
            _ = check.take(.up(id: 0, ms(4100 + 400 * UInt64(k))))
        }
        _ = check.take(.down(id: 0, Point(x: 10, y: 10), ms(9000)))
        _ = check.take(.motion(id: 0, Point(x: 100, y: 10), ms(9100)))
        #expect(check.take(.up(id: 0, ms(9200))) == nil, "90 px is no line")
        _ = check.take(.down(id: 0, Point(x: 10, y: 10), ms(10000)))
        for k in 1...30 { _ = check.take(.motion(id: 0, Point(x: 10 + Double(10 * k), y: 10), ms(10000 + 10 * UInt64(k)))) }
        #expect(check.take(.up(id: 0, ms(10400))) == .drawLine)
        _ = check.tick(ms(10400))
        #expect(check.tick(ms(11400)) == .touchNothing)
        #expect(check.fixes(screen: Size(width: 1280, height: 800)).isEmpty)
    }
}
