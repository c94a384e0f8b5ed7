import GestureConfiguration
import Logging
import Responder
import TactileBackends
import TactileWayland

/// One Tactile: the Wayland server and what serves it (its backends, the configured gestures'
/// actions), wired the same way for `tactile serve`, the WLCS integration and the tests.
/// Made, run and dropped on the thread that runs the server's loop.
public final class Assembly {
    /// Where output and input go.
    public enum Backend {
        /// Virtual outputs; input only from tactile_test_input_v1, when offered.
        case headless(HeadlessBackend.Options)
        /// Windows in a parent compositor, whose seat is the input. `ended` is told why the
        /// backend cannot go on (the parent closed the window, or went); the server stops.
        case wayland(WaylandBackend.Options, ended: (WaylandBackend.End) -> Void)
        /// The kernel's input devices through libinput, on headless outputs or, with
        /// `screens`, on the machine's screens through KMS; opened through one seat session.
        case devices(LibinputOptions, screens: Screens?, headless: HeadlessBackend.Options)
    }

    /// The DRM cards to drive (every card when empty); their screens' settings are the
    /// configuration's `outputs`.
    public struct Screens {
        public var cards: [String]

        public init(cards: [String]) {
            self.cards = cards
        }
    }

    public let server: WaylandServer
    /// The socket clients connect to, in $XDG_RUNTIME_DIR; nil for an embedder that connects
    /// its clients itself (WLCS).
    public let socketName: String?
    /// The headless backend, when the outputs are headless ones.
    public private(set) var headless: HeadlessBackend?
    /// The nested backend, when Tactile runs in a parent compositor's windows.
    public private(set) var nested: WaylandBackend?
    private var screens: DRMBackend?
    private var input: LibinputBackend?
    private let logger: Logger
    private var actions: GestureActions?

    /// Starts one of Tactile's own commands beside the app, as a gesture's command starts
    /// (`GestureActions.start`); nothing where this assembly runs no actions.
    public func startHelper(_ arguments: [String], what: String) {
        actions?.start(arguments, what: what)
    }
    /// X11 apps' Xwayland, unless off.
    public private(set) var xwayland: Xwayland?

    /// `socket`: listen on this name, on the first free `wayland-N` (`.automatic`), or on none.
    /// `actions`: run the configured gestures' actions. `xwayland`: hold an X display for X11
    /// apps (a server without a socket has none); one that cannot be had is logged, not fatal.
    public init(configuration: ServerConfiguration, backend: Backend, socket: Socket, actions: Bool = true, xwayland: XwaylandMode = .off,
                logger: Logger = Logger(label: "tactile")) throws {
        self.logger = logger
        server = try WaylandServer(configuration: configuration, logger: logger)
        socketName = switch socket {
        case .named(let name): try server.addSocket(named: name)
        case .automatic: try server.addSocket()
        case .none: nil
        }
        // Outputs first: the libinput backend maps its devices onto them.
        switch backend {
        case .headless(let options):
            headless = HeadlessBackend(host: server.port, options: options)
        case .wayland(var options, let ended):
            // libwayland would try wayland-0, which may be our own socket: a connection to
            // ourselves waits forever for answers from a loop not yet running.
            guard let parent = options.parentDisplay else { throw AssemblyError.noParent }
            if parent == socketName { throw AssemblyError.nestedInItself(parent) }
            options.socketName = socketName ?? ""
            let handle = server.handle
            nested = try WaylandBackend(host: server.port, options: options, logger: logger) { end in
                ended(end)
                handle.terminate()
            }
        case .devices(let options, let screens, let headlessOptions):
            // One seat session for the screens and the input devices, the screens first: on
            // the way back from another VT, the picture returns before input resumes.
            let session = try Session(host: server.port, logger: logger)
            if let screens {
                self.screens = try DRMBackend(host: server.port, session: session, paths: screens.cards, logger: logger)
            } else {
                headless = HeadlessBackend(host: server.port, options: headlessOptions)
            }
            input = try LibinputBackend(host: server.port, options: options, session: session, logger: logger)
        }
        if xwayland != .off, socketName != nil {
            do {
                self.xwayland = try Xwayland(mode: xwayland, server: server, logger: logger)
            } catch {
                logger.error("no X11 apps: \(error)")
            }
        }
        if actions { self.actions = GestureActions(server: server, socketName: socketName, x11Display: self.xwayland?.displayName, logger: logger) }
    }

    public enum Socket {
        case named(String)
        case automatic
        case none
    }

    /// Reads the configuration file at `path` again (SIGHUP) and applies what can change
    /// under a running app: the touchscreens' filters. A file with a mistake changes
    /// nothing; the error, with its line and column, is logged.
    public func reloadConfiguration(from path: String) {
        let file: ConfigurationFile
        do {
            file = try ConfigurationFile.load(path)
        } catch {
            return logger.error("reload: \(error); the settings in use stay")
        }
        logger.notice("reload: \(path) read; the touchscreens' filters apply from each one's next touch, the accommodations once no finger is down")
        input?.reconfigure(devices: file.devices)
        server.setAccommodations(file.accommodations ?? AccommodationSettings(), exempting: file.windows)
        server.setSecondaryClick(file.secondaryClick == .zero ? nil : file.secondaryClick)
        server.setZoom(file.zoom)
    }

    /// Runs the server's loop until it is stopped, then gives the console its modes back
    /// before anything else is torn down.
    public func run() {
        server.run()
        screens?.stop()
        xwayland = nil
    }
}

/// Why an assembly could not be made, beyond its parts' own errors.
public enum AssemblyError: Error, CustomStringConvertible {
    case noParent
    case nestedInItself(String)

    public var description: String {
        switch self {
        case .noParent: "--backend wayland needs WAYLAND_DISPLAY: the parent compositor's socket"
        case .nestedInItself(let name): "WAYLAND_DISPLAY names Tactile's own socket \(name): nothing to nest in"
        }
    }
}
