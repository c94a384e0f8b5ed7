import Responder
import Testing

/// DESIGN.md §1.2: the surface hit at touch-down owns the touch for its whole life.
@Suite struct TouchRoutingTests {
    var desk = Desk()

    @Test mutating func downGoesToTheSurfaceHitInItsLocalCoordinatesAndTheGroupEndsWithAFrame() {
        let w = desk.add(window(alice, 100, 200, 300, 300))
        #expect(desk.send(.touchDown(id: 1, global: p(150.5, 260.25), time: ms(10)), .touchFrame) == [
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .touchDown(alice, surface: w, id: 1, local: p(50.5, 60.25), time: ms(10)),
            .touchFrame(alice),
        ])
    }

    @Test mutating func motionOutsideTheSurfaceStillGoesToItsOwner() {
        let w = desk.add(window(alice, 100, 100, 100, 100))
        let other = desk.add(window(bob, 300, 300, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(150, 150), time: ms(1)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(350, 50), time: ms(2)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 1, local: p(250, -50), time: ms(2)),
            .touchFrame(alice),
        ])
        #expect(desk.send(.touchUp(id: 1, time: ms(3)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(3)), .touchFrame(alice)])
        _ = other
    }

    @Test mutating func aSurfaceMappedOnTopMidTouchDoesNotTakeTheTouch() {
        let w = desk.add(window(alice, 0, 0, 500, 500))
        _ = desk.send(.touchDown(id: 4, global: p(10, 10), time: ms(1)), .touchFrame)
        desk.add(window(bob, 0, 0, 500, 500))
        #expect(desk.send(.touchMotion(id: 4, global: p(20, 20), time: ms(2)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 4, local: p(20, 20), time: ms(2)),
            .touchFrame(alice),
        ])
    }

    @Test mutating func motionFollowsTheOwnerWhenItMoves() {
        let w = desk.add(window(alice, 0, 0, 500, 500))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame)
        _ = desk.change { $0.update(w) { $0.position = Position(x: 100, y: 0) } }
        #expect(desk.send(.touchMotion(id: 1, global: p(12, 10), time: ms(2))) == [
            .touchMotion(alice, surface: w, id: 1, local: p(-88, 10), time: ms(2)),
        ])
    }

    @Test mutating func anOwnerMovingUnderAStillFingerHearsTheNewPositionButKeepsTheTouch() {
        let sub = desk.add(subsurface(alice, 0, 0, 50, 50), to: desk.add(window(alice, 0, 0, 500, 500)))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(4)), .touchFrame)
        #expect(desk.change { $0.update(sub) { $0.position = Position(x: 100, y: 100) } } == [
            .touchMotion(alice, surface: sub, id: 1, local: p(-90, -90), time: ms(4)),
            .touchFrame(alice),
        ])
        #expect(desk.change { $0.update(sub) { $0.isHidden = false } } == [])
    }

    @Test mutating func aSubsurfaceOwnsTheTouchInItsOwnCoordinates() {
        let w = desk.add(window(alice, 100, 100, 300, 300))
        let sub = desk.add(subsurface(alice, 50, 50, 20, 20), to: w)
        #expect(desk.send(.touchDown(id: 1, global: p(155, 155), time: ms(1)), .touchFrame) == [
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .touchDown(alice, surface: sub, id: 1, local: p(5, 5), time: ms(1)),
            .touchFrame(alice),
        ])
    }

    @Test mutating func twoFingersOnTwoClientsGetOneFramePerClientPerGroup() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        desk.router.setKeyboardFocus(nil, sink: &desk.sink)
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchDown(id: 2, global: p(210, 10), time: ms(1)), .touchFrame)
        #expect(desk.send(
            .touchMotion(id: 1, global: p(11, 10), time: ms(2)),
            .touchMotion(id: 2, global: p(211, 10), time: ms(2)),
            .touchFrame
        ) == [
            .touchMotion(alice, surface: a, id: 1, local: p(11, 10), time: ms(2)),
            .touchMotion(bob, surface: b, id: 2, local: p(11, 10), time: ms(2)),
            .touchFrame(alice),
            .touchFrame(bob),
        ])
    }

    @Test mutating func twoFingersOnOneClientShareOneFrame() {
        let w = desk.add(window(alice, 0, 0, 400, 400))
        #expect(desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchDown(id: 2, global: p(20, 20), time: ms(1)), .touchFrame) == [
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .touchDown(alice, surface: w, id: 1, local: p(10, 10), time: ms(1)),
            .touchDown(alice, surface: w, id: 2, local: p(20, 20), time: ms(1)),
            .touchFrame(alice),
        ])
    }

    @Test mutating func aLoneFinalUpGetsItsFrame() {
        desk.add(window(alice, 0, 0, 400, 400))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame)
        #expect(desk.send(.touchUp(id: 1, time: ms(9)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(9)), .touchFrame(alice)])
    }

    @Test mutating func destroyingTheOwnerEndsTheTouchAtOnceAndDropsTheRest() {
        let under = desk.add(window(bob, 0, 0, 400, 400))
        let w = desk.add(window(alice, 0, 0, 400, 400))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(5)), .touchFrame)
        #expect(desk.change { $0.remove(w) } == [.touchUp(alice, id: 1, time: ms(5)), .touchFrame(alice)])
        #expect(desk.send(.touchMotion(id: 1, global: p(20, 20), time: ms(6)), .touchFrame, .touchUp(id: 1, time: ms(7)), .touchFrame) == [])
        #expect(desk.reported == [])
        _ = under
    }

    @Test mutating func destroyingASubsurfaceOwnerEndsOnlyItsTouch() {
        let w = desk.add(window(alice, 0, 0, 400, 400))
        let sub = desk.add(subsurface(alice, 0, 0, 50, 50), to: w)
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchDown(id: 2, global: p(200, 200), time: ms(1)), .touchFrame)
        #expect(desk.change { $0.remove(sub) } == [.touchUp(alice, id: 1, time: ms(1)), .touchFrame(alice)])
        #expect(desk.send(.touchMotion(id: 2, global: p(201, 200), time: ms(2)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 2, local: p(201, 200), time: ms(2)),
            .touchFrame(alice),
        ])
    }

    /// libwayland destroys a departing client's wl_touch and friends after the client itself,
    /// so the last word on its devices comes after the core forgot it.
    @Test mutating func aClientThatReleasesItsDevicesAfterLeavingIsNotRemembered() {
        desk.router.clientDisconnected(alice, sink: &desk.sink)
        desk.router.setCapabilities([.touch], for: alice)
        desk.router.setCapabilities([], for: alice)
        #expect(desk.router.capabilities(of: alice) == nil)
    }

    @Test mutating func aClientThatGoesAwayMidTouchIsDroppedSilentlyAndOthersCarryOn() {
        desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchDown(id: 2, global: p(210, 10), time: ms(1)), .touchFrame)
        desk.router.clientDisconnected(alice, sink: &desk.sink)
        #expect(desk.sink.take().deliveries == [])
        #expect(desk.send(
            .touchMotion(id: 1, global: p(12, 10), time: ms(2)),
            .touchMotion(id: 2, global: p(212, 10), time: ms(2)),
            .touchFrame,
            .touchUp(id: 1, time: ms(3)),
            .touchFrame
        ) == [
            .touchMotion(bob, surface: b, id: 2, local: p(12, 10), time: ms(2)),
            .touchFrame(bob),
        ])
        #expect(desk.reported == [])
    }

    @Test mutating func aTouchOnTheBackgroundGoesToNobody() {
        desk.add(window(alice, 0, 0, 100, 100))
        #expect(desk.diagnose(.touchDown(id: 1, global: p(500, 500), time: ms(1))) == [.touchDropped(id: 1, because: .noSurface)])
        #expect(desk.send(.touchMotion(id: 1, global: p(50, 50), time: ms(2)), .touchUp(id: 1, time: ms(3)), .touchFrame) == [])
        #expect(desk.reported == [])
    }

    @Test mutating func touchIDsCanBeReusedAfterUp() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchUp(id: 1, time: ms(2)), .touchFrame)
        #expect(desk.send(.touchDown(id: 1, global: p(20, 20), time: ms(3))) == [.touchDown(alice, surface: w, id: 1, local: p(20, 20), time: ms(3))])
    }

    @Test mutating func motionForAnUnknownTouchIsIgnoredAndReported() {
        desk.add(window(alice, 0, 0, 100, 100))
        let event = InputEvent.touchMotion(id: 7, global: p(1, 1), time: ms(1))
        #expect(desk.diagnose(event) == [.ignored(event, because: .unknownTouch)])
    }

    @Test mutating func upForAnUnknownTouchIsIgnoredAndReported() {
        let event = InputEvent.touchUp(id: 3, time: ms(1))
        #expect(desk.diagnose(event) == [.ignored(event, because: .unknownTouch)])
    }

    @Test mutating func aSecondDownForTheSameIDIsIgnoredAndTheFirstKeepsItsOwner() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame)
        let duplicate = InputEvent.touchDown(id: 1, global: p(210, 10), time: ms(2))
        #expect(desk.diagnose(duplicate) == [.ignored(duplicate, because: .touchAlreadyDown)])
        #expect(desk.send(.touchMotion(id: 1, global: p(220, 10), time: ms(3))) == [
            .touchMotion(alice, surface: a, id: 1, local: p(220, 10), time: ms(3)),
        ])
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    mutating func nonFiniteCoordinatesAreIgnored(bad: Double) {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        let down = InputEvent.touchDown(id: 1, global: p(bad, 10), time: ms(1))
        #expect(rejections(desk.diagnose(down)) == [.nonFiniteCoordinates])
        _ = desk.send(.touchDown(id: 2, global: p(10, 10), time: ms(1)), .touchFrame)
        let motion = InputEvent.touchMotion(id: 2, global: p(10, bad), time: ms(2))
        #expect(rejections(desk.diagnose(motion)) == [.nonFiniteCoordinates])
        #expect(desk.send(.touchUp(id: 2, time: ms(3))) == [.touchUp(alice, id: 2, time: ms(3))])
        _ = w
    }

    @Test mutating func aDeviceCancelBecomesWlTouchCancelForAllOfThatClientsTouches() {
        desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(
            .touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchDown(id: 2, global: p(20, 20), time: ms(1)),
            .touchDown(id: 3, global: p(210, 10), time: ms(1)), .touchFrame
        )
        #expect(desk.send(.touchCancel(id: 1, time: ms(2)), .touchFrame) == [.touchCancel(alice)])
        #expect(desk.send(.touchMotion(id: 2, global: p(30, 30), time: ms(3)), .touchMotion(id: 3, global: p(220, 10), time: ms(3)), .touchFrame) == [
            .touchMotion(bob, surface: b, id: 3, local: p(20, 10), time: ms(3)),
            .touchFrame(bob),
        ])
    }
}

