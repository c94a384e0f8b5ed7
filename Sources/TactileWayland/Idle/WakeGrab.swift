import Responder

/// Takes the input that woke the screens (`wake: swallow`), the whole of it: the touches
/// that go down with their motions, ends and cancels, keys and buttons pressed with their
/// releases, the pointer's motion and scrolls, a touchpad gesture to its end, a pen until it
/// leaves the tablet's proximity. It ends at
/// the first moment nothing it took is held, so the next touch reaches the app as any other.
final class WakeGrab: InputGrab {
    private var touches: Set<Int32> = []
    private var keys: Set<UInt32> = []
    private var buttons: Set<UInt32> = []
    private var gesture = false
    private var pens: Set<Int32> = []
    /// Pad buttons held, as (pad, button).
    private var padButtons: Set<[UInt32]> = []
    /// Called once, when the sequence is over.
    private let ended: (WakeGrab) -> Void

    init(ended: @escaping (WakeGrab) -> Void) { self.ended = ended }

    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        switch event {
        case .touchDown(let id, _, _): touches.insert(id)
        case .touchUp(let id, _), .touchCancel(let id, _): touches.remove(id)
        case .key(let key, .pressed, _): keys.insert(key)
        case .key(let key, .released, _): keys.remove(key)
        case .pointerButton(let button, .pressed, _): buttons.insert(button)
        case .pointerButton(let button, .released, _): buttons.remove(button)
        case .touchpadGestureBegin: gesture = true
        case .touchpadGestureEnd: gesture = false
        case .penProximity(let pen, true, _, _, _): pens.insert(pen)
        case .penProximity(let pen, false, _, _, _): pens.remove(pen)
        case .pad(let pad, .button(let button, .pressed), _): padButtons.insert([UInt32(bitPattern: pad), button])
        case .pad(let pad, .button(let button, .released), _): padButtons.remove([UInt32(bitPattern: pad), button])
        case .touchMotion, .touchFrame, .pointerMotion, .pointerAxis, .touchpadGestureUpdate, .penTip, .penMotion, .penButton, .pad(_, .ring, _), .pad(_, .strip, _): break
        }
        // A touch's frame comes after its last event: the grab ends with it.
        let framed: Bool
        if case .touchFrame = event { framed = true } else { framed = false }
        let touchDone = touches.isEmpty && (framed || !Self.isTouch(event))
        if touchDone && keys.isEmpty && buttons.isEmpty && !gesture && pens.isEmpty && padButtons.isEmpty { ended(self) }
        return nil
    }

    private static func isTouch(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchFrame: true
        default: false
        }
    }
}
