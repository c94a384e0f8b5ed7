import Responder
import Testing

/// DESIGN.md §1.3: the arena, cancellation and the delay options, rule by rule. The output is
/// 1000 × 1000; an edge swipe from the left needs to start within 24 px and travel 80 px.
/// Surfaces are not toplevels here, so keyboard focus stays out of the way.
@Suite struct GestureArbitrationTests {
    var desk = Desk()

    /// The default options: the client sees the touch until the swipe wins, then one cancel
    /// (no frame), then nothing more of it; a fresh down afterwards reuses the id.
    @Test mutating func aWinningEdgeSwipeCancelsTheClientThatSawItsTouch() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        #expect(desk.send(.touchDown(id: 1, global: p(5, 100), time: ms(1)), .touchFrame) == [
            .touchDown(alice, surface: w, id: 1, local: p(5, 100), time: ms(1)), .touchFrame(alice),
        ])
        #expect(desk.send(.touchMotion(id: 1, global: p(40, 100), time: ms(2)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 1, local: p(40, 100), time: ms(2)), .touchFrame(alice),
        ])
        #expect(desk.send(.touchMotion(id: 1, global: p(90, 100), time: ms(3)), .touchFrame) == [.touchCancel(alice)])
        #expect(desk.gestureEvents() == [.began])
        #expect(desk.send(.touchMotion(id: 1, global: p(200, 100), time: ms(4)), .touchFrame, .touchUp(id: 1, time: ms(5)), .touchFrame) == [])
        #expect(desk.gestureEvents() == [.changed, .ended])
        #expect(desk.send(.touchDown(id: 1, global: p(300, 300), time: ms(6)), .touchFrame) == [
            .touchDown(alice, surface: w, id: 1, local: p(300, 300), time: ms(6)), .touchFrame(alice),
        ])
    }

    /// A client without wl_touch saw the touch as a press and a drag of its pointer: the
    /// winning swipe must not let it see the release that would complete them. The pointer
    /// leaves instead, and comes back with the next touch.
    @Test mutating func aWinningEdgeSwipeEndsAnEmulatedPressWithALeaveAndNoRelease() {
        desk = Desk(bound: [alice: .pointer])
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        #expect(desk.send(.touchDown(id: 1, global: p(5, 100), time: ms(1)), .touchFrame) == [
            .pointerEnter(alice, surface: w, local: p(5, 100)), .pointerFrame(alice),
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(1)), .pointerFrame(alice),
        ])
        #expect(desk.send(.touchMotion(id: 1, global: p(90, 100), time: ms(2)), .touchFrame) == [
            .pointerLeave(alice, surface: w), .pointerFrame(alice),
        ])
        #expect(desk.send(.touchMotion(id: 1, global: p(200, 100), time: ms(3)), .touchUp(id: 1, time: ms(4)), .touchFrame) == [])
        #expect(desk.send(.touchDown(id: 2, global: p(300, 300), time: ms(5))) == [
            .pointerEnter(alice, surface: w, local: p(300, 300)), .pointerFrame(alice),
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(5)), .pointerFrame(alice),
        ])
    }

    /// A device reuses a lifted finger's id at once; the old touch's up, held while a double
    /// tap could still come, goes out before the new down, so the client never holds two
    /// touches with one id. (Found by RoutingInvariantTests.)
    @Test mutating func aReusedIDEndsTheTouchWhoseUpIsHeldBeforeTheNewDown() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(Tap(count: 2), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        _ = desk.send(.touchDown(id: 0, global: p(100, 100), time: ms(1)), .touchFrame)
        #expect(desk.send(.touchUp(id: 0, time: ms(50)), .touchFrame) == [], "held while the double tap may come")
        #expect(desk.send(.touchDown(id: 0, global: p(102, 100), time: ms(150)), .touchFrame) == [
            .touchUp(alice, id: 0, time: ms(50)), .touchFrame(alice),
            .touchDown(alice, surface: w, id: 0, local: p(102, 100), time: ms(150)), .touchFrame(alice),
        ])
    }

    /// delaysTouchesBegan: while the swipe is possible nothing reaches the client; when it
    /// wins, the client never hears of the touch, so it needs no cancel.
    @Test mutating func aDelayedTouchWonByTheGestureIsNeverSeen() {
        desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: GestureOptions(delaysTouchesBegan: true))
        #expect(desk.send(
            .touchDown(id: 1, global: p(5, 100), time: ms(1)), .touchFrame,
            .touchMotion(id: 1, global: p(40, 100), time: ms(2)), .touchFrame,
            .touchMotion(id: 1, global: p(90, 100), time: ms(3)), .touchFrame,
            .touchUp(id: 1, time: ms(4)), .touchFrame
        ) == [])
        #expect(desk.gestureEvents() == [.began, .ended])
    }

    /// delaysTouchesBegan and the gesture fails: the held events arrive in their original
    /// order, with their original times and frames.
    @Test mutating func heldEventsReplayInOrderWithTheirTimesWhenTheGestureFails() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: GestureOptions(delaysTouchesBegan: true))
        #expect(desk.send(
            .touchDown(id: 1, global: p(5, 100), time: ms(1)), .touchFrame,
            .touchMotion(id: 1, global: p(20, 100), time: ms(2)), .touchFrame
        ) == [])
        // Drifting sideways fails the swipe.
        #expect(desk.send(.touchMotion(id: 1, global: p(20, 300), time: ms(3)), .touchFrame) == [
            .touchDown(alice, surface: w, id: 1, local: p(5, 100), time: ms(1)), .touchFrame(alice),
            .touchMotion(alice, surface: w, id: 1, local: p(20, 100), time: ms(2)), .touchFrame(alice),
            .touchMotion(alice, surface: w, id: 1, local: p(20, 300), time: ms(3)), .touchFrame(alice),
        ])
        #expect(desk.gestureEvents() == [.failed])
        #expect(desk.send(.touchUp(id: 1, time: ms(4)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(4)), .touchFrame(alice)])
    }

    /// Only clients holding won touches are cancelled; the cancel covers all of that
    /// client's touches, and the other client's touch goes on.
    @Test mutating func onlyTheClientsHoldingWonTouchesAreCancelledAndForAllTheirTouches() {
        let a = desk.add(subsurface(alice, 0, 0, 400, 1000))
        let b = desk.add(subsurface(bob, 500, 0, 400, 1000))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        _ = desk.send(
            .touchDown(id: 1, global: p(5, 100), time: ms(1)),
            .touchDown(id: 2, global: p(300, 900), time: ms(1)),
            .touchDown(id: 3, global: p(600, 100), time: ms(1)), .touchFrame
        )
        #expect(desk.send(
            .touchMotion(id: 1, global: p(100, 100), time: ms(2)),
            .touchMotion(id: 3, global: p(610, 100), time: ms(2)), .touchFrame
        ) == [
            .touchCancel(alice),
            .touchMotion(bob, surface: b, id: 3, local: p(110, 100), time: ms(2)), .touchFrame(bob),
        ])
        #expect(desk.send(.touchMotion(id: 2, global: p(310, 900), time: ms(3)), .touchUp(id: 2, time: ms(3)), .touchFrame) == [])
        #expect(desk.send(.touchUp(id: 3, time: ms(4)), .touchFrame) == [.touchUp(bob, id: 3, time: ms(4)), .touchFrame(bob)])
        _ = a
    }

    /// delaysTouchesEnded (on by default): an up while a double tap is still possible waits
    /// for it; when the second tap does not come in time, the up is delivered with its time.
    @Test mutating func anUpWaitsForTheUndecidedGestureThenArrivesWhenItFails() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(Tap(count: 2), on: desk.root)
        #expect(desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(0)), .touchFrame) == [
            .touchDown(alice, surface: w, id: 1, local: p(100, 100), time: ms(0)), .touchFrame(alice),
        ])
        #expect(desk.send(.touchUp(id: 1, time: ms(50)), .touchFrame) == [])
        #expect(desk.router.nextGestureDeadline == ms(350))
        #expect(desk.fire(at: ms(349)) == [])
        #expect(desk.fire(at: ms(350)) == [.touchUp(alice, id: 1, time: ms(50)), .touchFrame(alice)])
        #expect(desk.gestureEvents() == [.failed])
    }

    /// A double tap that succeeds cancels the client (it saw both downs); the held up of the
    /// second tap is never delivered.
    @Test mutating func aRecognizedDoubleTapCancelsAndSwallowsTheHeldUp() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(Tap(count: 2), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(0)), .touchFrame, .touchUp(id: 1, time: ms(50)), .touchFrame)
        #expect(desk.send(.touchDown(id: 2, global: p(105, 100), time: ms(150)), .touchFrame) == [
            .touchDown(alice, surface: w, id: 2, local: p(105, 100), time: ms(150)), .touchFrame(alice),
        ])
        #expect(desk.send(.touchUp(id: 2, time: ms(200)), .touchFrame) == [.touchCancel(alice)])
        #expect(desk.gestureEvents() == [.recognized])
    }

    /// Without a simultaneity declaration the first to begin fails the other; with one, both
    /// run on the same touch.
    @Test(arguments: [false, true]) mutating func simultaneousRecognizersBothWin(declared: Bool) {
        desk.add(subsurface(alice, 0, 0, 500, 500))
        let swipe = desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        let press = desk.router.addGesture(LongPress(), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        if declared { desk.router.recognizeSimultaneously(swipe, press) }
        _ = desk.send(.touchDown(id: 1, global: p(5, 100), time: ms(0)), .touchFrame)
        _ = desk.fire(at: ms(500))
        _ = desk.send(.touchMotion(id: 1, global: p(100, 100), time: ms(600)), .touchFrame)
        #expect(desk.router.gestureState(press) == .changed)
        #expect(desk.router.gestureState(swipe) == (declared ? .began : .failed))
    }

    /// A single tap that requires the double tap to fail waits for the double tap's timeout.
    @Test mutating func aGestureThatRequiresAnotherToFailWaitsForIt() {
        desk.add(subsurface(alice, 0, 0, 500, 500))
        let single = desk.router.addGesture(Tap(count: 1), on: desk.root)
        let double = desk.router.addGesture(Tap(count: 2), on: desk.root)
        desk.router.require(single, toFail: double)
        _ = desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(0)), .touchFrame, .touchUp(id: 1, time: ms(50)), .touchFrame)
        #expect(desk.router.gestureState(single) == .recognized)
        #expect(desk.gestureEvents() == [])
        #expect(desk.fire(at: ms(350)) == [.touchCancel(alice)])
        #expect(desk.gestureEvents() == [.failed, .recognized])
    }

    /// A veto from shouldBegin fails the gesture; the client keeps its touch.
    @Test mutating func shouldBeginCanVeto() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, shouldBegin: { _ in false })
        _ = desk.send(.touchDown(id: 1, global: p(5, 100), time: ms(0)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(100, 100), time: ms(1)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 1, local: p(100, 100), time: ms(1)), .touchFrame(alice),
        ])
        #expect(desk.gestureEvents() == [.failed])
    }

    /// A per-window recognizer sees only touches whose hit path passes through its window.
    @Test mutating func aWindowsRecognizerSeesOnlyTouchesOnItsPath() {
        let a = desk.add(subsurface(alice, 0, 0, 400, 400))
        let b = desk.add(subsurface(bob, 500, 0, 400, 400))
        let press = desk.router.addGesture(LongPress(), on: a)
        _ = desk.send(.touchDown(id: 1, global: p(600, 100), time: ms(0)), .touchFrame)
        #expect(desk.fire(at: ms(600)) == [])
        #expect(desk.router.gestureState(press) == .possible)
        _ = desk.send(.touchDown(id: 2, global: p(100, 100), time: ms(700)), .touchFrame)
        #expect(desk.fire(at: ms(1200)) == [.touchCancel(alice)])
        #expect(desk.router.gestureState(press) == .began)
        _ = b
    }

    /// A long press with a corner takes only fingers that come down in that corner's square
    /// (a kiosk's staff knock): the same press a pixel outside it stays the app's.
    @Test mutating func aCornersLongPressTakesOnlyFingersInItsSquare() {
        desk.add(subsurface(alice, 0, 0, 1000, 1000))
        let press = desk.router.addGesture(LongPress(duration: .milliseconds(500), slop: 10, corner: (.topRight, 80)), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(919, 40), time: ms(0)), .touchFrame)
        #expect(desk.fire(at: ms(600)) == [], "a pixel left of the square: the app keeps its touch")
        #expect(desk.router.gestureState(press) == .possible)
        _ = desk.send(.touchUp(id: 1, time: ms(700)), .touchFrame)
        _ = desk.send(.touchDown(id: 2, global: p(990, 5), time: ms(1000)), .touchFrame)
        #expect(desk.fire(at: ms(1500)) == [.touchCancel(alice)], "in the square: the press wins")
        #expect(desk.router.gestureState(press) == .began)
    }

    /// Each corner's square is at its own corner of the screen, and never bigger than it.
    @Test func eachCornersSquareIsAtItsCorner() {
        let screen = Rect(x: 0, y: 0, width: 1280, height: 800)
        #expect(Corner.topLeft.square(80, of: screen) == Rect(x: 0, y: 0, width: 80, height: 80))
        #expect(Corner.topRight.square(80, of: screen) == Rect(x: 1200, y: 0, width: 80, height: 80))
        #expect(Corner.bottomLeft.square(80, of: screen) == Rect(x: 0, y: 720, width: 80, height: 80))
        #expect(Corner.bottomRight.square(80, of: screen) == Rect(x: 1200, y: 720, width: 80, height: 80))
        #expect(Corner.bottomRight.square(5000, of: screen) == screen)
    }

    /// A long press begins exactly when its duration is up (manual clock: not at 499 ms), and a
    /// finger that wanders beyond the slop before then fails it.
    @Test mutating func aLongPressBeginsAtItsDurationUnlessTheFingerWanders() {
        desk.add(subsurface(alice, 0, 0, 500, 500))
        let press = desk.router.addGesture(LongPress(duration: .milliseconds(500), slop: 10), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(0)), .touchFrame)
        #expect(desk.fire(at: ms(499)) == [])
        #expect(desk.router.gestureState(press) == .possible)
        #expect(desk.fire(at: ms(500)) == [.touchCancel(alice)])
        #expect(desk.gestureEvents() == [.began])
        _ = desk.send(.touchUp(id: 1, time: ms(600)), .touchFrame)
        _ = desk.gestureEvents()
        _ = desk.send(.touchDown(id: 2, global: p(100, 100), time: ms(700)), .touchFrame,
                      .touchMotion(id: 2, global: p(111, 100), time: ms(800)), .touchFrame)
        #expect(desk.gestureEvents() == [.failed])
        #expect(desk.fire(at: ms(1300)) == [])
    }

    /// delaysTouchesEnded off: the up of a tap that may still become a double tap goes out at once.
    @Test mutating func withoutDelaysTouchesEndedTheUpGoesOutAtOnce() {
        desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(Tap(count: 2), on: desk.root, options: GestureOptions(delaysTouchesEnded: false))
        _ = desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(0)), .touchFrame)
        #expect(desk.send(.touchUp(id: 1, time: ms(50)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(50)), .touchFrame(alice)])
    }

    /// cancelsTouchesInView off: the gesture wins and runs, and the client keeps its touch.
    @Test mutating func withoutCancelsTouchesInViewTheClientKeepsItsTouch() {
        let w = desk.add(subsurface(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        _ = desk.send(.touchDown(id: 1, global: p(5, 100), time: ms(1)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(100, 100), time: ms(2)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 1, local: p(100, 100), time: ms(2)), .touchFrame(alice),
        ])
        #expect(desk.gestureEvents() == [.began])
        #expect(desk.send(.touchUp(id: 1, time: ms(3)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(3)), .touchFrame(alice)])
    }
}
