/// Something the core did that is not a delivery but that an integrator wants to see in a
/// log or trace: input it refused, touches nobody gets, touches turned into pointer events.
public enum Diagnostic: Hashable, Sendable {
    /// The event made no sense in the current state and changed nothing.
    case ignored(InputEvent, because: Rejection)
    /// A touch that went down but that no client will see.
    case touchDropped(id: Int32, because: DropReason)
    /// The owning client has no wl_touch, so the first finger drives its pointer instead.
    case touchEmulatesPointer(id: Int32, ClientID)
    /// A pen came over a client without a tablet seat (or over nothing) and drives the
    /// pointer: its tip is the left button, its barrel buttons the right and middle ones.
    case penEmulatesPointer(pen: Int32)

    public enum Rejection: Hashable, Sendable {
        case unknownTouch
        case touchAlreadyDown
        /// NaN, infinite, or beyond `Point.routableMagnitude`.
        case nonFiniteCoordinates
        case buttonNotPressed
        case buttonAlreadyPressed
        case keyNotPressed
        case keyAlreadyPressed
        /// A key or button code above `InputEvent.maximumKeyCode`.
        case notAnEvdevCode
        /// A touchpad gesture update or end with no gesture begun.
        case noTouchpadGesture
        /// A touchpad gesture of no fingers, or more than `InputEvent.maximumGestureFingers`.
        case fingerCountOutOfRange
        /// A pen event for a pen not in proximity.
        case unknownPen
        case penAlreadyInProximity
        case tipAlreadyDown
        case tipNotDown
        /// A pen button other than BTN_STYLUS, BTN_STYLUS2 and BTN_STYLUS3.
        case notAPenButton
        /// More pens in proximity at once than `InputRouter.maximumPens`.
        case tooManyPens
        /// A pen's pressure, distance or tilt, or a pad's ring or strip, was not a number.
        case nonFiniteAxes
        /// A pad's button, ring or strip with no keyboard focus to hear it.
        case noKeyboardFocus
    }

    public enum DropReason: Hashable, Sendable {
        /// Nothing, or only compositor nodes, under the finger.
        case noSurface
        /// The client has no wl_touch, and pointer emulation is off, busy with another finger,
        /// or impossible (no wl_pointer either).
        case noTouchBinding
        /// A pen over the client touched the screen, or hovered there longer than
        /// `InputRouter.palmWindow` after the touch landed: the hand, not a finger.
        case palm
    }
}
