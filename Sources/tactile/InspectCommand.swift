import ArgumentParser
import CWaylandClient
import Glibc
import WaylandProtocols

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Ask a running `tactile serve --inspect` (or --test-input) how it routes input.",
        discussion: """
        Without options: the outputs and the scene, topmost first, a node per line (surface, \
        role, app_id, title, pid, place, size, input region). With --at X,Y: the hit test a touch \
        there would run, every surface looked at with its verdict, and who would own the touch. \
        With --watch: every routing decision as it happens, in the format of `serve --trace`, \
        until interrupted. With --wait EXPR: returns once the scene shows EXPR, or fails after \
        --timeout printing the scene it saw. EXPR is one of: mapped app_id=ID (the window is \
        shown), focused app_id=ID (it has the keyboard), idle (no frame to come and every \
        configure acked), frame app_id=ID (it showed a new frame since the wait began), titled \
        app_id=ID TEXT (its title contains TEXT). With --health: `ok`, or a line per reason the \
        kiosk is not healthy (an output not showing its frames, an app answering no ping, a \
        configured touchscreen missing), and exit status 1; the first question starts the app \
        pings, so a hung app shows from the next.
        """
    )

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    @Option(help: "Explain the hit test at this global point, X,Y.")
    var at: String?

    @Flag(help: "Stream the routing trace live.")
    var watch = false

    @Flag(help: "Whether the kiosk is healthy: ok, or why not (exit status 1).")
    var health = false

    @Option(help: "Wait until the scene shows this: \(WaitCondition.syntax).")
    var wait: String?

    @Option(help: "How long --wait waits, in seconds.")
    var timeout: Double = 10

    func validate() throws {
        if [at != nil, watch, wait != nil, health].filter({ $0 }).count > 1 { throw ValidationError("--at, --watch, --wait and --health are separate questions; ask one") }
        if let at, Self.point(at) == nil { throw ValidationError("--at \(at): expected X,Y, e.g. 320,200") }
        if let wait, WaitCondition(wait) == nil { throw ValidationError("--wait \(wait): expected \(WaitCondition.syntax)") }
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout \(timeout): expected a number of seconds above 0") }
    }

    static func point(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { part in
            var part = part
            while part.first?.isWhitespace == true { part.removeFirst() }
            while part.last?.isWhitespace == true { part.removeLast() }
            return Double(part)
        }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    func run() throws {
        if let wait, let condition = WaitCondition(wait) {
            // A server started a moment ago may not listen yet: that is waited through too.
            let deadline = monotonicSeconds() + timeout
            var connection: InspectorConnection?
            while connection == nil {
                do { connection = try InspectorConnection(socket: socket) } catch {
                    guard monotonicSeconds() < deadline else { throw error }
                    usleep(10_000)
                }
            }
            return try connection!.wait(for: condition, timeout: timeout, deadline: deadline)
        }
        let connection = try InspectorConnection(socket: socket)
        if let at, let (x, y) = Self.point(at) {
            try connection.ask { tactile_inspector_v1_explain_point($0, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
        } else if watch {
            try connection.ask { tactile_inspector_v1_watch($0) }
        } else if health {
            guard connection.version >= 3 else {
                throw GlobalConnection.Failure(description: "this compositor's inspector (version \(connection.version)) answers no health question")
            }
            if try connection.health() != ["ok"] { throw ExitCode(1) }
        } else {
            try connection.ask { tactile_inspector_v1_describe_scene($0) }
        }
    }
}

/// A connection to the compositor's tactile_inspector_v1; each question's lines go to
/// standard output as they arrive, or to `collected` while `scene()` asks.
final class InspectorConnection {
    private let connection: GlobalConnection
    fileprivate var done = false
    fileprivate var collected: [String]?
    /// Where recorded lines go (`record`), instead of standard output.
    fileprivate var recorded: ((String) -> Void)?

    var version: UInt32 { wl_proxy_get_version(connection.global) }

    init(socket: String?) throws {
        connection = try GlobalConnection(socket: socket, interface: tactile_tactile_inspector_v1_interface(),
                                          missing: "start it with `tactile serve --inspect`")
    }

    /// Sends a question (`make` creates the report) and prints its lines until it is done;
    /// a watch is never done, and ends with the connection.
    func ask(_ make: (OpaquePointer?) -> OpaquePointer?) throws {
        guard let report = make(connection.global) else { throw GlobalConnection.Failure(description: "out of memory") }
        tactile_inspector_report_v1_add_listener(report, inspectorReportListener, Unmanaged.passUnretained(self).toOpaque())
        done = false
        defer { tactile_inspector_report_v1_destroy(report) }
        while !done {
            guard wl_display_dispatch(connection.display) >= 0 else {
                throw GlobalConnection.Failure(description: "the compositor went away (error \(wl_display_get_error(connection.display)))")
            }
        }
    }

    /// The health answer's lines, printed as they come.
    func health() throws -> [String] {
        var lines: [String] = []
        collected = []
        defer { collected = nil }
        try ask { tactile_inspector_v1_describe_health($0) }
        lines = collected ?? []
        for line in lines { print(line) }
        return lines
    }

    /// The scene as it is now.
    func scene() throws -> SceneListing {
        collected = []
        defer { collected = nil }
        try ask { tactile_inspector_v1_describe_scene($0) }
        return SceneListing(collected ?? [])
    }

    /// Returns once the scene shows `condition`, looking every 10 ms; past `timeout` seconds
    /// (or `deadline`, on the monotonic clock), fails with the scene it saw last. A frame
    /// counts from `since`, or from the wait's start.
    func wait(for condition: WaitCondition, timeout: Double, deadline: Double? = nil, since: SceneListing? = nil) throws {
        let start = try since ?? scene()
        let deadline = deadline ?? monotonicSeconds() + timeout
        var scene = try self.scene()
        while !condition.holds(in: scene, since: start) {
            guard monotonicSeconds() < deadline else {
                throw GlobalConnection.Failure(description: "waited \(timeout) s for `\(condition)`; the scene was:\n" + scene.lines.joined(separator: "\n"))
            }
            usleep(10_000)
            scene = try self.scene()
        }
    }

    /// Sends every line of input the seat takes to `line`, until `seconds` (forever: nil);
    /// `started` runs once the compositor is recording.
    func record(for seconds: Double?, started: () -> Void, _ line: @escaping (String) -> Void) throws {
        guard version >= 2 else {
            throw GlobalConnection.Failure(description: "this compositor's tactile_inspector_v1 is version \(version); recording needs 2 (a newer tactile serve)")
        }
        recorded = line
        guard let report = tactile_inspector_v1_record(connection.global) else { throw GlobalConnection.Failure(description: "out of memory") }
        tactile_inspector_report_v1_add_listener(report, inspectorReportListener, Unmanaged.passUnretained(self).toOpaque())
        guard wl_display_roundtrip(connection.display) >= 0 else {
            throw GlobalConnection.Failure(description: "the compositor went away (error \(wl_display_get_error(connection.display)))")
        }
        started()
        let end = seconds.map { monotonicSeconds() + $0 }
        // SIGINT and SIGTERM end the recording as its duration does: blocked, and looked for
        // between waits of at most 100 ms, they arrive even where the parent left them blocked.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stops, nil)
        func stopped() -> Bool {
            var pending = sigset_t()
            sigpending(&pending)
            return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1
        }
        var poller = pollfd(fd: wl_display_get_fd(connection.display), events: Int16(POLLIN), revents: 0)
        while !stopped() {
            let left = end.map { $0 - monotonicSeconds() }
            if let left, left <= 0 { break }
            wl_display_flush(connection.display)
            let ready = poll(&poller, 1, Int32(min(100, left.map { ($0 * 1000).rounded(.up) } ?? 100)))
            guard ready >= 0 || errno == EINTR else { break }
            guard ready > 0 else { continue }
            guard wl_display_dispatch(connection.display) >= 0 else {
                throw GlobalConnection.Failure(description: "the compositor went away (error \(wl_display_get_error(connection.display)))")
            }
        }
        tactile_inspector_report_v1_destroy(report)
        wl_display_roundtrip(connection.display)
    }
}

/// Seconds on the monotonic clock, for waits and script times.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

nonisolated(unsafe) private let inspectorReportListener: UnsafeMutablePointer<tactile_inspector_report_v1_listener> = {
    let listener = UnsafeMutablePointer<tactile_inspector_report_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: tactile_inspector_report_v1_listener(
        line: { data, _, text in
            guard let text else { return }
            let connection = Unmanaged<InspectorConnection>.fromOpaque(data!).takeUnretainedValue()
            if connection.collected != nil { return connection.collected!.append(String(cString: text)) }
            if let recorded = connection.recorded { return recorded(String(cString: text)) }
            // Unbuffered, so a watch piped into grep shows each line as it happens.
            var line = String(cString: text) + "\n"
            line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
        },
        done: { data, _ in
            Unmanaged<InspectorConnection>.fromOpaque(data!).takeUnretainedValue().done = true
        }
    ))
    return listener
}()
