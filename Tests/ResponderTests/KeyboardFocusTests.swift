import Responder
import Testing

/// DESIGN.md §1.4, keyboard: focus is the toplevel last touched or clicked.
@Suite struct KeyboardFocusTests {
    var desk = Desk()

    @Test mutating func touchingASubsurfaceFocusesItsToplevel() {
        let w = desk.add(window(alice, 0, 0, 200, 200))
        desk.add(subsurface(alice, 10, 10, 50, 50), to: w)
        #expect(desk.send(.touchDown(id: 1, global: p(20, 20), time: ms(1))).first == .keyboardEnter(alice, surface: w, pressedKeys: []))
        #expect(desk.router.keyboardFocus == w)
    }

    @Test mutating func clickingAnotherToplevelMovesFocusThere() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchUp(id: 1, time: ms(2)), .touchFrame)
        #expect(desk.send(.pointerMotion(global: p(250, 50), time: ms(3)), .pointerButton(button: 0x110, state: .pressed, time: ms(4))) == [
            .pointerEnter(bob, surface: b, local: p(50, 50)),
            .pointerFrame(bob),
            .keyboardLeave(alice, surface: a),
            .keyboardEnter(bob, surface: b, pressedKeys: []),
            .pointerButton(bob, button: 0x110, state: .pressed, time: ms(4)),
            .pointerFrame(bob),
        ])
    }

    @Test mutating func keysGoToTheFocusedClientAndEnterCarriesHeldKeys() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)))
        #expect(desk.send(.key(key: 30, state: .pressed, time: ms(2))) == [.key(alice, key: 30, state: .pressed, time: ms(2))])
        #expect(desk.send(.touchDown(id: 2, global: p(210, 10), time: ms(3))).prefix(2) == [
            .keyboardLeave(alice, surface: a),
            .keyboardEnter(bob, surface: b, pressedKeys: [30]),
        ])
        #expect(desk.send(.key(key: 30, state: .released, time: ms(4))) == [.key(bob, key: 30, state: .released, time: ms(4))])
    }

    /// What a device the client binds now must hear entered: its own focus only, with the
    /// keys held and where the pointer last was on the surface.
    @Test mutating func theFocusAClientHoldsIsItsOwnOnly() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .key(key: 42, state: .pressed, time: ms(2)))
        _ = desk.send(.pointerMotion(global: p(230, 40), time: ms(3)))
        #expect(desk.router.keyboardFocus(heldBy: alice)?.node == a && desk.router.keyboardFocus(heldBy: alice)?.keys == [42])
        #expect(desk.router.keyboardFocus(heldBy: bob) == nil)
        #expect(desk.router.pointerFocus(heldBy: bob)?.node == b && desk.router.pointerFocus(heldBy: bob)?.local == p(30, 40))
        #expect(desk.router.pointerFocus(heldBy: alice) == nil)
    }

    @Test mutating func touchingTheBackgroundKeepsFocus() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)))
        #expect(desk.send(.touchDown(id: 2, global: p(500, 500), time: ms(2))) == [])
        #expect(desk.router.keyboardFocus == w)
    }

    @Test mutating func aDestroyedFocusedToplevelTakesFocusWithItQuietly() {
        let w = desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .touchUp(id: 1, time: ms(2)), .touchFrame)
        #expect(desk.change { $0.remove(w) } == [])
        #expect(desk.router.keyboardFocus == nil)
        #expect(desk.send(.key(key: 30, state: .pressed, time: ms(3))) == [])
    }

    @Test mutating func theCompositorCanMoveFocusByPolicy() {
        let a = desk.add(window(alice, 0, 0, 100, 100))
        let b = desk.add(window(bob, 200, 0, 100, 100))
        desk.router.setKeyboardFocus(a, sink: &desk.sink)
        desk.router.setKeyboardFocus(b, sink: &desk.sink)
        desk.router.setKeyboardFocus(b, sink: &desk.sink)
        #expect(desk.sink.take().deliveries == [
            .keyboardEnter(alice, surface: a, pressedKeys: []),
            .keyboardLeave(alice, surface: a),
            .keyboardEnter(bob, surface: b, pressedKeys: []),
        ])
    }

    @Test mutating func aKeyPressedTwiceIsIgnored() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)), .key(key: 30, state: .pressed, time: ms(2)))
        let again = InputEvent.key(key: 30, state: .pressed, time: ms(3))
        #expect(desk.diagnose(again) == [.ignored(again, because: .keyAlreadyPressed)])
        let unknown = InputEvent.key(key: 31, state: .released, time: ms(3))
        #expect(desk.diagnose(unknown) == [.ignored(unknown, because: .keyNotPressed)])
    }

    /// A test-input client could otherwise hold a thousand keys and overflow the next
    /// wl_keyboard.enter, which libwayland caps at 4 KiB.
    @Test mutating func aCodeAboveKeyMaxIsNoKeyAndNoButton() {
        desk.add(window(alice, 0, 0, 100, 100))
        _ = desk.send(.touchDown(id: 1, global: p(10, 10), time: ms(1)))
        let key = InputEvent.key(key: InputEvent.maximumKeyCode + 1, state: .pressed, time: ms(2))
        let button = InputEvent.pointerButton(button: .max, state: .pressed, time: ms(2))
        #expect(desk.diagnose(key, button) == [.ignored(key, because: .notAnEvdevCode), .ignored(button, because: .notAnEvdevCode)])
        #expect(desk.router.pressedKeys == [])
        #expect(desk.send(.key(key: InputEvent.maximumKeyCode, state: .pressed, time: ms(3))).count == 1)
    }
}
