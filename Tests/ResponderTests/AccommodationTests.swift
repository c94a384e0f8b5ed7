import Responder
import Testing

/// The seat's touches through `TouchAccommodations`, with a clock that fires its deadlines.
private struct Hand {
    var accommodations: TouchAccommodations
    var output = RecordingAccommodationOutput()
    var now = Instant.zero
    /// Where touches pass as they are (an exempt app, a system edge).
    var exempt: (Point) -> AccommodationExemption? = { _ in nil }

    init(_ settings: AccommodationSettings) { accommodations = TouchAccommodations(settings: settings) }

    /// Moves the clock to `time`, firing every deadline on the way, then sends `events`
    /// stamped `time`, each group followed by a frame.
    mutating func at(_ time: UInt64, _ events: (Instant) -> InputEvent...) {
        advance(to: ms(time))
        for event in events + [{ _ in .touchFrame }] { accommodations.accommodate(event(now), into: &output, exemption: exempt) }
    }

    mutating func advance(to time: Instant) {
        while let deadline = accommodations.nextDeadline, deadline <= time {
            now = max(now, deadline)
            accommodations.fireDeadlines(at: now, into: &output)
        }
        now = time
    }

    mutating func routed() -> [InputEvent] {
        defer { output.events.removeAll() }
        return output.events.filter { $0 != .touchFrame }
    }

    mutating func findings() -> [AccommodationReport.Finding] {
        defer { output.reports.removeAll() }
        return output.reports.map(\.finding)
    }
}

private func down(_ id: Int32, _ x: Double, _ y: Double) -> (Instant) -> InputEvent { { .touchDown(id: id, global: p(x, y), time: $0) } }
private func move(_ id: Int32, _ x: Double, _ y: Double) -> (Instant) -> InputEvent { { .touchMotion(id: id, global: p(x, y), time: $0) } }
private func up(_ id: Int32) -> (Instant) -> InputEvent { { .touchUp(id: id, time: $0) } }

@Suite struct AccommodationTests {
    // MARK: hold-duration

    /// The issue's: under `hold-duration: 300` a 100 ms tap goes nowhere, and a 500 ms press
    /// arrives at 300 ms, where the finger is then, and lifts as usual.
    @Test func aShortTapGoesNowhereAndAHeldPressArrivesWhenItCounts() {
        var hand = Hand(AccommodationSettings(holdDuration: .milliseconds(300)))
        hand.at(1000, down(0, 100, 100))
        hand.at(1100, up(0))
        hand.advance(to: ms(2000))
        #expect(hand.routed().isEmpty)
        #expect(hand.findings() == [.liftedTooSoon(lasted: .milliseconds(100))])

        hand.at(3000, down(1, 200, 200))
        hand.at(3100, move(1, 205, 203))
        hand.advance(to: ms(3299))
        #expect(hand.routed().isEmpty)
        hand.advance(to: ms(3300))
        #expect(hand.routed() == [.touchDown(id: 1, global: p(205, 203), time: ms(3300))])
        #expect(hand.findings() == [.counted(held: .milliseconds(300))])
        hand.at(3400, move(1, 210, 203))
        hand.at(3500, up(1))
        #expect(hand.routed() == [.touchMotion(id: 1, global: p(210, 203), time: ms(3400)), .touchUp(id: 1, time: ms(3500))])
    }

    /// A finger that slides past the slop before the hold counts goes nowhere, and nothing of
    /// it arrives later.
    @Test func aFingerThatMovesAwayBeforeItCountsGoesNowhere() {
        var hand = Hand(AccommodationSettings(holdDuration: .milliseconds(300), holdSlop: 20))
        hand.at(0, down(0, 100, 100))
        hand.at(50, move(0, 110, 100))
        hand.at(100, move(0, 130, 100))
        hand.at(400, move(0, 131, 100))
        hand.at(500, up(0))
        hand.advance(to: ms(1000))
        #expect(hand.routed().isEmpty)
        #expect(hand.findings() == [.movedAway(distance: 30)])
    }

