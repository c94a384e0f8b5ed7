/// A decision of the core: send this to that client. The protocol layer turns each into
/// wl_touch / wl_pointer / wl_keyboard events on every matching resource of the client, and
/// adds what only it knows (serials, modifiers).
///
/// Positions are `local:` to the surface named, whatever the finger or pointer is over.
public enum Delivery: Hashable, Sendable {
    case touchDown(ClientID, surface: NodeID, id: Int32, local: Point, time: Instant)
    case touchMotion(ClientID, surface: NodeID, id: Int32, local: Point, time: Instant)
    case touchUp(ClientID, id: Int32, time: Instant)
    case touchFrame(ClientID)
    /// Ends every touch the client has (wl_touch.cancel).
    case touchCancel(ClientID)
    case pointerEnter(ClientID, surface: NodeID, local: Point)
    case pointerLeave(ClientID, surface: NodeID)
    case pointerMotion(ClientID, surface: NodeID, local: Point, time: Instant)
    case pointerButton(ClientID, button: UInt32, state: PressState, time: Instant)
    case pointerAxis(ClientID, AxisMotion, time: Instant)
    case pointerFrame(ClientID)
    case keyboardEnter(ClientID, surface: NodeID, pressedKeys: [UInt32])
    case keyboardLeave(ClientID, surface: NodeID)
    case key(ClientID, key: UInt32, state: PressState, time: Instant)
    /// zwp_pointer_gesture_*: a touchpad gesture begun over the surface with pointer focus.
    case touchpadGestureBegin(ClientID, surface: NodeID, TouchpadGesture, fingers: Int, time: Instant)
    case touchpadGestureUpdate(ClientID, TouchpadGesture, delta: Point, scale: Double, rotation: Double, time: Instant)
    case touchpadGestureEnd(ClientID, TouchpadGesture, cancelled: Bool, time: Instant)
    /// zwp_tablet_tool_v2, to a client with a tablet seat: the pen came over the surface.
    case penProximityIn(ClientID, surface: NodeID, pen: Int32, local: Point, axes: PenAxes, time: Instant)
    case penProximityOut(ClientID, pen: Int32, time: Instant)
    case penDown(ClientID, pen: Int32, time: Instant)
    case penUp(ClientID, pen: Int32, time: Instant)
    case penMotion(ClientID, pen: Int32, local: Point, axes: PenAxes, time: Instant)
    /// `button`: the evdev code, BTN_STYLUS to BTN_STYLUS3.
    case penButton(ClientID, pen: Int32, button: UInt32, state: PressState, time: Instant)
    case penFrame(ClientID, pen: Int32, time: Instant)
    /// zwp_tablet_pad_v2, to the client with the keyboard focus: the pad's control acted,
    /// `surface` being the focused one (the pad enters it first if it was elsewhere).
    case pad(ClientID, surface: NodeID, pad: Int32, PadAction, time: Instant)

    /// The client the event goes to.
    public var client: ClientID {
        switch self {
        case .touchDown(let c, _, _, _, _), .touchMotion(let c, _, _, _, _), .touchUp(let c, _, _),
             .touchFrame(let c), .touchCancel(let c), .pointerEnter(let c, _, _), .pointerLeave(let c, _),
             .pointerMotion(let c, _, _, _), .pointerButton(let c, _, _, _), .pointerAxis(let c, _, _),
             .pointerFrame(let c), .keyboardEnter(let c, _, _), .keyboardLeave(let c, _), .key(let c, _, _, _),
             .touchpadGestureBegin(let c, _, _, _, _), .touchpadGestureUpdate(let c, _, _, _, _, _),
             .touchpadGestureEnd(let c, _, _, _), .penProximityIn(let c, _, _, _, _, _), .penProximityOut(let c, _, _),
             .penDown(let c, _, _), .penUp(let c, _, _), .penMotion(let c, _, _, _, _), .penButton(let c, _, _, _, _),
             .penFrame(let c, _, _), .pad(let c, _, _, _, _):
            c
        }
    }
}
