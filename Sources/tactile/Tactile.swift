import ArgumentParser

@main
struct Tactile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Touch-first input routing for Wayland: a routing core and a minimal compositor around it.",
        subcommands: [DemoCommand.self, ServeCommand.self, InjectCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Route a scripted sequence of touches through the core on a built-in kiosk scene, and print every decision."
    )

    func run() {
        var demo = Demo()
        demo.run()
    }
}
