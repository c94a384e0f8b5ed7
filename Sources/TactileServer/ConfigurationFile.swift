import GestureConfiguration
import Responder
import TactileBackends
import TactileRender
import TactileWayland

/// The configuration file (`tactile --config FILE`, YAML): system gestures with their
/// thresholds, arbitration options and actions; the touch policy; the keyboard layout; the
/// libinput settings of input devices; the screens' modes and places; idle blanking; who may
/// bind the privileged protocols; how much one client may make the server hold; where the
/// metrics are served.
/// Every value is checked; a mistake names the file, line, column and key.
/// `docs/configuration.md` lists the keys (scripts/check-docs holds it to this reader);
/// `examples/kiosk.yaml` uses them.
public struct ConfigurationFile: Sendable {
    public var gestures: [GestureBinding] = []
    public var pointerEmulation: Bool?
    public var edgeDeferralLimit: Double?
    /// `touch.feedback`.
    public var touchFeedback: TouchFeedbackStyle?
    /// `touch.map`.
    public var touchMap: TouchMapChoice?
    /// `touch.secondary-click` (zero: off).
    public var secondaryClick: Duration?
    /// `accessibility`: the touch accommodations.
    public var accommodations: AccommodationSettings?
    /// `accessibility.zoom`; nil: off.
    public var zoom: ZoomSettings?
    /// `pen.palm-rejection`.
    public var palmRejection: Bool?
    public var keyboardLayout = KeyboardLayout()
    public var focusNewWindows: NewWindowFocus?
    /// `trace: true` is `--trace`; likewise show-touches and show-input-regions.
    public var trace: Bool?
    public var showTouches: Bool?
    public var showInputRegions: Bool?
    public var bell: BellAction?
    public var shortcutsInhibit: ShortcutsInhibitPolicy?
    /// When the cursor shows (`--cursor`).
    public var cursor: CursorPolicy?
    /// What composes the frames (`--renderer`).
    public var renderer: RendererChoice?
    /// When the screens sleep, and what the input that wakes them does.
    public var idle: IdleSettings?
    /// A kiosk's day (`session`, `cleaning`, `staff`).
    public var sessionReset: SessionResetSettings?
    /// `session.reset-run`: what starts the session over instead of starting the app again.
    public var sessionResetRun: String?
    public var cleaning: CleaningSettings?
    public var staff: StaffSettings?
    /// Who may bind each privileged family; the families not named keep the server's default.
    public var privileges: [Privilege: PrivilegePolicy.Grant] = [:]
    /// How much one client may make the server hold (`limits`).
    public var bufferSide: Int?
    public var objectsPerClient: Int?
    /// Whether X11 apps run, and when Xwayland starts (`--xwayland`); for `tactile serve`.
    public var xwayland: XwaylandMode?
    /// Whether `-- COMMAND` starts again when it fails (`app.restart`); for `tactile serve`.
    public var appRestart: SessionCommand.Restart?
    /// Where a fleet's monitoring reads the metrics (`metrics`); for `tactile serve`.
    public var metrics: MetricsSettings?
    /// For the libinput backend; the server itself has no use for them.
    public var devices: [DeviceSettings] = []
    /// For the DRM backend: each screen's mode, scale, place, or that it stays off.
    public var outputs: [OutputSettings] = []
    /// Which screen a named app's or tagged window goes to, full screen or not (`windows`).
    public var windows: [WindowRule] = []

    /// Reads and checks `path`.
    public static func load(_ path: String) throws -> ConfigurationFile {
        let text: String
        switch TextFile.read(path) {
        case .success(let read): text = read
        case .failure(let failure): throw ConfigurationError(file: path, line: nil, column: nil, key: nil, problem: "cannot read the file: \(failure)")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws -> ConfigurationFile {
        var config = ConfigurationFile()
        guard let root = try ConfigNode.compose(yaml: text, file: file) else { return config }
        let reader = ConfigurationReader(file: file)
        try reader.read(root, into: &config)
        return config
    }

    /// The server configuration with this file's settings applied over `base`.
    public func applied(to base: ServerConfiguration) -> ServerConfiguration {
        var result = base
        result.gestures = gestures
        if let staff, !gestures.contains(where: { $0.action == .staffDoor }) { result.gestures.append(Self.staffKnock(in: staff.corner)) }
        result.outputs = outputs + base.outputs
        result.windowRules = windows + base.windowRules
        if let pointerEmulation { result.routingPolicy.emulatesPointerForTouch = pointerEmulation }
        if let edgeDeferralLimit { result.routingPolicy.edgeDeferralLimit = edgeDeferralLimit }
        if let palmRejection { result.routingPolicy.rejectsPalms = palmRejection }
        if let secondaryClick { result.routingPolicy.secondaryClick = secondaryClick == .zero ? nil : secondaryClick }
        if let accommodations { result.accommodations = accommodations }
        if let zoom { result.zoom = zoom }
        if let focusNewWindows { result.newWindowFocus = focusNewWindows }
        if let trace { result.trace = trace }
        if let cursor { result.cursor = cursor }
        if let renderer { result.renderer = renderer }
        if let idle { result.idle = idle }
        if let sessionReset { result.sessionReset = sessionReset }
        if let cleaning { result.cleaning = cleaning }
        if let staff { result.staff = staff }
        result.privileges.grants.merge(privileges) { $1 }
        if let bufferSide { result.limits.bufferSide = bufferSide }
        if let objectsPerClient { result.limits.objects = objectsPerClient }
        result.expectedTouchscreens = devices.enumerated().compactMap { index, device in
            guard let match = device.match, device.output != nil || device.calibration != nil else { return nil }
            return ExpectedInputDevice(label: "devices[\(index)]", nameContains: match)
        }
        if let showTouches { result.showTouches = showTouches }
        if let touchFeedback { result.touchFeedback = touchFeedback }
        if let showInputRegions { result.showInputRegions = showInputRegions }
        if let bell { result.bell = bell }
        if let shortcutsInhibit { result.shortcutsInhibit = shortcutsInhibit }
        let k = keyboardLayout
        result.keyboardLayout = KeyboardLayout(
            rules: base.keyboardLayout.rules ?? k.rules, model: base.keyboardLayout.model ?? k.model,
            layout: base.keyboardLayout.layout ?? k.layout, variant: base.keyboardLayout.variant ?? k.variant,
            options: base.keyboardLayout.options ?? k.options
        )
        return result
    }
}

extension ConfigurationFile {
    /// The staff door's gesture when no configured one has `action: staff-door`: a finger
    /// held still 2 s in `corner`, which a customer's taps and swipes do not make.
    static func staffKnock(in corner: Corner) -> GestureBinding {
        GestureBinding(name: "staff-door", recognizer: LongPress(duration: .seconds(2), slop: 15, corner: (corner, LongPress.cornerSize)), action: .staffDoor)
    }
}

/// How touchscreens find their screens (`touch.map`).
public enum TouchMapChoice: String, CaseIterable, Sendable {
    /// By `devices[].output`, udev's WL_OUTPUT, the screen's size, else the first screen.
    case guess
    /// As `guess`, then at start, with two or more screens and a touchscreen whose screen was
    /// guessed (by size, or the first), each screen asks to be touched (`tactile calibrate
    /// --map --if-guessed`), and the answers go into this file as `devices[].output`, so the
    /// next start knows.
    case ask
}
