import GestureConfiguration
import Responder
import TactileRender

/// What the server is told at start-up (by the CLI, or by a test); the outputs and input
/// devices are the backends'.
public struct ServerConfiguration: Sendable {
    /// Maximize every toplevel to its output instead of cascading them (`DefaultWindowPolicy`).
    public var kioskMode: Bool
    /// When a toplevel takes keyboard focus as it first maps: by default only the first
    /// window, the focused client's, or one activated with a token (`NewWindowFocus`).
    public var newWindowFocus: NewWindowFocus
    /// Keyboard layout; nil fields fall back to XKB_DEFAULT_* and then xkbcommon's defaults.
    public var keyboardLayout: KeyboardLayout
    public var routingPolicy: RoutingPolicy
    /// System gestures on the output, in the order they are offered touches.
    public var gestures: [GestureBinding]
    /// Each output's scale, transform and position (and, for the DRM backend, mode and
    /// whether it is lit), by name: the configuration file's `outputs`, then `--mode` and
    /// `--transform` for every output.
    public var outputs: [OutputSettings] = []
    /// Which screen a named app's or tagged window goes to, and whether full screen (the
    /// configuration file's `windows`), first match first.
    public var windowRules: [WindowRule] = []
    /// The touch accommodations (the configuration file's `accessibility`); window rules
    /// with `accommodations: false` exempt their apps.
    public var accommodations = AccommodationSettings()
    /// Zoom by touch (the configuration file's `accessibility.zoom`); nil: off.
    public var zoom: ZoomSettings?
    /// When the cursor is drawn (`--cursor`).
    public var cursor = CursorPolicy.auto
    /// When the screens sleep, and what the input that wakes them does (off by default).
    public var idle = IdleSettings()
    /// A kiosk's day: the session that starts over, the cleaning screen, the staff door.
    public var sessionReset = SessionResetSettings()
    public var cleaning = CleaningSettings()
    public var staff: StaffSettings?
    /// Whether a client may have keyboard shortcuts inhibited (zwp_keyboard_shortcuts_inhibitor_v1).
    public var shortcutsInhibit = ShortcutsInhibitPolicy.grant
    /// What a client ringing the bell (xdg_system_bell_v1) does.
    public var bell = BellAction.log
    /// Routing decisions as `trace ...` lines on standard error (`--trace`).
    public var trace = false
    /// Touch points and trails drawn over every output, coloured by owner (`--show-touches`).
    public var showTouches = false
    /// The input region of the surface under the pointer outlined (`--show-input-regions`).
    public var showInputRegions = false
    /// A mark under each finger, drawn by the server in every frame (`touch.feedback`).
    public var touchFeedback = TouchFeedbackStyle.off
    /// Offer tactile_inspector_v1 (`--inspect`; `--test-input` implies it): any client can
    /// then read every client's surfaces, titles and pids.
    public var offersInspector = false
    /// Offer tactile_test_input_v1 (`--test-input`): any client can then inject input into
    /// every other. Tests and scripts only.
    public var offersTestInput = false
    /// Who may bind each privileged family of globals (the configuration file's
    /// `privileges`): `PrivilegePolicy.standard` unless configured.
    public var privileges = PrivilegePolicy.standard
    /// How much one client may make the server hold.
    public var limits = ClientLimits()
    /// The touchscreens the configuration file names (its `devices` entries that map or
    /// calibrate one): the health answer says when one is missing.
    public var expectedTouchscreens: [ExpectedInputDevice] = []
    /// What composes the outputs' frames (`--renderer`): pixman unless asked, as the tests
    /// want; `tactile serve` asks for `auto`.
    public var renderer = RendererChoice.pixman

    public init(
        kioskMode: Bool = false,
        keyboardLayout: KeyboardLayout = KeyboardLayout(), routingPolicy: RoutingPolicy = RoutingPolicy(),
        gestures: [GestureBinding] = [], newWindowFocus: NewWindowFocus = .activation
    ) {
        self.newWindowFocus = newWindowFocus
        self.gestures = gestures
        self.kioskMode = kioskMode
        self.keyboardLayout = keyboardLayout
        self.routingPolicy = routingPolicy
    }
}
