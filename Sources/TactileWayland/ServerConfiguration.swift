import Responder

/// What the server is told at start-up (by the CLI, or by a test).
public struct ServerConfiguration: Sendable {
    /// The single output's size in logical pixels (headless: the virtual output).
    public var outputSize: Size
    /// Advertise tactile_test_input_v1, letting any client inject input. Tests and scripts only.
    public var enablesTestInput: Bool
    /// Maximize every toplevel to the output instead of cascading them.
    public var kioskMode: Bool
    /// A toplevel takes keyboard focus when it first maps. Off for a kiosk whose background
    /// helpers must not take the keyboard from the app the user is typing in.
    public var focusesNewWindows: Bool
    /// Keyboard layout; nil fields fall back to XKB_DEFAULT_* and then xkbcommon's defaults.
    public var keyboardLayout: KeyboardLayout
    public var routingPolicy: RoutingPolicy
    /// System gestures on the output, in the order they are offered touches.
    public var gestures: [GestureBinding]

    public init(
        outputSize: Size = Size(width: 1280, height: 800), enablesTestInput: Bool = false, kioskMode: Bool = false,
        keyboardLayout: KeyboardLayout = KeyboardLayout(), routingPolicy: RoutingPolicy = RoutingPolicy(),
        gestures: [GestureBinding] = [], focusesNewWindows: Bool = true
    ) {
        self.focusesNewWindows = focusesNewWindows
        self.gestures = gestures
        self.outputSize = outputSize
        self.enablesTestInput = enablesTestInput
        self.kioskMode = kioskMode
        self.keyboardLayout = keyboardLayout
        self.routingPolicy = routingPolicy
    }
}

/// An XKB rule set, model, layout, variant and options (RMLVO); nil means "the default".
public struct KeyboardLayout: Sendable, Hashable {
    public var rules: String?
    public var model: String?
    public var layout: String?
    public var variant: String?
    public var options: String?

    public init(rules: String? = nil, model: String? = nil, layout: String? = nil, variant: String? = nil, options: String? = nil) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }
}
