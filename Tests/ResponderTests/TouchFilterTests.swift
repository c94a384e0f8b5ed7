import Responder
import Testing

/// A touchscreen's events through `TouchFilters`, with a clock that fires its deadlines.
private struct Panel {
    var filters = TouchFilters()
    var output = RecordingFilterOutput()
    var now = Instant.zero
    let device = InputDeviceID(7)

    init(_ settings: TouchFilterSettings) { filters.setFilters(settings, for: device) }

    /// Moves the clock to `time`, firing every deadline on the way, then sends `events`
    /// stamped `time`, each followed by a frame (as libinput groups them).
    mutating func at(_ time: UInt64, _ events: (Instant) -> InputEvent...) {
        advance(to: ms(time))
        for event in events { filters.filter(event(now), from: device, into: &output) }
        if !events.isEmpty { filters.filter(.touchFrame, from: device, into: &output) }
    }

    mutating func advance(to time: Instant) {
        while let deadline = filters.nextDeadline, deadline <= time {
            now = max(now, deadline)
            filters.fireDeadlines(at: now, into: &output)
        }
        now = time
    }

    /// What reached routing since the last call, frames left out.
    mutating func routed() -> [InputEvent] {
        defer { output.events.removeAll() }
        return output.events.filter { $0 != .touchFrame }
    }

    mutating func findings() -> [TouchFilterReport.Finding] {
        defer { output.reports.removeAll() }
        return output.reports.map(\.finding)
    }
}

private func down(_ id: Int32, _ x: Double, _ y: Double) -> (Instant) -> InputEvent { { .touchDown(id: id, global: p(x, y), time: $0) } }
private func move(_ id: Int32, _ x: Double, _ y: Double) -> (Instant) -> InputEvent { { .touchMotion(id: id, global: p(x, y), time: $0) } }
private func up(_ id: Int32) -> (Instant) -> InputEvent { { .touchUp(id: id, time: $0) } }

@Suite struct TouchFilterTests {
    // MARK: debounce

