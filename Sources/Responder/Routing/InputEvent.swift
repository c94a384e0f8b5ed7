/// Whether a button or key went down or up (wl_pointer.button_state, wl_keyboard.key_state).
public enum PressState: Hashable, Sendable {
    case released, pressed
}

/// One scroll step, as wl_pointer.axis and its companions describe it.
public struct AxisMotion: Hashable, Sendable {
    public enum Source: Hashable, Sendable { case wheel, finger, continuous, wheelTilt }

    public var source: Source
    /// In surface-local pixels, as wl_pointer.axis carries them; 0 for an axis that did not move.
    public var horizontal: Double
    public var vertical: Double
    /// Wheel clicks in 120ths (wl_pointer.axis_value120); 0 when the source has none.
    public var horizontalValue120: Int32
    public var verticalValue120: Int32
    /// The axes on which a finger or continuous scroll ended (wl_pointer.axis_stop).
    public var stops: Axes
    /// The device scrolls naturally: its values are against the physical movement (fingers
    /// up scroll down), which wl_pointer 9 tells clients so a slider can follow the fingers.
    public var inverted: Bool

    public struct Axes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let horizontal = Axes(rawValue: 1 << 0)
        public static let vertical = Axes(rawValue: 1 << 1)
    }

    public init(
        source: Source, horizontal: Double = 0, vertical: Double = 0,
        horizontalValue120: Int32 = 0, verticalValue120: Int32 = 0, stops: Axes = [], inverted: Bool = false
    ) {
        self.source = source
        self.horizontal = horizontal
        self.vertical = vertical
        self.horizontalValue120 = horizontalValue120
        self.verticalValue120 = verticalValue120
        self.stops = stops
        self.inverted = inverted
    }
}

/// What a pen reports besides its position, in the units of libinput and of tablet-v2's
/// clients: pressure and distance as fractions of what the pen can sense, angles in degrees.
public struct PenAxes: Hashable, Sendable {
    /// 0 (not pressed) to 1 (as hard as the pen senses).
    public var pressure: Double
    /// 0 (touching) to 1 (as far as the tablet senses), for pens that report it.
    public var distance: Double
    /// The pen's tilt from upright, in degrees, positive towards the right and the bottom.
    public var tiltX: Double
    public var tiltY: Double
    /// Its turn about its own axis (an art pen, a puck), in degrees clockwise from its
    /// natural position.
    public var rotation: Double
    /// An airbrush's finger wheel: -1 (towards the tip) to 1.
    public var slider: Double
    /// A wheel turned with this motion (a puck's, relative, unlike the rest): in degrees,
    /// and in clicks where the wheel has them.
    public var wheel: Double
    public var wheelClicks: Int32

    public init(pressure: Double = 0, distance: Double = 0, tiltX: Double = 0, tiltY: Double = 0, rotation: Double = 0, slider: Double = 0,
                wheel: Double = 0, wheelClicks: Int32 = 0) {
        self.pressure = pressure
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.rotation = rotation
        self.slider = slider
        self.wheel = wheel
        self.wheelClicks = wheelClicks
    }
}

/// What a tablet pad's control did, in tablet-v2's terms.
public enum PadAction: Hashable, Sendable {
    /// The pad's button `index` (numbered from 0 across the pad, as tablet-v2 does).
    case button(UInt32, PressState)
    /// A finger on ring `index` turned it to `degrees` (clockwise from the top), or left it
    /// (`nil`). `byFinger` is false when the pad does not say what moved the ring.
    case ring(UInt32, degrees: Double?, byFinger: Bool)
    /// A finger on strip `index` is at `position` (0 at the top or left, 1 at the other
    /// end), or left it (`nil`).
    case strip(UInt32, position: Double?, byFinger: Bool)
}

/// The touchpad gestures of zwp_pointer_gestures_v1.
public enum TouchpadGesture: String, Hashable, Sendable, CaseIterable {
    case swipe, pinch, hold
}

/// Input as a backend hands it to the core, device-neutral, positions in global (layout)
/// coordinates. libinput, a parent compositor and the test protocol all produce these.
public enum InputEvent: Hashable, Sendable {
    case touchDown(id: Int32, global: Point, time: Instant)
    case touchMotion(id: Int32, global: Point, time: Instant)
    case touchUp(id: Int32, time: Instant)
    /// The device gave up on this touch (libinput's touch cancel, a device unplugged).
    case touchCancel(id: Int32, time: Instant)
    /// Ends a group of touch events that happened together (libinput's touch frame).
    case touchFrame
    /// Absolute: backends turn relative motion into a position before it reaches the core.
    case pointerMotion(global: Point, time: Instant)
    case pointerButton(button: UInt32, state: PressState, time: Instant)
    case pointerAxis(AxisMotion, time: Instant)
    case key(key: UInt32, state: PressState, time: Instant)
    /// A touchpad gesture as libinput recognizes it: fingers resting (hold), moving together
    /// (swipe) or pinching. One at a time; a new begin ends the one before as cancelled.
    case touchpadGestureBegin(TouchpadGesture, fingers: Int, time: Instant)
    /// `delta`: the fingers' centroid's motion since the last update, in pointer pixels;
    /// `scale`: their spread over the spread at begin; `rotation`: degrees since the last update.
    case touchpadGestureUpdate(delta: Point, scale: Double, rotation: Double, time: Instant)
    /// The fingers lifted (`cancelled` false), or the device gave up on the gesture.
    case touchpadGestureEnd(cancelled: Bool, time: Instant)

    /// A pen (a tablet tool: pen, eraser, brush...) came within reach of its tablet at
    /// `global` (`entering`) with `axes` (its tilt, distance... as it comes: the first a
    /// client hears), or left it. `pen` names the tool while it is in proximity.
    case penProximity(pen: Int32, entering: Bool, global: Point, axes: PenAxes = PenAxes(), time: Instant)
    /// The pen's tip touched the tablet (`down`), or lifted from it.
    case penTip(pen: Int32, down: Bool, time: Instant)
    /// The pen moved, hovering or with its tip down.
    case penMotion(pen: Int32, global: Point, axes: PenAxes, time: Instant)
    /// A button on the pen's barrel: BTN_STYLUS, BTN_STYLUS2 or BTN_STYLUS3.
    case penButton(pen: Int32, button: UInt32, state: PressState, time: Instant)

    /// A tablet pad's button, ring or strip; `pad` names the pad. A pad points at nothing:
    /// what it does goes to the keyboard focus, where a drawing app's shortcuts listen.
    case pad(pad: Int32, PadAction, time: Instant)

    /// The highest evdev code a key or button can have (linux/input-event-codes.h's KEY_MAX).
    /// Higher codes come only from a buggy or hostile source and are refused, which also
    /// bounds the keys held at once, and so the size of wl_keyboard.enter's key array.
    public static let maximumKeyCode: UInt32 = 0x2ff
    /// The most fingers a touchpad gesture can have: ten hands' worth is already hostile.
    public static let maximumGestureFingers = 10
}
