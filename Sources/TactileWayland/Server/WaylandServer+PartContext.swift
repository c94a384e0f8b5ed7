import Responder

/// The server as its parts see it (`PartContext`); the rest of what they ask for it already
/// has (`surface(at:)`, `updateScene`, `focusKeyboard`, `handle`, ...).
extension WaylandServer: PartContext {
    var scene: Scene { router.scene }

    var focus: SeatFocus {
        SeatFocus(keyboard: router.keyboardFocus, pointer: router.pointerFocus, pointerPosition: router.pointerPosition)
    }

    var keyboardFocusIsPinned: Bool {
        get { router.keyboardFocusIsPinned }
        set { router.keyboardFocusIsPinned = newValue }
    }

    var pointerButtonsHeld: Bool { router.pointerButtonsHeld }
}
