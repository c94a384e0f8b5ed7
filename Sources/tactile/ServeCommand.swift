import ArgumentParser
import Glibc
import Logging
import TactileBackends
import TactileServer
import TactileWayland

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Wayland server: in a window of the compositor you run it from (wayland), on the machine's screens with its input devices (drm), on headless outputs with input from the test protocol (headless) or from the kernel's devices (libinput).",
        discussion: """
        Without --backend, Tactile nests in the compositor WAYLAND_DISPLAY names if one listens \
        there (closing its window stops Tactile), and runs headless otherwise.

        With -- COMMAND [ARGS...], Tactile starts COMMAND once its socket is ready, with \
        WAYLAND_DISPLAY naming it, and exits with COMMAND's status when it exits.
        """
    )

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case headless, libinput, wayland, drm
    }

    @OptionGroup var options: ServerOptions

    @Option(help: "Socket name in $XDG_RUNTIME_DIR (default: the first free wayland-N).")
    var socket: String?

    @Option(help: """
    Where output and input go: wayland (a window in the parent compositor WAYLAND_DISPLAY names, whose seat is the input), \
    drm (every connected screen of every DRM card, through KMS, with input from libinput; the devices opened through libseat \
    or, as root without a seat manager, directly), \
    headless (virtual outputs; input only from the test protocol, with --test-input) or libinput (headless outputs; input from \
    the kernel's devices, through libseat when a seat manager runs, else opened directly as root). Default: wayland when \
    WAYLAND_DISPLAY names a compositor that listens, else headless.
    """)
    var backend: Backend?

    @Option(help: "The udev seat whose devices libinput uses, hotplug included.")
    var seat = "seat0"

    @Option(name: .customLong("input-device"), help: "Use this /dev/input/event* node instead of the seat's devices (repeatable; no hotplug).")
    var inputDevices: [String] = []

    @Option(name: .customLong("drm-card"), help: "Use this /dev/dri/card* instead of every card (repeatable; --backend drm).")
    var drmCards: [String] = []

    @Option(help: "Every screen's mode, WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, instead of its preferred one (--backend drm; the configuration file's outputs section sets each screen's).")
    var mode: String?

    @Argument(parsing: .postTerminator, help: "A command to run inside Tactile; Tactile ends when it does, with its status.")
    var command: [String] = []

    func validate() throws {
        if backend != .libinput, backend != .drm, !inputDevices.isEmpty { throw ValidationError("--input-device needs --backend libinput or drm") }
        if backend != .drm, !drmCards.isEmpty || mode != nil { throw ValidationError("--drm-card and --mode need --backend drm") }
        if let mode, OutputSettings.Mode(mode) == nil { throw ValidationError("--mode \(mode): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60") }
    }

    /// The backend to use and why, for the log: the one asked for, else wayland when a
    /// parent compositor listens on WAYLAND_DISPLAY (a connection is tried), else headless.
    static func chooseBackend(_ requested: Backend?) -> (Backend, reason: String) {
        if let requested { return (requested, "--backend \(requested.rawValue)") }
        guard let display = WaylandBackend.environmentDisplay else { return (.headless, "WAYLAND_DISPLAY is not set") }
        guard WaylandBackend.compositorListens(on: display) else { return (.headless, "no compositor listens on WAYLAND_DISPLAY=\(display)") }
        return (.wayland, "a compositor listens on WAYLAND_DISPLAY=\(display)")
    }

    func run() throws {
        if options.config != nil {
            // SIGHUP reads the file again (below). Blocked before any thread starts, so every
            // thread inherits the block and only the loop's signalfd takes it: a thread
            // without it would die of the default action, and the kiosk with it.
            var hangup = sigset_t()
            sigemptyset(&hangup)
            sigaddset(&hangup, SIGHUP)
            pthread_sigmask(SIG_BLOCK, &hangup, nil)
        }
        let logger = options.makeLogger()
        let file = try options.configurationFile()
        // Chosen before our own socket exists, so it is never the socket tried.
        let (backend, reason) = Self.chooseBackend(backend)
        logger.info("backend: \(backend.rawValue) (\(reason))")
        if options.fullscreen, backend != .wayland { logger.warning("--fullscreen only means something nested (the wayland backend); ignored") }
        let parent = WaylandBackend.environmentDisplay
        var end: WaylandBackend.End?
        let wiring: Assembly.Backend
        switch backend {
        case .headless: wiring = .headless(options.headless)
        case .wayland: wiring = .wayland(options.wayland(socketName: "", parent: parent), ended: { end = $0 })
        case .libinput, .drm:
            let source: LibinputOptions.Source = inputDevices.isEmpty ? .seat(seat) : .paths(inputDevices)
            wiring = .devices(LibinputOptions(source: source, devices: file?.devices ?? []),
                              screens: backend == .drm ? Assembly.Screens(cards: drmCards) : nil, headless: options.headless)
        }
        var configuration = options.configuration(from: file)
        // --mode for every screen, over the file's settings.
        if let mode = mode.flatMap(OutputSettings.Mode.init) { configuration.outputs.append(OutputSettings(mode: mode)) }
        let tactile = try Assembly(configuration: configuration, backend: wiring,
                                   socket: socket.map { .named($0) } ?? .automatic, xwayland: options.xwaylandMode(from: file), logger: logger)
        let server = tactile.server
        let name = tactile.socketName ?? ""
        logger.info("listening on \(name), \(Self.describe(backend, options, parent: parent))\(options.testInput ? ", test input enabled" : "")")
        // Unbuffered, so a script reading our output learns the socket before we block.
        Unbuffered.write("WAYLAND_DISPLAY=\(name)\n", to: STDOUT_FILENO)
        var signals = server.stopOnTerminationSignals()
        if let path = options.config {
            signals.append(server.onSignal(SIGHUP) { [unowned tactile] in tactile.reloadConfiguration(from: path) })
        }
        // `pkill -USR1 -x tactile` (or `systemctl kill -s USR1` on its unit): the cleaning
        // screen, from a command or a staff menu, as action: clean-screen starts it.
        signals.append(server.onSignal(SIGUSR1) { [unowned server] in server.port.startCleaning() })
        let session: SessionCommand?
        do {
            session = command.isEmpty ? nil : try SessionCommand(command, server: server, socketName: name, x11Display: tactile.xwayland?.displayName, restart: file?.appRestart ?? .never, logger: logger)
        } catch {
            throw ServeFailure.commandFailed(error.description)
        }
        let environment = currentEnvironmentByName()
        let supervision = Supervision(environment: environment, logger: logger)
        let metrics = file?.metrics.map { Metrics($0, server: server, session: session, logger: logger) }
        let day = KioskDay(server: server, session: session, resetRun: file?.sessionResetRun, logger: logger) { [unowned tactile] arguments, what in
            tactile.startHelper(arguments, what: what)
        }
        if file?.touchMap == .ask {
            askWhereTouchscreensLie(tactile, socket: name)
        }
        supervision.ready("listening on \(name)", environment: environment, server: server)
        withExtendedLifetime((signals, metrics, day)) { tactile.run() }
        supervision.stopping()
        session?.stop()
        switch end {
        case .parentLost(let why)?: throw ServeFailure.parentLost(why)
        case .closed?: logger.info("the parent compositor closed the window: clients disconnected, stopping")
        case nil: break
        }
        // COMMAND's status is Tactile's, when COMMAND is what ended it.
        if let session, session.endedTheServer, let status = session.status, status != 0 { throw ExitCode(status) }
    }

    /// `touch.map: ask`: this executable's `calibrate --map`, asking each screen to be
    /// touched when a touchscreen's screen was guessed, writing the answers into the file.
    private func askWhereTouchscreensLie(_ tactile: Assembly, socket: String) {
        var executable = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &executable, executable.count - 1)
        guard length > 0, let config = options.config else { return }
        let path = String(decoding: executable.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        tactile.startHelper([path, "calibrate", "--map", "--if-guessed", "--socket", socket, "--write", config], what: "touch.map: ask")
    }

    /// What the backend shows and where input comes from, for the "listening on" line.
    static func describe(_ backend: Backend, _ options: ServerOptions, parent: String?) -> String {
        let size = options.outputSize.size
        return switch backend {
        case .wayland: "nested in \(parent ?? "wayland-0"): \(options.outputs) window(s), output and input through the parent compositor"
        case .headless: "\(options.outputs) headless output(s) of \(size.width)x\(size.height), input: test protocol only"
        case .libinput: "\(options.outputs) headless output(s) of \(size.width)x\(size.height), input: libinput"
        case .drm: "on the screens of the DRM cards (KMS), input: libinput"
        }
    }
}

/// Why `tactile serve` stopped with a failure (ArgumentParser prints it and exits non-zero).
enum ServeFailure: Error, CustomStringConvertible {
    case parentLost(String)
    case commandFailed(String)

    var description: String {
        switch self {
        case .parentLost(let why): "lost the parent compositor (\(why)): clients disconnected, stopping"
        case .commandFailed(let why): why
        }
    }
}
