import ArgumentParser
import Glibc

@main
struct Tactile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Touch-first input routing for Wayland: a routing core and a minimal compositor around it.",
        // The commit it was built from (Plugins/TactileVersion, scripts/version).
        version: tactileVersion,
        subcommands: [DemoCommand.self, ServeCommand.self, InjectCommand.self, InspectCommand.self, RecordCommand.self, CaptureCommand.self, CalibrateCommand.self, PanelCheckCommand.self, StaffPinCommand.self],
        defaultSubcommand: DemoCommand.self
    )

    /// A first word that names no command is an error: with a default subcommand, the
    /// argument parser would hand it to the demo, and `tactile typo --help` would print the
    /// demo's help and succeed, so a script could not tell a missing command from a present one.
    static func main() {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        if let word = CommandLine.arguments.dropFirst().first, !word.hasPrefix("-"), !names.contains(word) {
            let message = "tactile: '\(word)' is not a command; the commands are: \(names.dropLast().joined(separator: ", "))\n"
            Unbuffered.write(message, to: STDERR_FILENO)
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        main(nil)
    }
}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "On a desktop: Tactile in a window, with clients to touch and click. Elsewhere: the routing core on a built-in scene, every decision printed.",
        discussion: """
        When WAYLAND_DISPLAY names a compositor that listens, the demo is `tactile serve -- \
        COMMAND` nested in it, COMMAND starting weston-simple-touch (it draws where fingers \
        touch) and weston-clickdot (it draws where the pointer clicks); closing the window or \
        both clients ends it. Otherwise, or with --script, it routes a scripted sequence of \
        touches through the core and prints every decision.
        """
    )

    @Flag(help: "Print the scripted routing demo even when there is a desktop to nest in.")
    var script = false

    /// What runs inside the nested demo; `wait` keeps Tactile up until both clients closed.
    static let clients = "weston-simple-touch & weston-clickdot & wait"

    func run() throws {
        if !script, case (.wayland, let reason) = ServeCommand.chooseBackend(nil) {
            // Unbuffered: these lines come before the server's log, not at exit.
            Unbuffered.write("""
                Tactile demo: a window in your desktop (\(reason)), with weston-simple-touch and weston-clickdot inside.
                Touch, click and type in it; close it (or both clients) to end. `tactile demo --script` prints the routing demo instead.

                """, to: STDOUT_FILENO)
            try ServeCommand.parse(["--", "/bin/sh", "-c", Self.clients]).run()
            return
        }
        var demo = Demo()
        demo.run()
    }
}
