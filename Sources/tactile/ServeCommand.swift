import ArgumentParser
import Foundation
import TactileServer
import TactileWayland

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Wayland server on a headless output; input comes from the test protocol."
    )

    @OptionGroup var options: ServerOptions

    @Option(help: "Socket name in $XDG_RUNTIME_DIR (default: the first free wayland-N).")
    var socket: String?

    func run() throws {
        let logger = options.makeLogger()
        let server = try WaylandServer(configuration: try options.configuration(), logger: logger)
        let name = try server.addSocket(named: socket)
        let size = options.outputSize.size
        logger.info("listening on \(name), output \(size.width)x\(size.height)\(options.testInput ? ", test input enabled" : "")")
        // Unbuffered, so a script reading our output learns the socket before we block.
        FileHandle.standardOutput.write(Data("WAYLAND_DISPLAY=\(name)\n".utf8))
        server.run()
    }
}
