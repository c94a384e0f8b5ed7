import Responder
import Testing

/// Palm rejection (issue 31): a hand resting on a screen tablet while its pen signs. While a
/// pen hovers over a client, that client's new touches wait; the tip touching, or the pen
/// staying past 300 ms, makes them palms nobody sees; the pen leaving sooner lets them out.
@Suite struct PalmRejectionTests {
    /// alice has a tablet seat (the signature field), bob none.
    var desk = Desk(bound: [alice: InputCapabilities.all.union(.tablet), bob: .all])
    static let pen: Int32 = 1

    mutating func hoverOverAlice() -> NodeID {
        let w = desk.add(window(alice, 0, 0, 400, 300))
        _ = desk.send(.penProximity(pen: Self.pen, entering: true, global: p(200, 100), time: ms(1)))
        return w
    }

    @Test mutating func theTipTouchingMakesAHeldTouchAPalm() {
        _ = hoverOverAlice()
        #expect(desk.send(.touchDown(id: 0, global: p(150, 250), time: ms(10)), .touchFrame) == [], "held while the pen hovers")
        let tip = desk.send(.penTip(pen: Self.pen, down: true, time: ms(20)))
        #expect(desk.reported == [.touchDropped(id: 0, because: .palm)])
        #expect(!tip.contains { if case .touchDown = $0 { true } else { false } })
        #expect(desk.send(.touchMotion(id: 0, global: p(160, 250), time: ms(30)), .touchFrame, .touchUp(id: 0, time: ms(40)), .touchFrame) == [],
                "the rest of the palm goes to nobody")
    }

    @Test mutating func thePenLeavingSoonLetsTheTouchOut() {
        let w = hoverOverAlice()
        _ = desk.send(.touchDown(id: 0, global: p(150, 250), time: ms(10)), .touchFrame)
        _ = desk.send(.touchMotion(id: 0, global: p(155, 250), time: ms(20)), .touchFrame)
        let left = desk.send(.penProximity(pen: Self.pen, entering: false, global: p(200, 100), time: ms(200)))
        #expect(Array(left.suffix(4)) == [
            .touchDown(alice, surface: w, id: 0, local: p(150, 250), time: ms(10)), .touchFrame(alice),
            .touchMotion(alice, surface: w, id: 0, local: p(155, 250), time: ms(20)), .touchFrame(alice),
        ], "as they happened, frames included")
        #expect(desk.send(.touchUp(id: 0, time: ms(210)), .touchFrame) == [.touchUp(alice, id: 0, time: ms(210)), .touchFrame(alice)])
    }

    @Test mutating func aPenHoveringOnIsAPalmsToo() {
        _ = hoverOverAlice()
        _ = desk.send(.touchDown(id: 0, global: p(150, 250), time: ms(10)), .touchFrame)
        let left = desk.send(.penProximity(pen: Self.pen, entering: false, global: p(200, 100), time: ms(400)))
        #expect(!left.contains { if case .touchDown = $0 { true } else { false } })
        #expect(desk.reported == [.touchDropped(id: 0, because: .palm)])
        #expect(desk.send(.touchUp(id: 0, time: ms(410)), .touchFrame) == [])
    }

    @Test mutating func aTouchLandingUnderADownTipIsDroppedAtOnce() {
        _ = hoverOverAlice()
        _ = desk.send(.penTip(pen: Self.pen, down: true, time: ms(5)))
        #expect(desk.send(.touchDown(id: 0, global: p(150, 250), time: ms(10)), .touchFrame) == [])
        #expect(desk.reported == [.touchDropped(id: 0, because: .palm)])
    }

    /// Another client's touches, and every touch with palm rejection off, go out at once.
    @Test mutating func otherClientsAndThePolicyOffAreUntouched() {
        _ = hoverOverAlice()
        let b = desk.add(window(bob, 500, 0, 200, 200))
        #expect(desk.send(.touchDown(id: 0, global: p(550, 50), time: ms(10)), .touchFrame) == [
            .keyboardEnter(bob, surface: b, pressedKeys: []),
            .touchDown(bob, surface: b, id: 0, local: p(50, 50), time: ms(10)), .touchFrame(bob),
        ])
        var off = Desk(policy: RoutingPolicy(rejectsPalms: false), bound: [alice: InputCapabilities.all.union(.tablet)])
        let w = off.add(window(alice, 0, 0, 400, 300))
        _ = off.send(.penProximity(pen: Self.pen, entering: true, global: p(200, 100), time: ms(1)))
        #expect(off.send(.touchDown(id: 0, global: p(150, 250), time: ms(10)), .touchFrame).contains(
            .touchDown(alice, surface: w, id: 0, local: p(150, 250), time: ms(10))))
    }
}
