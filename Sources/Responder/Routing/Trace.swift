/// A routing decision told as it is made, for `--trace`, show-touches and the inspector.
///
/// The core builds these only for a sink whose `isTracing` is true: a sink that does not
/// trace pays one Boolean check per touch-down, focus change and arena step, and nothing else
/// (the routing benchmarks compare both).
public enum TraceEvent {
    /// Where a touch went down and why it hit what it hit (every node looked at, and the
    /// surfaces under the winner marked covered).
    case hitTest(touch: Int32, at: Point, HitTestExplanation)
    /// Who gets the touch for its lifetime; the owner may be an ancestor of the surface hit
    /// (the responder chain) when the surface's client has no wl_touch.
    case touchOwner(touch: Int32, TouchOwner)
    /// A recognizer on the touch's path took it (one event per recognizer).
    case gestureOffered(touch: Int32, GestureID)
    /// A system edge recognizer left the touch to the surface, which asked for the edge.
    case gestureDeferred(touch: Int32, GestureID)
    /// Events kept from the owner while an undecided recognizer delays them (first held event).
    case touchHeld(touch: Int32, ClientID)
    /// Held events delivered, in order, once nobody delays them.
    case touchReplayed(touch: Int32, ClientID, events: Int)
    /// A winning recognizer took the touch from its owner.
    case touchClaimed(touch: Int32, by: GestureID, ClaimOutcome)
    /// A winning recognizer that takes pens took a pen's stroke: its client (nil: nobody
    /// heard it) got the tool's up and proximity_out, or its pointer press was abandoned.
    case penClaimed(pen: Int32, by: GestureID, ClientID?)
    /// A winning touchpad recognizer took the touchpad gesture from the client with pointer
    /// focus: ended as cancelled if the client had seen it begin (`seen`), else never heard of.
    case touchpadGestureClaimed(by: GestureID, ClientID, seen: Bool)
    /// A touchscreen's filter held back, changed or dropped a touch before routing
    /// (`TouchFilters`); `device` is the device's name.
    case touchFiltered(TouchFilterReport, device: String)
    /// A touch accommodation held back, moved or dropped a touch before routing
    /// (`TouchAccommodations`).
    case touchAccommodated(AccommodationReport)
    /// An emulated touch held still for `held` right-clicked its client (nil: nobody under it).
    case secondaryClick(touch: Int32, ClientID?, held: Duration)
    case pointerFocus(NodeID?, ClientID?, FocusCause)
    case keyboardFocus(NodeID?, ClientID?, FocusCause)
    /// A window asked for keyboard focus (it mapped, or was activated) and the window policy
    /// left focus where it was, for the reason given: the window wants attention.
    case keyboardFocusWithheld(NodeID, ClientID, reason: String)

    public enum TouchOwner: Hashable, Sendable {
        case surface(NodeID, ClientID, local: Point)
        /// The owner has no wl_touch: the touch drives its pointer.
        case emulatedPointer(ClientID)
        case nobody(Diagnostic.DropReason)
    }

    public enum ClaimOutcome: Hashable, Sendable {
        /// The client had seen the touch: wl_touch.cancel ended all of its touches.
        case cancelled(ClientID)
        /// Everything was still held: the client never hears of the touch.
        case unseen(ClientID, droppedEvents: Int)
        /// The touch drove the pointer of a client without wl_touch: the press is abandoned.
        case pressAbandoned(ClientID)
        /// Nobody owned it.
        case unowned
    }
}

/// Why pointer or keyboard focus moved.
public enum FocusCause: Hashable, Sendable {
    case pointerMoved
    /// Something was mapped, moved, restacked or removed under a still pointer.
    case sceneChanged
    /// The last button went up; focus catches up with what is under the pointer.
    case buttonsReleased
    /// The focused surface went away.
    case surfaceRemoved
    /// The compositor took the pointer (an interactive move or resize).
    case compositorGrab
    /// A gesture won the touch that held the emulated button.
    case pressAbandoned
    case touched
    case clicked
    /// The window policy decided, for the reason given (a window mapped, focus-next, ...).
    case policy(String)
}