    /// The ring's frames: under the finger, where it is, filling from its down to the moment
    /// it counts; gone then, and gone at once for a finger that lifts.
    @Test func theRingFillsUnderTheFingerUntilTheHoldCounts() {
        var hand = Hand(AccommodationSettings(holdDuration: .milliseconds(400)))
        hand.at(1000, down(3, 100, 100))
        let ring = hand.accommodations.rings.first
        #expect(ring == TouchRing(touch: 3, at: p(100, 100), start: ms(1000), end: ms(1400), purpose: .holdDuration))
        #expect([1000, 1100, 1200, 1300, 1400, 1500].map { ring?.progress(at: ms($0)) } == [0, 0.25, 0.5, 0.75, 1, 1])
        hand.at(1200, move(3, 104, 100))
        #expect(hand.accommodations.rings.map(\.at) == [p(104, 100)])
        hand.advance(to: ms(1400))
        #expect(hand.accommodations.rings.isEmpty)
        hand.at(2000, down(4, 10, 10))
        #expect(hand.accommodations.rings.count == 1)
        hand.at(2050, up(4))
        #expect(hand.accommodations.rings.isEmpty)
    }

    /// A touch on an exempt app, or on a system edge swipe's edge, passes at once, and the
    /// trace says why; the next one elsewhere is held again.
    @Test func anExemptTouchPassesAsItIs() {
        var hand = Hand(AccommodationSettings(holdDuration: .milliseconds(300)))
        hand.exempt = { $0.x < 24 ? .systemEdge : nil }
        hand.at(0, down(0, 5, 300))
        hand.at(16, move(0, 60, 300))
        hand.at(32, up(0))
        #expect(hand.routed() == [.touchDown(id: 0, global: p(5, 300), time: ms(0)), .touchMotion(id: 0, global: p(60, 300), time: ms(16)), .touchUp(id: 0, time: ms(32))])
        #expect(hand.findings() == [.exempt(.systemEdge)])
        hand.at(100, down(1, 300, 300))
        #expect(hand.routed().isEmpty)
    }

    // MARK: ignore-repeat

    /// A tremor's three taps in 200 ms, a few pixels apart, arrive as the first alone; a tap
    /// after the window, or far away, is a tap of its own.
    @Test func aTremorsThreeTapsAreOne() {
        var hand = Hand(AccommodationSettings(ignoreRepeat: .milliseconds(500)))
        hand.at(0, down(0, 100, 100))
        hand.at(40, up(0))
        hand.at(90, down(1, 106, 98))
        hand.at(120, move(1, 107, 98))
        hand.at(140, up(1))
        hand.at(190, down(2, 95, 104))
        hand.at(200, up(2))
        #expect(hand.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(0)), .touchUp(id: 0, time: ms(40))])
        #expect(hand.findings() == [.repeatOf(0, after: .milliseconds(90), distance: 6.3), .repeatOf(0, after: .milliseconds(190), distance: 6.4)])
        hand.at(300, down(0, 400, 100))
        hand.at(320, up(0))
        hand.at(600, down(1, 400, 100))
        hand.at(620, up(1))
        #expect(hand.routed().count == 2, "far away: its own tap; ignored: the same place, 300 ms later")
        hand.at(900, down(2, 400, 100))
        #expect(hand.routed() == [.touchDown(id: 2, global: p(400, 100), time: ms(900))], "past the window of the touch that went on")
    }

    // MARK: tap-assistance

    /// A sliding tap lands at its first place with `initial`, at its last with `final`,
    /// with no motion between, on the lift.
    @Test(arguments: [(TapAssistance.initial, p(100, 100)), (.final, p(140, 110))])
    func aSlidingTapLandsAtItsInitialOrFinalPlace(mode: TapAssistance, place: Point) {
        var hand = Hand(AccommodationSettings(tapAssistance: mode, tapAssistanceDelay: .milliseconds(300)))
        hand.at(0, down(0, 100, 100))
        hand.at(50, move(0, 120, 105))
        hand.at(100, move(0, 140, 110))
        #expect(hand.routed().isEmpty)
        hand.at(150, up(0))
        #expect(hand.routed() == [.touchDown(id: 0, global: place, time: ms(0)), .touchUp(id: 0, time: ms(150))])
        #expect(hand.findings() == [.tap(mode, lasted: .milliseconds(150), slid: 41.2)])
    }