/// The responder chain's compositor end: a client without wl_touch.
@Suite struct TouchFallbackTests {
    var desk = Desk(bound: [alice: [.pointer, .keyboard], bob: .all])

    @Test mutating func theFirstFingerDrivesThePointerOfAClientWithoutTouch() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        #expect(desk.send(.touchDown(id: 1, global: p(110, 120), time: ms(1)), .touchFrame) == [
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .pointerEnter(alice, surface: w, local: p(10, 20)),
            .pointerFrame(alice),
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(1)),
            .pointerFrame(alice),
        ])
        #expect(desk.reported == [.touchEmulatesPointer(id: 1, alice)])
        #expect(desk.send(.touchMotion(id: 1, global: p(400, 120), time: ms(2)), .touchFrame) == [
            .pointerMotion(alice, surface: w, local: p(300, 20), time: ms(2)),
            .pointerFrame(alice),
        ])
        #expect(desk.send(.touchUp(id: 1, time: ms(3)), .touchFrame) == [
            .pointerButton(alice, button: 0x110, state: .released, time: ms(3)),
            .pointerFrame(alice),
            .pointerLeave(alice, surface: w),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func aSecondFingerIsDroppedWhileTheFirstEmulatesThePointer() {
        desk.add(window(alice, 0, 0, 200, 200))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame)
        #expect(desk.diagnose(.touchDown(id: 2, global: p(50, 50), time: ms(2))) == [.touchDropped(id: 2, because: .noTouchBinding)])
        #expect(desk.send(.touchMotion(id: 2, global: p(60, 60), time: ms(3)), .touchUp(id: 2, time: ms(4)), .touchFrame) == [])
    }

    @Test mutating func withEmulationOffTheTouchIsDropped() {
        desk.router.policy.emulatesPointerForTouch = false
        let w = desk.add(window(alice, 0, 0, 200, 200))
        let (deliveries, diagnostics) = (desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame), desk.reported)
        #expect(deliveries == [.keyboardEnter(alice, surface: w, pressedKeys: [])])
        #expect(diagnostics == [.touchDropped(id: 1, because: .noTouchBinding)])
    }

    @Test mutating func aClientWithNeitherTouchNorPointerGetsNothing() {
        desk.router.setCapabilities([.keyboard], for: alice)
        desk.add(window(alice, 0, 0, 200, 200))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)))
        #expect(desk.reported == [.touchDropped(id: 1, because: .noTouchBinding)])
    }

    @Test mutating func clientsWithTouchAreUnaffectedByAnothersEmulation() {
        desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        desk.router.setKeyboardFocus(nil, sink: &desk.sink)
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchFrame)
        #expect(desk.send(.touchDown(id: 2, global: p(210, 10), time: ms(2)), .touchFrame).filter { $0.client == bob } == [
            .keyboardEnter(bob, surface: b, pressedKeys: []),
            .touchDown(bob, surface: b, id: 2, local: p(10, 10), time: ms(2)),
            .touchFrame(bob),
        ])
    }
}
