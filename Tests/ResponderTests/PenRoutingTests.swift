import Responder
import Testing

/// Pens as clients without tablet-v2 get them (issue 31): the pen drives the pointer, its tip
/// is the left button, so the surface under the tip keeps the stroke wherever it goes (the
/// pointer's implicit grab), and a pen that leaves lets go of everything it pressed.
@Suite struct PenRoutingTests {
    var desk = Desk()
    static let pen: Int32 = 1

    mutating func hover(_ x: Double, _ y: Double, at time: UInt64) -> [Delivery] {
        desk.send(.penProximity(pen: Self.pen, entering: true, global: p(x, y), time: ms(time)))
    }

    @Test mutating func aPenInProximityEntersTheSurfaceUnderIt() {
        let w = desk.add(window(alice, 100, 100, 200, 200))
        #expect(hover(150, 160, at: 1) == [.pointerEnter(alice, surface: w, local: p(50, 60)), .pointerFrame(alice)])
        #expect(desk.reported == [.penEmulatesPointer(pen: Self.pen)])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(151, 161), axes: PenAxes(distance: 0.5), time: ms(2))) == [
            .pointerMotion(alice, surface: w, local: p(51, 61), time: ms(2)), .pointerFrame(alice),
        ])
        // Only the pressure changed (libinput reports it with the tip): no pointer motion.
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(151, 161), axes: PenAxes(pressure: 0.3), time: ms(3))) == [])
    }

    /// A stroke that starts on one client's window and crosses another's stays with the first,
    /// and the tip's lift ends it there; the next hover enters what is under the pen.
    @Test mutating func aStrokeStaysWithTheSurfaceItStartedOn() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 100, 0, 100, 100))
        _ = hover(50, 50, at: 1)
        #expect(desk.send(.penTip(pen: Self.pen, down: true, time: ms(2))) == [
            .keyboardEnter(alice, surface: a, pressedKeys: []),
            .pointerButton(alice, button: 0x110, state: .pressed, time: ms(2)), .pointerFrame(alice),
        ])
        #expect(desk.send(.penMotion(pen: Self.pen, global: p(150, 50), axes: PenAxes(pressure: 0.7), time: ms(3))) == [
            .pointerMotion(alice, surface: a, local: p(150, 50), time: ms(3)), .pointerFrame(alice),
        ])
        #expect(desk.send(.penTip(pen: Self.pen, down: false, time: ms(4))) == [
            .pointerButton(alice, button: 0x110, state: .released, time: ms(4)), .pointerFrame(alice),
            .pointerLeave(alice, surface: a), .pointerFrame(alice),
            .pointerEnter(bob, surface: b, local: p(50, 50)), .pointerFrame(bob),
        ])
    }

    /// The barrel buttons are the right and middle buttons; a pen leaving proximity with its
    /// tip and a button down releases both, so no client is left with a held button.
    @Test mutating func aPenLeavingLetsGoOfWhatItPressed() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = hover(50, 50, at: 1)
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(2)))
        #expect(desk.send(.penButton(pen: Self.pen, button: 0x14b, state: .pressed, time: ms(3))) == [
            .pointerButton(alice, button: 0x111, state: .pressed, time: ms(3)), .pointerFrame(alice),
        ])
        let left = desk.send(.penProximity(pen: Self.pen, entering: false, global: p(50, 50), time: ms(4)))
        #expect(left == [
            .pointerButton(alice, button: 0x111, state: .released, time: ms(4)), .pointerFrame(alice),
            .pointerButton(alice, button: 0x110, state: .released, time: ms(4)), .pointerFrame(alice),
        ])
        #expect(!desk.router.pointerButtonsHeld)
    }

    /// Nonsense from a broken or hostile source changes nothing and says why.
    @Test mutating func penEventsOutOfOrderAreRefused() {
        desk.add(window(alice, 0, 0, 100, 100))
        #expect(rejections(desk.diagnose(
            .penTip(pen: 7, down: true, time: ms(1)),
            .penMotion(pen: 7, global: p(1, 1), axes: PenAxes(), time: ms(1)),
            .penProximity(pen: 7, entering: false, global: p(1, 1), time: ms(1)),
            .penProximity(pen: 7, entering: true, global: p(.nan, 1), time: ms(1))
        )) == [.unknownPen, .unknownPen, .unknownPen, .nonFiniteCoordinates])
        _ = hover(50, 50, at: 2)
        #expect(rejections(desk.diagnose(
            .penProximity(pen: Self.pen, entering: true, global: p(50, 50), time: ms(3)),
            .penTip(pen: Self.pen, down: false, time: ms(3)),
            .penButton(pen: Self.pen, button: 0x110, state: .pressed, time: ms(3)),
            .penButton(pen: Self.pen, button: 0x14b, state: .released, time: ms(3))
        )) == [.penAlreadyInProximity, .tipNotDown, .notAPenButton, .buttonNotPressed])
        for id in 100..<(100 + Int32(InputRouter.maximumPens)) {
            _ = desk.send(.penProximity(pen: id, entering: true, global: p(50, 50), time: ms(4)))
        }
        #expect(rejections(desk.diagnose(.penProximity(pen: 999, entering: true, global: p(50, 50), time: ms(5)))) == [.tooManyPens])
    }

    /// A mouse already holding the left button keeps its press: the pen's tip neither presses
    /// it again nor, lifting, releases the mouse's.
    @Test mutating func aMouseHoldingTheButtonKeepsItThroughAPensTip() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.pointerMotion(global: p(10, 10), time: ms(1)), .pointerButton(button: 0x110, state: .pressed, time: ms(1)))
        _ = hover(50, 50, at: 2)
        #expect(desk.send(.penTip(pen: Self.pen, down: true, time: ms(3))) == [])
        #expect(desk.send(.penTip(pen: Self.pen, down: false, time: ms(4))) == [])
        #expect(desk.router.pointerButtonsHeld)
    }
}
