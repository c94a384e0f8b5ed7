import ArgumentParser
import Foundation
import Logging
import Responder
import TactileWayland

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Wayland server on a headless output; input comes from the test protocol."
    )

    @Option(help: "The output size in logical pixels, WIDTHxHEIGHT.")
    var outputSize: OutputSize = OutputSize(Size(width: 1280, height: 800))

    @Option(help: "Socket name in $XDG_RUNTIME_DIR (default: the first free wayland-N).")
    var socket: String?

    @Flag(help: "Advertise tactile_test_input_v1 so any client (e.g. `tactile inject`) can inject input. Tests and scripts only.")
    var testInput = false

    @Flag(help: "Maximize every toplevel to the output instead of cascading them.")
    var kiosk = false

    @Option(help: "XKB layout, e.g. 'us' or 'de' (default: XKB_DEFAULT_LAYOUT, then xkbcommon's default).")
    var keyboardLayout: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "tactile")
        let configuration = ServerConfiguration(
            outputSize: outputSize.size, enablesTestInput: testInput, kioskMode: kiosk,
            keyboardLayout: KeyboardLayout(layout: keyboardLayout)
        )
        let server = try WaylandServer(configuration: configuration, logger: logger)
        let name = try server.addSocket(named: socket)
        logger.info("listening on \(name), output \(outputSize.size.width)x\(outputSize.size.height)\(testInput ? ", test input enabled" : "")")
        // Unbuffered, so a script reading our output learns the socket before we block.
        FileHandle.standardOutput.write(Data("WAYLAND_DISPLAY=\(name)\n".utf8))
        server.run()
    }
}

struct OutputSize: ExpressibleByArgument {
    let size: Size

    init(_ size: Size) { self.size = size }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        size = Size(width: parts[0], height: parts[1])
    }

    var defaultValueDescription: String { "\(size.width)x\(size.height)" }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
