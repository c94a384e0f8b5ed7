import Responder
import Testing

/// DESIGN.md §1.4, pointer: focus follows the hit test, except while a button is held.
@Suite struct PointerRoutingTests {
    var desk = Desk()

    @Test mutating func motionOntoASurfaceEntersItThenMovesWithinIt() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        #expect(desk.send(.pointerMotion(global: p(150, 160), time: ms(1))) == [
            .pointerEnter(alice, surface: w, local: p(50, 60)),
            .pointerFrame(alice),
        ])
        #expect(desk.send(.pointerMotion(global: p(151, 160.5), time: ms(2))) == [
            .pointerMotion(alice, surface: w, local: p(51, 60.5), time: ms(2)),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func crossingFromOneSurfaceToAnotherLeavesThenEnters() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 100, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        #expect(desk.send(.pointerMotion(global: p(100, 50), time: ms(2))) == [
            .pointerLeave(alice, surface: a),
            .pointerFrame(alice),
            .pointerEnter(bob, surface: b, local: p(0, 50)),
            .pointerFrame(bob),
        ])
    }

    @Test mutating func movingOntoTheBackgroundLeaves() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        #expect(desk.send(.pointerMotion(global: p(500, 500), time: ms(2))) == [.pointerLeave(alice, surface: w), .pointerFrame(alice)])
        #expect(desk.router.pointerFocus == nil)
        #expect(desk.send(.pointerMotion(global: p(501, 500), time: ms(3))) == [])
    }

    @Test mutating func aHeldButtonKeepsThePressedSurfaceAcrossOthers() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)), .pointerButton(button: 0x110, state: .pressed, time: ms(2)))
        #expect(desk.send(.pointerMotion(global: p(250, 50), time: ms(3))) == [
            .pointerMotion(alice, surface: a, local: p(250, 50), time: ms(3)),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func releasingTheLastButtonOverAnotherSurfaceMovesFocusThere() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(
            .pointerMotion(global: p(50, 50), time: ms(1)),
            .pointerButton(button: 0x110, state: .pressed, time: ms(2)),
            .pointerButton(button: 0x111, state: .pressed, time: ms(2)),
            .pointerMotion(global: p(250, 50), time: ms(3))
        )
        #expect(desk.send(.pointerButton(button: 0x110, state: .released, time: ms(4))) == [
            .pointerButton(alice, button: 0x110, state: .released, time: ms(4)),
            .pointerFrame(alice),
        ])
        #expect(desk.send(.pointerButton(button: 0x111, state: .released, time: ms(5))) == [
            .pointerButton(alice, button: 0x111, state: .released, time: ms(5)),
            .pointerFrame(alice),
            .pointerLeave(alice, surface: a),
            .pointerFrame(alice),
            .pointerEnter(bob, surface: b, local: p(50, 50)),
            .pointerFrame(bob),
        ])
    }

    /// An interactive move: the window under the press hears nothing between the leave and
    /// the release, even as it moves along with the pointer; then the pointer re-enters it.
    @Test mutating func theCompositorTakesThePointerUntilTheLastButtonIsUp() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)), .pointerButton(button: 0x110, state: .pressed, time: ms(2)))
        var sink = RecordingSink()
        let taken = desk.router.takePointerUntilReleased(sink: &sink)
        #expect(taken)
        #expect(sink.take().0 == [.pointerLeave(alice, surface: w), .pointerFrame(alice)])
        #expect(desk.send(.pointerMotion(global: p(80, 90), time: ms(3))) == [])
        #expect(desk.change { $0.update(w) { $0.position = Position(x: 30, y: 40) } } == [])
        #expect(desk.send(.pointerAxis(AxisMotion(source: .wheel, vertical: 10), time: ms(4))) == [])
        #expect(desk.send(.pointerButton(button: 0x110, state: .released, time: ms(5))) == [
            .pointerEnter(alice, surface: w, local: p(50, 50)),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func theCompositorCannotTakeAPointerNoButtonHolds() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        var sink = RecordingSink()
        let taken = desk.router.takePointerUntilReleased(sink: &sink)
        #expect(!taken)
        #expect(sink.take().0 == [])
        #expect(desk.router.pointerFocus == w)
    }

    @Test mutating func aSurfaceMappedUnderAStillPointerIsEntered() {
        let under = desk.add(window(alice, 0, 0, 300, 300))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        var top = NodeID?.none
        let deliveries = desk.change { top = $0.add(window(bob, 0, 0, 100, 100), to: $0.root) }
        #expect(deliveries == [
            .pointerLeave(alice, surface: under),
            .pointerFrame(alice),
            .pointerEnter(bob, surface: top!, local: p(50, 50)),
            .pointerFrame(bob),
        ])
    }

    @Test mutating func aSurfaceMovingUnderAStillPointerGetsAMotionToTheNewPosition() {
        let w = desk.add(window(alice, 0, 0, 300, 300))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(7)))
        #expect(desk.change { $0.update(w) { $0.position = Position(x: 20, y: 10) } } == [
            .pointerMotion(alice, surface: w, local: p(30, 40), time: ms(7)),
            .pointerFrame(alice),
        ])
        #expect(desk.change { $0.update(w) { $0.isHidden = false } } == [])
    }

    @Test mutating func aSurfaceUnmappedUnderAStillPointerIsLeft() {
        let under = desk.add(window(alice, 0, 0, 300, 300))
        let top = desk.add(window(bob, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        #expect(desk.change { $0.update(top) { $0.isMapped = false } } == [
            .pointerLeave(bob, surface: top),
            .pointerFrame(bob),
            .pointerEnter(alice, surface: under, local: p(50, 50)),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func aDestroyedFocusGetsNoLeaveAndThePointerEntersWhatIsUnder() {
        let under = desk.add(window(alice, 0, 0, 300, 300))
        let top = desk.add(window(bob, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        #expect(desk.change { $0.remove(top) } == [.pointerEnter(alice, surface: under, local: p(50, 50)), .pointerFrame(alice)])
    }

    @Test mutating func aSceneChangeDuringAGrabDoesNotMoveFocus() {
        let a = desk.add(window(alice, 0, 0, 300, 300))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)), .pointerButton(button: 0x110, state: .pressed, time: ms(2)))
        #expect(desk.change { $0.add(window(bob, 0, 0, 100, 100), to: $0.root) } == [])
        #expect(desk.router.pointerFocus == a)
    }

    @Test mutating func aPressOverNothingGoesNowhereAndHoldsNoSurface() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        #expect(desk.send(
            .pointerMotion(global: p(500, 500), time: ms(1)),
            .pointerButton(button: 0x110, state: .pressed, time: ms(2)),
            .pointerMotion(global: p(50, 50), time: ms(3))
        ) == [])
        #expect(desk.send(.pointerButton(button: 0x110, state: .released, time: ms(4))) == [
            .pointerEnter(alice, surface: w, local: p(50, 50)),
            .pointerFrame(alice),
        ])
    }

    @Test mutating func scrollGoesToTheFocusedSurfaceWithAFrame() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        let wheel = AxisMotion(source: .wheel, vertical: 15, verticalValue120: 120)
        #expect(desk.send(.pointerAxis(wheel, time: ms(2))) == [.pointerAxis(alice, wheel, time: ms(2)), .pointerFrame(alice)])
    }

    @Test mutating func releasingAButtonThatIsNotPressedIsIgnored() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        let release = InputEvent.pointerButton(button: 0x112, state: .released, time: ms(2))
        #expect(desk.diagnose(release) == [.ignored(release, because: .buttonNotPressed)])
        let press = InputEvent.pointerButton(button: 0x110, state: .pressed, time: ms(3))
        _ = desk.send(press)
        #expect(desk.diagnose(press) == [.ignored(press, because: .buttonAlreadyPressed)])
    }

    @Test mutating func nonFinitePointerMotionIsIgnoredAndTheFocusStays() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(50, 50), time: ms(1)))
        #expect(rejections(desk.diagnose(.pointerMotion(global: p(.nan, 50), time: ms(2)))) == [.nonFiniteCoordinates])
        #expect(desk.router.pointerFocus == w)
    }
}