    /// The issue's bounce: a 40 ms tap, a 15 ms gap, a 60 ms re-touch 2 px away. One tap,
    /// whose lift arrives a window after the re-touch's, with the re-touch's own time.
    @Test func aBouncedTapIsOneTap() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(50)))
        panel.at(1000, down(0, 100, 100))
        panel.at(1040, up(0))
        panel.at(1055, down(0, 102, 100))
        panel.at(1115, up(0))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(1000)), .touchMotion(id: 0, global: p(102, 100), time: ms(1055))])
        #expect(panel.findings() == [.bounce(continues: 0, gap: .milliseconds(15), distance: 2)])
        panel.advance(to: ms(1164))
        #expect(panel.routed().isEmpty)
        panel.advance(to: ms(1165))
        #expect(panel.output.events == [.touchUp(id: 0, time: ms(1115)), .touchFrame], "a released lift ends a frame of its own")
    }

    /// A real double tap: the second touch comes later than the window, so it stays two.
    @Test func aDoubleTapLaterThanTheWindowStaysTwo() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(50)))
        panel.at(1000, down(0, 100, 100))
        panel.at(1080, up(0))
        panel.at(1140, down(0, 101, 100))
        panel.at(1200, up(0))
        panel.advance(to: ms(2000))
        #expect(panel.routed() == [
            .touchDown(id: 0, global: p(100, 100), time: ms(1000)), .touchUp(id: 0, time: ms(1080)),
            .touchDown(id: 0, global: p(101, 100), time: ms(1140)), .touchUp(id: 0, time: ms(1200)),
        ])
        #expect(panel.findings().isEmpty)
    }

    /// A down within the window but farther than the radius is another finger: it gets an id
    /// of its own while the first touch's lift is still held.
    @Test func aDownFartherThanTheRadiusIsAnotherTouch() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(50), debounceRadius: 24))
        panel.at(1000, down(0, 100, 100))
        panel.at(1040, up(0))
        panel.at(1050, down(0, 200, 100))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(1000)), .touchDown(id: 1, global: p(200, 100), time: ms(1050))])
        panel.at(1060, move(0, 210, 100))
        panel.advance(to: ms(1090))
        #expect(panel.routed() == [.touchMotion(id: 1, global: p(210, 100), time: ms(1060)), .touchUp(id: 0, time: ms(1040))])
    }

    /// A drag that bounces mid-stroke goes on as one drag, under its first id.
    @Test func aBouncedDragIsOneDrag() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(30)))
        panel.at(0, down(3, 10, 10))
        panel.at(16, move(3, 30, 10))
        panel.at(32, up(3))
        panel.at(40, down(4, 45, 10))
        panel.at(56, move(4, 60, 10))
        panel.at(72, up(4))
        panel.advance(to: ms(200))
        #expect(panel.routed() == [
            .touchDown(id: 3, global: p(10, 10), time: ms(0)), .touchMotion(id: 3, global: p(30, 10), time: ms(16)),
            .touchMotion(id: 3, global: p(45, 10), time: ms(40)), .touchMotion(id: 3, global: p(60, 10), time: ms(56)),
            .touchUp(id: 3, time: ms(72)),
        ])
    }

    /// A panel unplugged while a lift is held: the lift goes on at once, so the app's touch
    /// ends; the device's filters go with it.
    @Test func anUnpluggedPanelsHeldLiftGoesOn() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(50)))
        panel.at(0, down(0, 100, 100))
        panel.at(40, up(0))
        _ = panel.routed()
        panel.filters.forget(panel.device, into: &panel.output)
        #expect(panel.output.events == [.touchUp(id: 0, time: ms(40)), .touchFrame])
        #expect(panel.filters.nextDeadline == nil && panel.filters.settings(of: panel.device) == nil)
    }

    // MARK: jitter and smoothing

    /// ±3 px of noise on a held finger under `jitter: 8`: no motion at all; then a real drag
    /// resumes from where the finger is.
    @Test func jitterBelowTheThresholdSendsNoMotion() {
        var panel = Panel(TouchFilterSettings(jitter: 8))
        panel.at(0, down(0, 500, 300))
        for (k, dx) in [3.0, -3, 2, -2, 3, 0, -3].enumerated() { panel.at(UInt64(16 * (k + 1)), move(0, 500 + dx, 300 + dx / 2)) }
        #expect(panel.routed() == [.touchDown(id: 0, global: p(500, 300), time: ms(0))])
        #expect(panel.findings() == [.heldStill(radius: 8)])
        panel.at(200, move(0, 509, 300))
        panel.at(216, move(0, 512, 300))
        #expect(panel.routed() == [.touchMotion(id: 0, global: p(509, 300), time: ms(200)), .touchMotion(id: 0, global: p(512, 300), time: ms(216))])
    }

    /// The 1€ filter against hand-worked values: min-cutoff 1 Hz, beta 0.02, derivative cutoff
    /// 1 Hz, 60 Hz samples, a step from 0 to 10 px. Speed: α(1 Hz) = r/(1+r), r = 2π/60 =
    /// 0.10472, so α = 0.094793; the raw speed is 600 px/s, smoothed to 56.876. Cutoff:
    /// 1 + 0.02 × 56.876 = 2.1375 Hz; r = 0.223838, α = 0.182894; the value: 1.829 px. The
    /// second sample at 10 again: speed 97.958, cutoff 2.9592, value 3.762.
    @Test func oneEuroMatchesHandWorkedValues() {
        var panel = Panel(TouchFilterSettings(smoothing: OneEuroSettings(minimumCutoff: 1, beta: 0.02, derivativeCutoff: 1)))
        panel.advance(to: Instant(microseconds: 0))
        panel.filters.filter(.touchDown(id: 0, global: p(0, 0), time: .zero), from: panel.device, into: &panel.output)
        panel.filters.filter(.touchMotion(id: 0, global: p(10, 0), time: Instant(microseconds: 16_667)), from: panel.device, into: &panel.output)
        panel.filters.filter(.touchMotion(id: 0, global: p(10, 0), time: Instant(microseconds: 33_333)), from: panel.device, into: &panel.output)
        let xs = panel.routed().compactMap { event -> Double? in
            if case .touchMotion(_, let global, _) = event { return global.x }
            return nil
        }
        #expect(xs.count == 2)
        #expect(abs(xs[0] - 1.829) < 0.002)
        #expect(abs(xs[1] - 3.762) < 0.002)
        #expect(panel.findings() == [.smoothed])
    }

    /// A still finger's ±3 px noise is mostly smoothed away, and a 1,000 px/s stroke lags by
    /// a bounded amount: the filter's reason to exist, checked on both ends.
    @Test func smoothingCalmsAStillFingerAndFollowsAStroke() {
        var panel = Panel(TouchFilterSettings(smoothing: OneEuroSettings()))
        panel.at(0, down(0, 100, 100))
        var seed: UInt64 = 42
        for k in 1...120 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(seed >> 33 % 7) - 3
            panel.advance(to: Instant(microseconds: UInt64(k) * 16_667))
            panel.filters.filter(.touchMotion(id: 0, global: p(100 + noise, 100), time: panel.now), from: panel.device, into: &panel.output)
        }
        let still = panel.routed().suffix(60).compactMap { e -> Double? in if case .touchMotion(_, let g, _) = e { return g.x } else { return nil } }
        #expect(still.allSatisfy { abs($0 - 100) < 1.5 }, "\(still)")
        // Then 300 ms at 1,000 px/s: the defaults lag about 6 px (6 ms) behind at its end.
        var x = 100.0
        for k in 121...138 {
            x += 1000.0 / 60
            panel.advance(to: Instant(microseconds: UInt64(k) * 16_667))
            panel.filters.filter(.touchMotion(id: 0, global: p(x, 100), time: panel.now), from: panel.device, into: &panel.output)
        }
        guard case .touchMotion(_, let last, _)? = panel.routed().last else {
            Issue.record("no motion")
            return
        }
        #expect((3...10).contains(x - last.x), "lag \(x - last.x) px")
    }

    // MARK: dead zones, ghosts, stuck contacts

    /// A touch that comes down in a dead zone goes nowhere, to its lift; one that slides in
    /// from outside goes on.
    @Test func deadZonesDropTouchesThatStartInside() {
        var panel = Panel(TouchFilterSettings(deadZones: [Rect(x: 0, y: 0, width: 40, height: 40)]))
        panel.at(0, down(0, 10, 10))
        panel.at(16, move(0, 100, 100))
        panel.at(32, up(0))
        #expect(panel.routed().isEmpty)
        #expect(panel.findings() == [.inDeadZone(Rect(x: 0, y: 0, width: 40, height: 40))])
        panel.at(100, down(0, 100, 100))
        panel.at(116, move(0, 20, 20))
        panel.at(132, up(0))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(100)), .touchMotion(id: 0, global: p(20, 20), time: ms(116)), .touchUp(id: 0, time: ms(132))])
    }

    /// A one-frame contact is a ghost; a press that lasts the minimum arrives then, with its
    /// own time; one that moves first arrives at once.
    @Test func minimumContactDropsGhostsAndDelaysEveryDown() {
        var panel = Panel(TouchFilterSettings(minimumContact: .milliseconds(30)))
        panel.at(0, down(0, 900, 10))
        panel.at(16, up(0))
        #expect(panel.routed().isEmpty)
        #expect(panel.findings() == [.ghost(lasted: .milliseconds(16))])
        panel.at(100, down(0, 300, 300))
        panel.advance(to: ms(129))
        #expect(panel.routed().isEmpty)
        panel.advance(to: ms(130))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(300, 300), time: ms(100))])
        panel.at(200, up(0))
        panel.at(300, down(1, 50, 50))
        panel.at(308, move(1, 60, 50))
        #expect(panel.routed() == [.touchUp(id: 0, time: ms(200)), .touchDown(id: 1, global: p(50, 50), time: ms(300)), .touchMotion(id: 1, global: p(60, 50), time: ms(308))])
    }

    /// A contact on a device where nothing changes for the limit is cancelled; its later
    /// events go nowhere, and the next touch is routed as usual.
    @Test func aStuckContactIsCancelled() {
        var panel = Panel(TouchFilterSettings(stuckAfter: .seconds(5)))
        panel.at(0, down(0, 640, 400))
        panel.at(4000, move(0, 641, 400))
        panel.advance(to: ms(8999))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(640, 400), time: ms(0)), .touchMotion(id: 0, global: p(641, 400), time: ms(4000))])
        panel.advance(to: ms(9000))
        #expect(panel.routed() == [.touchCancel(id: 0, time: ms(9000))])
        #expect(panel.findings() == [.stuck(still: .seconds(5))])
        panel.at(9500, move(0, 700, 400))
        panel.at(9600, up(0))
        panel.at(9700, down(0, 10, 10))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(10, 10), time: ms(9700))])
    }

    /// A finger held still while another moves on the same device is not stuck.
    @Test func aStillFingerBesideAMovingOneIsNotStuck() {
        var panel = Panel(TouchFilterSettings(stuckAfter: .seconds(5)))
        panel.at(0, down(0, 100, 100))
        panel.at(10, down(1, 500, 500))
        for k in 1...20 { panel.at(UInt64(k * 500), move(1, 500 + Double(k), 500)) }
        panel.advance(to: ms(10_400))
        #expect(!panel.routed().contains { if case .touchCancel = $0 { true } else { false } })
    }

    // MARK: together

    /// The stages together: a ghost in a dead corner, a bounce whose re-touch min-contact
    /// holds, and the lift that waits for both.
    @Test func stagesTogetherJoinABounceMinContactHeld() {
        var panel = Panel(TouchFilterSettings(debounce: .milliseconds(50), minimumContact: .milliseconds(30)))
        panel.at(1000, down(0, 100, 100))
        panel.advance(to: ms(1030))
        panel.at(1040, up(0))
        panel.at(1055, down(0, 102, 100))
        panel.at(1115, up(0))
        panel.advance(to: ms(2000))
        #expect(panel.routed() == [
            .touchDown(id: 0, global: p(100, 100), time: ms(1000)), .touchMotion(id: 0, global: p(102, 100), time: ms(1055)),
            .touchUp(id: 0, time: ms(1115)),
        ])
    }

    /// Settings given mid-touch wait until the device is quiet; a device without filters and
    /// every other event pass untouched.
    @Test func newSettingsWaitForTheDevicesTouchesToEnd() {
        var panel = Panel(TouchFilterSettings(jitter: 50))
        panel.at(0, down(0, 100, 100))
        panel.filters.setFilters(TouchFilterSettings(), for: panel.device)
        panel.at(16, move(0, 110, 100))
        #expect(panel.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(0))])
        panel.at(32, up(0))
        panel.at(48, down(0, 100, 100))
        panel.at(64, move(0, 110, 100))
        #expect(panel.routed() == [.touchUp(id: 0, time: ms(32)), .touchDown(id: 0, global: p(100, 100), time: ms(48)), .touchMotion(id: 0, global: p(110, 100), time: ms(64))])
        var other = RecordingFilterOutput()
        panel.filters.filter(.touchDown(id: 9, global: p(1, 1), time: ms(70)), from: InputDeviceID(99), into: &other)
        panel.filters.filter(.key(key: 30, state: .pressed, time: ms(70)), from: panel.device, into: &other)
        #expect(other.events == [.touchDown(id: 9, global: p(1, 1), time: ms(70)), .key(key: 30, state: .pressed, time: ms(70))])
    }

    /// Hostile values: times at the end of the clock, motions of touches never down,
    /// duplicate downs. Nothing traps, and the router is left to refuse what makes no sense.
    @Test func hostileEventsNeitherTrapNorConfuseIds() {
        var panel = Panel(TouchFilterSettings(debounce: .seconds(1), jitter: 4, smoothing: OneEuroSettings(), minimumContact: .milliseconds(10), stuckAfter: .seconds(1)))
        let end = Instant(microseconds: .max)
        panel.filters.filter(.touchDown(id: 0, global: p(1, 1), time: end), from: panel.device, into: &panel.output)
        panel.filters.filter(.touchDown(id: 0, global: p(1, 1), time: end), from: panel.device, into: &panel.output)
        panel.filters.filter(.touchMotion(id: 5, global: p(1, 1), time: .zero), from: panel.device, into: &panel.output)
        panel.filters.filter(.touchUp(id: 0, time: .zero), from: panel.device, into: &panel.output)
        panel.filters.fireDeadlines(at: end, into: &panel.output)
        #expect(panel.filters.nextDeadline == nil)
    }
}
