import ArgumentParser
import Glibc
import TactileWayland

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the input a running `tactile serve --test-input` (or --inspect) takes, as an inject script.",
        discussion: """
        Every touch, pointer, key, touchpad, pen and pad event the seat takes, from whatever \
        device (libinput, the parent desktop's seat, `tactile inject`), one line each in the \
        format `tactile inject` reads, each with its time: @T, microseconds since the first. \
        The first line, a comment written once recording has begun, says what the positions \
        are relative to: global pixels, or with --window that window's top-left and its size \
        (`# window APP_ID WIDTHxHEIGHT`), so `inject --window` replays the stroke onto the \
        window wherever it is then. Runs until interrupted (SIGINT, SIGTERM), or --duration.
        """
    )

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    @Option(help: "Positions relative to this window's top-left (app_id).")
    var window: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration \(duration): expected a number of seconds above 0") }
    }

    func run() throws {
        let connection = try InspectorConnection(socket: socket)
        let fd: Int32
        if let output {
            fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw GlobalConnection.Failure(description: "cannot write \(output): \(String(cString: strerror(errno)))") }
        } else {
            fd = 1
        }
        defer { if fd != 1 { close(fd) } }
        // One write per line, unbuffered: an interrupted recording keeps every line it heard.
        func emit(_ line: String) {
            var text = line + "\n"
            text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        }
        var origin = (x: 0.0, y: 0.0)
        // The first line, written once the compositor records (a script may wait for it):
        // what the positions are relative to.
        var header = "# positions in global pixels; @T in microseconds since the first event"
        if let window {
            let found = try connection.scene().shownWindow(window)
            origin = (Double(found.x), Double(found.y))
            header = "# window \(window) \(found.width)x\(found.height)"
        }
        try connection.record(for: duration, started: { emit(header) }) { line in
            emit(window == nil ? line : Self.relative(line, to: origin))
        }
    }

    /// A recorded line with its position made relative to `origin`.
    static func relative(_ line: String, to origin: (x: Double, y: Double)) -> String {
        var words = line.split(separator: " ").map(String.init)
        let time = words.first?.hasPrefix("@") == true ? words.removeFirst() : nil
        guard let (xi, yi) = InjectScript.coordinates(in: words), let x = Double(words[xi]), let y = Double(words[yi]) else { return line }
        words[xi] = InputRecorder.number(x - origin.x)
        words[yi] = InputRecorder.number(y - origin.y)
        return ([time].compactMap { $0 } + words).joined(separator: " ")
    }
}
