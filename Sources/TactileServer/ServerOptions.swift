import GestureConfiguration
import ArgumentParser
import Logging
import Responder
import TactileBackends
import TactileRender
import TactileWayland

/// The options that configure a server, shared by `tactile serve` and the WLCS integration
/// (whose create_server accepts the same ones).
public struct ServerOptions: ParsableArguments {
    @Option(help: "The size of each output in pixels, WIDTHxHEIGHT: headless outputs', or the nested windows' until the parent compositor resizes them.")
    public var outputSize: OutputSize = OutputSize(Size(width: 1280, height: 800))

    @Option(help: "How many outputs, side by side left to right: headless ones (HEADLESS-1, HEADLESS-2, ...), or nested windows (WL-1, WL-2, ...).")
    public var outputs: Int = 1

    @Option(help: "Turn every output as its screen is mounted: normal, 90, 180, 270, flipped, flipped-90, flipped-180 or flipped-270 (the configuration file's outputs entries set each one's). Touchscreens follow.")
    public var transform: OutputTransform?

    @Option(help: "When the pointer's cursor shows: auto (once a pointer moves, hidden again by a touch), always, or never (default: auto, or the file's cursor).")
    public var cursor: CursorPolicy?

    @Flag(help: "Nested in a parent compositor (the wayland backend): ask it to show the window fullscreen.")
    public var fullscreen = false

    @Flag(help: "Advertise tactile_test_input_v1 so any client (e.g. `tactile inject`) can inject input. Tests and scripts only.")
    public var testInput = false

    @Flag(help: "Print every routing decision to standard error as a `trace ...` line: hit tests with the reason each surface was skipped, touch owners, gesture arena steps, focus changes (or `trace: true` in the configuration file).")
    public var trace = false

    @Flag(help: "Draw each touch point and its trail over the outputs, coloured by the client that owns it, with a cross where a touch was cancelled or taken by a gesture.")
    public var showTouches = false

    @Flag(help: "Outline the input region of the surface under the pointer.")
    public var showInputRegions = false

    @Flag(help: "Advertise tactile_inspector_v1, for `tactile inspect` (--test-input implies it). Any client can then read every client's surfaces, titles and pids.")
    public var inspect = false

    @Flag(help: "Maximize every toplevel to the output instead of cascading them.")
    public var kiosk = false

    @Option(help: "XKB layout, e.g. 'us' or 'de' (default: XKB_DEFAULT_LAYOUT, then xkbcommon's default).")
    public var keyboardLayout: String?

    @Flag(inversion: .prefixedNo, help: "Let the first finger drive the pointer of a client without wl_touch (default: on, or the configuration file's touch.pointer-emulation).")
    public var pointerEmulation: Bool?

    @Option(help: "A configuration file (YAML): system gestures and their actions, the touch policy, the keyboard layout. Options given here win over it.")
    public var config: String?

    @Option(help: "X11 apps through Xwayland: lazy (started by the first X client), eager (started with Tactile) or off (default: lazy, or the configuration file's xwayland).")
    public var xwayland: XwaylandMode?

    @Option(help: "What composes the frames: auto (GLES where EGL gives a GPU, else pixman), gles or pixman (default: auto, or the configuration file's renderer).")
    public var renderer: RendererChoice?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    public var logLevel: Logger.Level = .info

    public init() {}

    /// The arguments among `arguments` that are these options (with their values), so a host
    /// with a command line of its own (WLCS) can pass it whole.
    public static func recognized(in arguments: [String]) -> [String] {
        let flags = ["--test-input", "--kiosk", "--pointer-emulation", "--no-pointer-emulation", "--trace", "--show-touches", "--show-input-regions", "--inspect"]
        let valued = ["--output-size", "--outputs", "--transform", "--cursor", "--keyboard-layout", "--log-level", "--config", "--renderer"]
        var kept: [String] = []
        var k = 0
        while k < arguments.count {
            let argument = arguments[k]
            if flags.contains(argument) || valued.contains(where: { argument.hasPrefix($0 + "=") }) {
                kept.append(argument)
            } else if valued.contains(argument), k + 1 < arguments.count {
                kept += [argument, arguments[k + 1]]
                k += 1
            }
            k += 1
        }
        return kept
    }

    /// The server's configuration: the configuration file's settings, if one is named, with
    /// these options over them. Throws `ConfigurationError` for a file with a mistake.
    public func configuration() throws -> ServerConfiguration {
        try configuration(from: configurationFile())
    }

    /// The configuration file named by `--config`, read and checked; nil without one.
    public func configurationFile() throws -> ConfigurationFile? {
        try config.map(ConfigurationFile.load)
    }

    /// When Xwayland starts: `--xwayland`, else the file's `xwayland`, else lazily.
    public func xwaylandMode(from file: ConfigurationFile?) -> XwaylandMode {
        xwayland ?? file?.xwayland ?? .lazy
    }

    /// As `configuration()`, for a caller that has read the file already (for its device
    /// settings too).
    public func configuration(from file: ConfigurationFile?) -> ServerConfiguration {
        var result = ServerConfiguration(kioskMode: kiosk, keyboardLayout: KeyboardLayout(layout: keyboardLayout))
        result.renderer = .auto
        if let file { result = file.applied(to: result) }
        if let renderer { result.renderer = renderer }
        if let pointerEmulation { result.routingPolicy.emulatesPointerForTouch = pointerEmulation }
        if let transform { result.outputs.append(OutputSettings(transform: transform)) }
        if let cursor { result.cursor = cursor }
        if trace { result.trace = true }
        if showTouches { result.showTouches = true }
        if showInputRegions { result.showInputRegions = true }
        result.offersInspector = inspect || testInput
        result.offersTestInput = testInput
        return result
    }

    public func validate() throws {
        guard (1...16).contains(outputs) else { throw ValidationError("--outputs takes 1 to 16 outputs, not \(outputs)") }
    }

    /// The headless backend's outputs and whether it offers test input.
    public var headless: HeadlessBackend.Options {
        HeadlessBackend.Options(outputs: Array(repeating: outputSize.size, count: outputs))
    }

    /// The nested backend's windows, titled after `socketName` (Tactile's own socket), and
    /// whether it offers test input; `parent` is the parent compositor's socket.
    public func wayland(socketName: String, parent: String?) -> WaylandBackend.Options {
        WaylandBackend.Options(parentDisplay: parent, outputs: outputs, outputSize: outputSize.size, fullscreen: fullscreen, socketName: socketName)
    }

    /// A logger writing to standard error at the chosen level (bootstraps swift-log once).
    public func makeLogger() -> Logger {
        let level = logLevel
        LoggingBootstrap.once {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        var logger = Logger(label: "tactile")
        logger.logLevel = level
        return logger
    }
}

public struct OutputSize: ExpressibleByArgument, Sendable {
    public let size: Size

    public init(_ size: Size) { self.size = size }

    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        size = Size(width: parts[0], height: parts[1])
    }

    public var defaultValueDescription: String { "\(size.width)x\(size.height)" }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// swift-log may be bootstrapped once per process; WLCS creates many servers in one.
private enum LoggingBootstrap {
    nonisolated(unsafe) private static var done = false

    static func once(_ bootstrap: () -> Void) {
        guard !done else { return }
        done = true
        bootstrap()
    }
}

extension OutputTransform: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.description) }
}

extension CursorPolicy: ExpressibleByArgument {}
extension RendererChoice: ExpressibleByArgument {}
