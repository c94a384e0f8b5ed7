import ArgumentParser
import Foundation
import TactileBackends
import TactileServer
import TactileWayland

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Wayland server on a headless output, with input from the kernel's devices (libinput) or only the test protocol."
    )

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case headless, libinput
    }

    @OptionGroup var options: ServerOptions

    @Option(help: "Socket name in $XDG_RUNTIME_DIR (default: the first free wayland-N).")
    var socket: String?

    @Option(help: "Where input comes from: headless (only the test protocol, with --test-input) or libinput (the kernel's input devices, through libseat when a seat manager runs, else opened directly as root).")
    var backend: Backend = .headless

    @Option(help: "The udev seat whose devices libinput uses, hotplug included.")
    var seat = "seat0"

    @Option(name: .customLong("input-device"), help: "Use this /dev/input/event* node instead of the seat's devices (repeatable; no hotplug).")
    var inputDevices: [String] = []

    func validate() throws {
        if backend != .libinput, !inputDevices.isEmpty { throw ValidationError("--input-device needs --backend libinput") }
    }

    func run() throws {
        let logger = options.makeLogger()
        let file = try options.configurationFile()
        let server = try WaylandServer(configuration: options.configuration(from: file), logger: logger)
        let name = try server.addSocket(named: socket)
        // Outputs first: the libinput backend maps its devices onto them.
        let headless = HeadlessBackend(host: server, options: options.headless)
        var input: LibinputBackend?
        if backend == .libinput {
            let source: LibinputOptions.Source = inputDevices.isEmpty ? .seat(seat) : .paths(inputDevices)
            input = try LibinputBackend(host: server, options: LibinputOptions(source: source, devices: file?.devices ?? []), logger: logger)
        }
        let actions = GestureActions(server: server, socketName: name, logger: logger)
        let size = options.outputSize.size
        logger.info("listening on \(name), \(options.outputs) headless output(s) of \(size.width)x\(size.height), input: \(backend.rawValue)\(options.testInput ? ", test input enabled" : "")")
        // Unbuffered, so a script reading our output learns the socket before we block.
        FileHandle.standardOutput.write(Data("WAYLAND_DISPLAY=\(name)\n".utf8))
        let signals = server.stopOnTerminationSignals()
        withExtendedLifetime((headless, input, actions, signals)) { server.run() }
    }
}
