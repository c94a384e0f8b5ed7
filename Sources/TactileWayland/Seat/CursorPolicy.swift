import Responder

/// When the pointer's cursor is drawn (`--cursor`, the configuration file's `cursor`). A
/// touch-only kiosk wants none, and a device that only says it has a pointer (an HDMI-CEC
/// remote, a KVM switch) must not put one in the middle of the screen.
public enum CursorPolicy: String, CaseIterable, Sendable {
    /// Hidden until a pointer moves, clicks or scrolls; hidden again by a touch.
    case auto
    /// Shown wherever the pointer is, once it has moved, touches or not.
    case always
    /// Never drawn, whatever clients ask for; the pointer still works. (A remote helper's
    /// virtual pointer in use still shows: `Seat.remoteCursor`.)
    case never

    /// Whether the cursor shows after `event`, given whether it showed before.
    func shown(after event: InputEvent, before: Bool) -> Bool {
        switch (self, event) {
        case (.never, _): false
        case (.always, _): true
        // A hovering pen points as a mouse does (a desk tablet's user sees only its cursor).
        case (.auto, .pointerMotion), (.auto, .pointerButton), (.auto, .pointerAxis), (.auto, .penProximity(_, true, _, _, _)), (.auto, .penMotion): true
        case (.auto, .touchDown): false
        case (.auto, _): before
        }
    }
}
