import Responder
import Testing

/// Tablet pads (issue 31): a pad points at nothing, so its buttons, rings and strips go to
/// the keyboard focus, whatever the pens are over; angles and positions are brought into
/// the range tablet-v2 can say, and a NaN is refused.
@Suite struct PadRoutingTests {
    var desk = Desk(bound: [alice: InputCapabilities.all.union(.tablet), bob: InputCapabilities.all.union(.tablet)])
    static let pad: Int32 = 3

    /// A tap on a window gives it the keyboard focus, and so the pad.
    mutating func focus(_ x: Double, _ y: Double) {
        _ = desk.send(.touchDown(id: 9, global: p(x, y), time: ms(1)), .touchFrame, .touchUp(id: 9, time: ms(2)), .touchFrame)
    }

    @Test mutating func thePadFollowsTheKeyboardFocus() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 100, 0, 100, 100))
        focus(50, 50)
        #expect(desk.send(.pad(pad: Self.pad, .button(2, .pressed), time: ms(3))) == [.pad(alice, surface: a, pad: Self.pad, .button(2, .pressed), time: ms(3))])
        // A pen hovering over bob changes nothing: the pad is not pointed.
        _ = desk.send(.penProximity(pen: 1, entering: true, global: p(150, 50), time: ms(4)))
        #expect(desk.send(.pad(pad: Self.pad, .button(2, .released), time: ms(5))) == [.pad(alice, surface: a, pad: Self.pad, .button(2, .released), time: ms(5))])
        _ = desk.send(.penProximity(pen: 1, entering: false, global: p(150, 50), time: ms(6)))
        focus(150, 50)
        #expect(desk.send(.pad(pad: Self.pad, .strip(0, position: 0.5, byFinger: true), time: ms(7))) == [
            .pad(bob, surface: b, pad: Self.pad, .strip(0, position: 0.5, byFinger: true), time: ms(7)),
        ])
    }

    @Test mutating func withNoKeyboardFocusNobodyHearsThePad() {
        _ = desk.add(window(alice, 0, 0, 100, 100))
        #expect(rejections(desk.diagnose(.pad(pad: Self.pad, .button(0, .pressed), time: ms(1)))) == [.noKeyboardFocus])
    }

    /// A ring's angle wraps into 0..<360 and a strip's position is clamped to 0...1; a NaN or
    /// infinity is refused; a finger leaving (nil) passes as it is.
    @Test mutating func ringsWrapStripsClampAndNonsenseIsRefused() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        focus(50, 50)
        let cases: [(PadAction, PadAction)] = [
            (.ring(0, degrees: -90, byFinger: true), .ring(0, degrees: 270, byFinger: true)),
            (.ring(0, degrees: 720, byFinger: false), .ring(0, degrees: 0, byFinger: false)),
            (.ring(0, degrees: -1e-300, byFinger: true), .ring(0, degrees: 0, byFinger: true)),
            (.ring(0, degrees: nil, byFinger: true), .ring(0, degrees: nil, byFinger: true)),
            (.strip(1, position: 4, byFinger: true), .strip(1, position: 1, byFinger: true)),
            (.strip(1, position: -4, byFinger: true), .strip(1, position: 0, byFinger: true)),
        ]
        for (sent, heard) in cases {
            #expect(desk.send(.pad(pad: Self.pad, sent, time: ms(3))) == [.pad(alice, surface: a, pad: Self.pad, heard, time: ms(3))], "\(sent)")
        }
        for nonsense in [PadAction.ring(0, degrees: .nan, byFinger: true), .ring(0, degrees: .infinity, byFinger: true), .strip(0, position: .nan, byFinger: true)] {
            #expect(rejections(desk.diagnose(.pad(pad: Self.pad, nonsense, time: ms(4)))) == [.nonFiniteAxes], "\(nonsense)")
        }
    }
}
