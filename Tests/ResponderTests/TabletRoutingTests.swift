import Responder
import Testing

/// Pens for clients with a tablet seat (issue 31): such a client hears the pen over its
/// surfaces as a tablet tool (proximity, down, motion with pressure and tilt, buttons,
/// frames), never as its pointer; the surface the tip touched owns the pen until it lifts, as
/// a touch's owner does; a client without a tablet seat still hears it as the pointer.
@Suite struct TabletRoutingTests {
    /// alice has a tablet seat, bob has none.
    var desk = Desk(bound: [alice: InputCapabilities.all.union(.tablet), bob: .all])
    static let pen: Int32 = 1

    @Test mutating func aPenOverATabletClientIsATabletToolNotItsPointer() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        #expect(desk.send(.penProximity(pen: Self.pen, entering: true, global: p(150, 160), time: ms(1))) == [
            .penProximityIn(alice, surface: w, pen: Self.pen, local: p(50, 60), axes: PenAxes(), time: ms(1)),
            .penFrame(alice, pen: Self.pen, time: ms(1)),
        ])
        let axes = PenAxes(pressure: 0.4, tiltX: 30, tiltY: -10)
        #expect(desk.send(.penTip(pen: Self.pen, down: true, time: ms(2))) == [
            .penDown(alice, pen: Self.pen, time: ms(2)),
            .keyboardEnter(alice, surface: w, pressedKeys: []),
            .penFrame(alice, pen: Self.pen, time: ms(2)),
        ])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(151, 161), axes: axes, time: ms(3))) == [
            .penMotion(alice, pen: Self.pen, local: p(51, 61), axes: axes, time: ms(3)), .penFrame(alice, pen: Self.pen, time: ms(3)),
        ])
        #expect(desk.send(.penButton(pen: Self.pen, button: 0x14b, state: .pressed, time: ms(4))) == [
            .penButton(alice, pen: Self.pen, button: 0x14b, state: .pressed, time: ms(4)), .penFrame(alice, pen: Self.pen, time: ms(4)),
        ])
        #expect(desk.router.pointerPosition == nil, "the pointer did not move")
        #expect(!desk.router.pointerButtonsHeld)
    }

    /// A pen that comes in leaning is heard leaning from its proximity's own frame (issue
    /// 52: it was 0,0 until the next motion); coming in again, it has the axes it comes
    /// with, not the last stroke's; an approach with a NaN axis is refused.
    @Test mutating func aPenComesInWithItsOwnAxes() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        let leaning = PenAxes(distance: 0.3, tiltX: 20.1, tiltY: -10.1)
        #expect(desk.send(.penProximity(pen: Self.pen, entering: true, global: p(150, 160), axes: leaning, time: ms(1))) == [
            .penProximityIn(alice, surface: w, pen: Self.pen, local: p(50, 60), axes: leaning, time: ms(1)),
            .penFrame(alice, pen: Self.pen, time: ms(1)),
        ])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(150, 160), axes: leaning, time: ms(2))) == [], "what it came with, said once")
        _ = desk.send(.penProximity(pen: Self.pen, entering: false, global: p(150, 160), time: ms(3)))
        let upright = PenAxes(distance: 0.5)
        #expect(desk.send(.penProximity(pen: Self.pen, entering: true, global: p(150, 160), axes: upright, time: ms(4))) == [
            .penProximityIn(alice, surface: w, pen: Self.pen, local: p(50, 60), axes: upright, time: ms(4)),
            .penFrame(alice, pen: Self.pen, time: ms(4)),
        ])
        _ = desk.send(.penProximity(pen: Self.pen, entering: false, global: p(150, 160), time: ms(5)))
        #expect(rejections(desk.diagnose(.penProximity(pen: Self.pen, entering: true, global: p(150, 160), axes: PenAxes(tiltX: .nan), time: ms(6))))
                == [.nonFiniteAxes])
    }

    /// Out-of-range axes are clamped to what tablet-v2 can say; a NaN is refused.
    @Test mutating func axesAreClampedAndNonsenseRefused() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(10, 10), time: ms(1)))
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(11, 10), axes: PenAxes(pressure: 7, distance: -1, tiltX: 400, tiltY: -400), time: ms(2))) == [
            .penMotion(alice, pen: Self.pen, local: p(11, 10), axes: PenAxes(pressure: 1, distance: 0, tiltX: 90, tiltY: -90), time: ms(2)),
            .penFrame(alice, pen: Self.pen, time: ms(2)),
        ])
        #expect(rejections(desk.diagnose(.penMotion(pen: Self.pen, global: p(12, 10), axes: PenAxes(pressure: .nan), time: ms(3)))) == [.nonFiniteAxes])
        _ = w
    }

    /// The tip's surface keeps the stroke across another client's window; the lift ends it
    /// there, and the hovering pen then leaves it (proximity_out) for what is under it: bob,
    /// without a tablet seat, hears it as the pointer.
    @Test mutating func aStrokeStaysWithItsSurfaceThenThePenMovesOn() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 100, 0, 100, 100))
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(50, 50), time: ms(1)))
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(2)))
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(150, 50), axes: PenAxes(pressure: 0.5), time: ms(3))) == [
            .penMotion(alice, pen: Self.pen, local: p(150, 50), axes: PenAxes(pressure: 0.5), time: ms(3)), .penFrame(alice, pen: Self.pen, time: ms(3)),
        ])
        #expect(desk.send(.penTip(pen: Self.pen, down: false, time: ms(4))) == [
            .penUp(alice, pen: Self.pen, time: ms(4)), .penFrame(alice, pen: Self.pen, time: ms(4)),
            .penProximityOut(alice, pen: Self.pen, time: ms(4)), .penFrame(alice, pen: Self.pen, time: ms(4)),
            .pointerEnter(bob, surface: b, local: p(50, 50)), .pointerFrame(bob),
        ])
        #expect(desk.reported == [.penEmulatesPointer(pen: Self.pen)])
        // Back over alice: the pointer stays on bob's window's edge, and alice hears the tool.
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(60, 50), axes: PenAxes(), time: ms(5))) == [
            .penProximityIn(alice, surface: a, pen: Self.pen, local: p(60, 50), axes: PenAxes(), time: ms(5)),
            .penFrame(alice, pen: Self.pen, time: ms(5)),
        ])
    }

    /// The surface goes with the tip down: its client hears up and proximity_out; the rest of
    /// the stroke goes to nobody, and the next hover finds what is under the pen.
    @Test mutating func aSurfaceGoingMidStrokeEndsItForItsClient() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let other = desk.add(window(alice, 200, 0, 100, 100))
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(50, 50), time: ms(1)))
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(2)))
        let removed = desk.change { $0.remove(a) }
        #expect(removed == [
            .penUp(alice, pen: Self.pen, time: ms(2)), .penProximityOut(alice, pen: Self.pen, time: ms(2)), .penFrame(alice, pen: Self.pen, time: ms(2)),
        ])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(250, 50), axes: PenAxes(pressure: 0.5), time: ms(3))) == [])
        #expect(desk.send(.penTip(pen: Self.pen, down: false, time: ms(4))) == [
            .penProximityIn(alice, surface: other, pen: Self.pen, local: p(50, 50), axes: PenAxes(pressure: 0.5), time: ms(4)),
            .penFrame(alice, pen: Self.pen, time: ms(4)),
        ])
    }

    /// A held barrel button keeps the pen while its surface goes: the client hears the
    /// button released and proximity_out; the real release later is quiet, and the pen then
    /// comes to what is under it.
    @Test mutating func aHeldButtonOutlivesItsSurfaceQuietly() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let other = desk.add(window(alice, 0, 0, 100, 100), at: .bottom)
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(50, 50), time: ms(1)))
        _ = desk.send(.penButton(pen: Self.pen, button: 0x14b, state: .pressed, time: ms(2)))
        #expect(desk.change { $0.remove(a) } == [
            .penButton(alice, pen: Self.pen, button: 0x14b, state: .released, time: ms(2)),
            .penProximityOut(alice, pen: Self.pen, time: ms(2)), .penFrame(alice, pen: Self.pen, time: ms(2)),
        ])
        #expect(desk.send(.penButton(pen: Self.pen, button: 0x14b, state: .released, time: ms(3))) == [
            .penProximityIn(alice, surface: other, pen: Self.pen, local: p(50, 50), axes: PenAxes(), time: ms(3)),
            .penFrame(alice, pen: Self.pen, time: ms(3)),
        ])
        #expect(desk.reported == [])
    }

    /// A pen stroke from the left edge: the built-in edge swipe takes touch only, so the
    /// stroke stays the client's and no gesture begins.
    @Test mutating func aPenIsNoTouchForTheBuiltInEdgeSwipe() {
        let w = desk.add(window(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(5, 100), time: ms(1)))
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(2)))
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(200, 100), axes: PenAxes(pressure: 0.5), time: ms(3))) == [
            .penMotion(alice, pen: Self.pen, local: p(200, 100), axes: PenAxes(pressure: 0.5), time: ms(3)), .penFrame(alice, pen: Self.pen, time: ms(3)),
        ])
        #expect(desk.gestureEvents() == [])
        _ = w
    }

    /// An edge swipe configured for pens wins a pen's stroke: the tablet client gets the
    /// tool's up and proximity_out (tablet-v2 has no cancel) and nothing more of the stroke;
    /// the tip lifting brings the pen back to it.
    @Test mutating func aGestureThatTakesPensEndsTheStrokeForItsClient() {
        let w = desk.add(window(alice, 0, 0, 500, 500))
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: GestureOptions(inputTypes: [.touch, .pen]))
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(5, 100), time: ms(1)))
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(2)))
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(40, 100), axes: PenAxes(), time: ms(3))) == [
            .penMotion(alice, pen: Self.pen, local: p(40, 100), axes: PenAxes(), time: ms(3)), .penFrame(alice, pen: Self.pen, time: ms(3)),
        ])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(90, 100), axes: PenAxes(), time: ms(4))) == [
            .penUp(alice, pen: Self.pen, time: ms(4)), .penProximityOut(alice, pen: Self.pen, time: ms(4)), .penFrame(alice, pen: Self.pen, time: ms(4)),
        ])
        #expect(desk.gestureEvents() == [.began])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(200, 100), axes: PenAxes(), time: ms(5))) == [])
        #expect(desk.send(.penTip(pen: Self.pen, down: false, time: ms(6))) == [
            .penProximityIn(alice, surface: w, pen: Self.pen, local: p(200, 100), axes: PenAxes(), time: ms(6)), .penFrame(alice, pen: Self.pen, time: ms(6)),
        ])
        #expect(desk.gestureEvents() == [.changed, .ended])
    }
}