    /// A touch longer than the delay is a touch as the finger made it, its events let go in
    /// order with their own times once the delay passed, and from then on as they come.
    @Test func aLongTouchIsDelayedOnlyUntilTheDelay() {
        var hand = Hand(AccommodationSettings(tapAssistance: .final, tapAssistanceDelay: .milliseconds(300)))
        hand.at(0, down(0, 100, 100))
        hand.at(100, move(0, 150, 100))
        hand.advance(to: ms(300))
        #expect(hand.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(0)), .touchMotion(id: 0, global: p(150, 100), time: ms(100))])
        #expect(hand.findings() == [.delayed(.milliseconds(300))])
        hand.at(400, move(0, 200, 100))
        hand.at(500, up(0))
        #expect(hand.routed() == [.touchMotion(id: 0, global: p(200, 100), time: ms(400)), .touchUp(id: 0, time: ms(500))])
    }

    /// With a hold duration too, tap assistance's delay runs from the moment the hold counted.
    @Test func tapAssistanceCountsFromTheHold() {
        var hand = Hand(AccommodationSettings(holdDuration: .milliseconds(200), tapAssistance: .initial, tapAssistanceDelay: .milliseconds(300)))
        hand.at(0, down(0, 100, 100))
        hand.advance(to: ms(200))
        #expect(hand.routed().isEmpty)
        hand.at(250, move(0, 110, 100))
        hand.at(300, up(0))
        #expect(hand.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(200)), .touchUp(id: 0, time: ms(300))])
    }

    // MARK: settings

    /// New settings wait for the touches under way to end, so no touch changes midway.
    @Test func settingsChangeOnlyWhenNoTouchIsDown() {
        var hand = Hand(AccommodationSettings())
        hand.at(0, down(0, 100, 100))
        let appliedAtOnce = hand.accommodations.setSettings(AccommodationSettings(holdDuration: .milliseconds(300)))
        #expect(!appliedAtOnce)
        hand.at(50, up(0))
        #expect(hand.routed() == [.touchDown(id: 0, global: p(100, 100), time: ms(0)), .touchUp(id: 0, time: ms(50))])
        #expect(hand.accommodations.settings.holdDuration == .milliseconds(300))
        hand.at(100, down(1, 100, 100))
        hand.at(150, up(1))
        #expect(hand.routed().isEmpty)
        let applied = hand.accommodations.setSettings(AccommodationSettings())
        #expect(applied)
        #expect(!hand.accommodations.isActive)
    }

    /// Events that are not touches, and touches with every accommodation off, pass at once,
    /// frames included.
    @Test func offItChangesNothing() {
        var hand = Hand(AccommodationSettings())
        hand.at(0, down(0, 1, 2), move(0, 3, 4), up(0))
        #expect(hand.output.events == [.touchDown(id: 0, global: p(1, 2), time: ms(0)), .touchMotion(id: 0, global: p(3, 4), time: ms(0)), .touchUp(id: 0, time: ms(0)), .touchFrame])
        hand.accommodations.accommodate(.key(key: 30, state: .pressed, time: ms(1)), into: &hand.output) { _ in nil }
        #expect(hand.output.events.last == .key(key: 30, state: .pressed, time: ms(1)))
    }
}

