import ArgumentParser

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Save one window or one output of a running Tactile as a PNG file.",
        discussion: """
        --window: the first window with that app_id, drawn alone, so windows covering it are \
        not in the picture. --output: the output of that name (e.g. HEADLESS-1) as it is \
        composed. Tactile offers its capture protocols to the clients it started, grim and \
        its own executable (privileges.screen-capture); a window is found through the window \
        list (privileges.window-management).
        """
    )

    @Option(help: ArgumentHelp("The window with this app_id, alone.", valueName: "app-id"))
    var window: String?

    @Option(help: ArgumentHelp("The output with this name, as composed.", valueName: "name"))
    var output: String?

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    @Argument(help: "The PNG file to write.")
    var file: String

    func validate() throws {
        if (window == nil) == (output == nil) { throw ValidationError("give one of --window <app-id> and --output <name>") }
    }

    func run() throws {
        let client = try CaptureClient(socket: socket)
        let source = try window.map(client.windowSource) ?? client.outputSource(named: output!)
        // An output's frame is opaque whatever its buffer's alpha byte says.
        try client.picture(of: source, keepsAlpha: window != nil).writePNG(to: file)
    }
}