/// What the server exempts: a touch where a system edge swipe would take it.
@Suite struct SystemEdgeExemptionTests {
    @Test func aTouchOnAnEdgeSwipesBandIsExemptAndOneInsideIsNot() {
        var desk = Desk()
        desk.router.addGesture(EdgeSwipe(edge: .left, startBand: 24), on: desk.root)
        #expect(desk.router.systemEdgeGestureStarts(at: p(5, 500)))
        #expect(!desk.router.systemEdgeGestureStarts(at: p(300, 500)))
        #expect(!Desk().router.systemEdgeGestureStarts(at: p(5, 500)), "no edge swipe configured")
    }
}

/// `touch.secondary-click` in the pointer emulation of a client without wl_touch.
@Suite struct SecondaryClickTests {
    var desk = Desk(policy: RoutingPolicy(secondaryClick: .milliseconds(600)), bound: [alice: [.pointer, .keyboard], bob: .all])

    /// Held still: the pointer goes there at once, a right press and release at 600 ms, and
    /// no left button at all, not even at the lift.
    @Test mutating func aFingerHeldStillRightClicksAndSendsNoLeftButton() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        #expect(desk.send(.touchDown(id: 1, global: p(110, 120), time: ms(1000)), .touchFrame) == [
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .pointerEnter(alice, surface: w, local: p(10, 20)), .pointerFrame(alice),
        ])
        #expect(desk.router.secondaryClickRing == TouchRing(touch: 1, at: p(110, 120), start: ms(1000), end: ms(1600), purpose: .secondaryClick))
        #expect(desk.send(.touchMotion(id: 1, global: p(115, 124), time: ms(1300)), .touchFrame) == [], "within the slop")
        #expect(desk.fire(at: ms(1599)) == [])
        #expect(desk.fire(at: ms(1600)) == [
            .pointerButton(alice, button: 0x111, state: .pressed, time: ms(1600)), .pointerFrame(alice),
            .pointerButton(alice, button: 0x111, state: .released, time: ms(1600)), .pointerFrame(alice),
        ])
        #expect(desk.router.secondaryClickRing == nil)
        #expect(desk.send(.touchMotion(id: 1, global: p(200, 200), time: ms(1700)), .touchUp(id: 1, time: ms(1800)), .touchFrame) == [])
    }

    /// A finger that moves first drags with the left button, pressed where it came down; one
    /// that lifts first clicks the left button.
    @Test mutating func aMovingFingerDragsAndAQuickOneClicks() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        _ = desk.send(.touchDown(id: 1, global: p(110, 120), time: ms(0)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(140, 120), time: ms(100)), .touchFrame) == [
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(100)), .pointerFrame(alice),
            .pointerMotion(alice, surface: w, local: p(40, 20), time: ms(100)), .pointerFrame(alice),
        ])
        #expect(desk.fire(at: ms(1000)) == [])
        let lifted = desk.send(.touchUp(id: 1, time: ms(1100)), .touchFrame)
        #expect(lifted.prefix(2) == [
            .pointerButton(alice, button: 0x110, state: .released, time: ms(1100)), .pointerFrame(alice),
        ])
        _ = desk.send(.touchDown(id: 2, global: p(150, 150), time: ms(2000)), .touchFrame)
        let tapped = desk.send(.touchUp(id: 2, time: ms(2100)), .touchFrame)
        #expect(tapped.filter { if case .pointerButton = $0 { true } else { false } } == [
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(2100)),
            .pointerButton(alice, button: 0x110, state: .released, time: ms(2100)),
        ])
        #expect(desk.fire(at: ms(5000)) == [])
    }

    /// An app with wl_touch keeps its own long press: its touch is a touch, however long.
    @Test mutating func anAppWithTouchIsUntouched() {
        let w = desk.add(window(bob, 100, 100, 200, 200))
        #expect(desk.send(.touchDown(id: 1, global: p(110, 120), time: ms(0)), .touchFrame) == [
            .keyboardEnter(bob, surface: w, pressedKeys: []),
            .touchDown(bob, surface: w, id: 1, local: p(10, 20), time: ms(0)), .touchFrame(bob),
        ])
        #expect(desk.router.secondaryClickRing == nil)
        #expect(desk.fire(at: ms(2000)) == [])
    }
}
