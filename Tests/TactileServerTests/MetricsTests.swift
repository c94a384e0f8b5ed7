import Foundation
import Glibc
import Responder
@testable import TactileServer
@testable import TactileTestSupport
@testable import TactileWayland
import Testing

/// `metrics` in the configuration file, as a fleet uses it: Prometheus' text format at
/// `metrics.listen` (checked by promtool), counters that move with what happens on the glass,
/// a health answer that sees a hung app, a textfile for node_exporter, and scrapers that
/// misbehave without the compositor noticing.
@Suite(.serialized) struct MetricsTests {
    let directory = NSTemporaryDirectory() + "tactile-metrics-\(UUID().uuidString.prefix(8))"

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// `tactile serve` with `yaml` as its configuration, once its metrics listen: the
    /// process, its stderr, and the address the log names.
    func serve(_ yaml: String, socket: String, command: [String] = []) throws -> (Process, stderr: LogPipe, address: String) {
        let config = directory + "/kiosk.yaml"
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        let (process, _, stderr) = try SessionCommandTests.start(["serve", "--test-input", "--socket", socket, "--config", config] + (command.isEmpty ? [] : ["--"] + command))
        let log = LogPipe(stderr)
        let line = try #require(log.wait(for: "metrics: serving http://", seconds: 10), "no metrics line: \(log.text)")
        let address = try #require(line.split(separator: "http://").last?.split(separator: "/").first.map(String.init))
        return (process, log, address)
    }

    /// A kiosk with weston-simple-touch's window under a three-finger swipe down, and a mark
    /// under each finger.
    static let swipeKiosk = """
        metrics:
          listen: 127.0.0.1:0
        touch:
          feedback: ripple
        gestures:
          - name: close-app
            kind: swipe
            fingers: 3
            direction: down
            distance: 150
        """

    /// Three fingers down on the app, 200 px down, and up: the swipe wins and cancels them.
    static let swipe: String = {
        var script = "touch down 1 200 200\ntouch down 2 250 200\ntouch down 3 300 200\ntouch frame\n"
        for step in 1...10 {
            script += (1...3).map { "touch motion \($0) \(150 + 50 * $0) \(200 + 20 * step)\n" }.joined() + "touch frame\nsleep 16\n"
        }
        return script + "touch up 1\ntouch up 2\ntouch up 3\ntouch frame\n"
    }()

    func stop(_ process: Process) {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    @Test func aScrapeCountsTapsAndASwipeThatTookTheAppsTouches() throws {
        let socket = "metrics-\(UUID().uuidString.prefix(8))"
        let (process, log, address) = try serve(Self.swipeKiosk, socket: socket, command: ["weston-simple-touch"])
        defer { stop(process) }
        try inject("wait mapped app_id=simple-touch\ntouch down 1 100 100\ntouch frame\ntouch up 1\ntouch frame\n" + Self.swipe, socket: socket)
        let (status, body) = try HTTPGet.fetch(address, "/metrics")
        #expect(status == 200)
        let values = Self.samples(body)
        #expect(values["tactile_touch_downs_total"] == 4, "one tap and three fingers: \(body)")
        #expect(values["tactile_gestures_recognized_total{gesture=\"close-app\"}"] == 1, "\(body)")
        #expect(values["tactile_touches_cancelled_total"] == 1, "simple-touch had the three fingers until the swipe won: \(body)")
        #expect((values["tactile_frames_presented_total{output=\"HEADLESS-1\"}"] ?? 0) > 0, "\(body)")
        #expect(values["tactile_clients"] == 1, "simple-touch (inject has left): \(body)")
        #expect(values["tactile_client_unresponsive"] == 0)
        #expect((values["process_resident_memory_bytes"] ?? 0) > 1_000_000)
        // simple-touch draws a dot for each touch it hears, and the ripple marks each finger.
        for kind in ["app", "feedback"] {
            let count = values["tactile_touch_to_present_seconds_count{shown=\"\(kind)\"}"] ?? 0
            #expect(count >= 1, "touches shown by the \(kind): \(body)")
            #expect(values["tactile_touch_to_present_seconds_bucket{shown=\"\(kind)\",le=\"+Inf\"}"] == count)
            #expect((values["tactile_touch_to_present_seconds_sum{shown=\"\(kind)\"}"] ?? 0) > 0, "a frame is shown after its touch")
        }
        let shown = try #require(values["tactile_last_present_timestamp_seconds{output=\"HEADLESS-1\"}"])
        #expect(abs(shown - Date().timeIntervalSince1970) < 60, "Unix time of the last frame: \(shown)")
        try Self.promtool(body)
        _ = log
    }

    @Test func healthIsUnavailableWhileTheAppIsStoppedAndOkOnceItAnswers() throws {
        let socket = "health-\(UUID().uuidString.prefix(8))"
        let (process, log, address) = try serve("metrics:\n  listen: 127.0.0.1:0\n", socket: socket, command: ["weston-simple-shm"])
        defer { stop(process) }
        let started = try #require(log.wait(for: "started weston-simple-shm (pid ", seconds: 10))
        let pid = try #require(started.split(separator: "(pid ").last.flatMap { Int32($0.prefix { $0.isNumber }) })
        // Stopped before it had a toplevel, it would never be pinged: wait for its window.
        try inject("wait mapped app_id=org.freedesktop.weston.simple-shm\n", socket: socket)
        #expect(try waitForStatus(200, address, seconds: 5).status == 200)
        kill(pid, SIGSTOP)
        // Pings go every 3 s and the app has 10 s to answer: 503 comes within 13 s, and
        // the rest is room for a loaded machine (a sanitizer pass beside other suites).
        let stopped = try waitForStatus(503, address, seconds: 30)
        let inspected = try inspectHealth(socket)
        kill(pid, SIGCONT)
        #expect(inspected.status == 1 && inspected.output.contains("client pid=\(pid) app_id=org.freedesktop.weston.simple-shm: no answer to xdg_wm_base.ping"),
                "tactile inspect --health says the same: \(inspected)")
        #expect(stopped.status == 503, "503 within 30 s of SIGSTOP")
        #expect(stopped.body.contains("client pid=\(pid) app_id=org.freedesktop.weston.simple-shm: no answer to xdg_wm_base.ping for"), "\(stopped.body)")
        #expect(try waitForStatus(200, address, seconds: 10).body == "ok\n", "ok once it answers")
        #expect(log.wait(for: "health: ok again", seconds: 2) != nil, "\(log.text)")
        #expect(try inspectHealth(socket) == (0, "ok\n"))
    }

    /// Slow and oversized requests, garbage, other methods and a flood of connections: each
    /// gets its answer or is closed, the log says so, and a client's round trip is unaffected.
    @Test func hostileScrapersStallNothing() throws {
        let socket = "hostile-\(UUID().uuidString.prefix(8))"
        let (process, log, address) = try serve("metrics:\n  listen: 127.0.0.1:0\n", socket: socket)
        defer { stop(process) }
        let client = try TestClient(socket: socket)
        #expect(try HTTPGet.exchange(address, "GARBAGE\r\n\r\n").hasPrefix("HTTP/1.1 400"))
        #expect(try HTTPGet.exchange(address, "POST /metrics HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 405"))
        // Its answer (431) may be lost to the reset of a close with the rest unread; the log tells.
        _ = try HTTPGet.exchange(address, "GET /" + String(repeating: "a", count: 1 << 20) + " HTTP/1.1\r\n\r\n")
        // Slowloris: connections that send half a request, then nothing; and a flood behind.
        var idle = try (0..<20).map { _ in try HTTPGet.connect(address) }
        for fd in idle { _ = "GET /metr".withCString { send(fd, $0, 9, Int32(MSG_NOSIGNAL)) } }
        for _ in 0..<50 { idle.append(try HTTPGet.connect(address)) }
        let before = Date()
        for _ in 0..<20 { try client.roundtrip() }
        #expect(Date().timeIntervalSince(before) < 2, "20 round trips while 70 scrapers hang")
        #expect(try HTTPGet.fetch(address, "/metrics").status == 200, "a scraper with a whole request takes a hanging one's place")
        #expect(log.wait(for: "closed the oldest of 16 connections, from 127.0.0.1", seconds: 2) != nil, "\(log.text)")
        #expect(log.text.components(separatedBy: "closed the oldest of").count - 1 == 1, "55 closed, one line: \(log.text)")
        #expect(log.wait(for: "took more than 5 s: closed", seconds: 8) != nil, "\(log.text)")
        for fd in idle { close(fd) }
        #expect(try waitForStatus(200, address, seconds: 8).status == 200, "scrapes answered once the hanging ones are gone")
        #expect(log.text.contains("a malformed request from 127.0.0.1"))
        #expect(log.text.contains("was longer than 8192 bytes: closed"))
    }

    @Test func theTextfileIsReplacedWholeEveryFewSeconds() throws {
        let path = directory + "/tactile.prom"
        let (process, _, _) = try serve("metrics:\n  listen: 127.0.0.1:0\n  textfile: \(path)\n", socket: "textfile-\(UUID().uuidString.prefix(8))")
        defer { stop(process) }
        let first = try #require(waitForFile(path, seconds: 3))
        #expect(first.contains("# TYPE tactile_frames_presented_total counter"))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        Thread.sleep(forTimeInterval: 5.5)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int != inode, "written anew and renamed over")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        try Self.promtool(try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func aTakenPortIsLoggedAndTheKioskRunsOn() throws {
        let (first, _, address) = try serve("metrics:\n  listen: 127.0.0.1:0\n", socket: "taken-\(UUID().uuidString.prefix(8))")
        defer { stop(first) }
        let config = directory + "/second.yaml"
        try "metrics:\n  listen: \(address)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (second, stdout, stderr) = try SessionCommandTests.start(["serve", "--socket", "taken2-\(UUID().uuidString.prefix(8))", "--config", config])
        let log = LogPipe(stderr)
        #expect(log.wait(for: "metrics.listen \(address): Address already in use: no metrics served", seconds: 10) != nil, "\(log.text)")
        #expect(second.isRunning)
        stop(second)
        _ = stdout
    }

    /// Debian's Prometheus scrapes a kiosk every second; its query API sees the counters move
    /// with taps and with a swipe that wins over the app.
    @Test func aRealPrometheusSeesTheCountersMove() throws {
        let socket = "prometheus-\(UUID().uuidString.prefix(8))"
        let (process, _, address) = try serve(Self.swipeKiosk, socket: socket, command: ["weston-simple-touch"])
        defer { stop(process) }
        let prometheus = try Self.external("prometheus", package: "prometheus")
        let port = try freeTCPPort()
        try """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: kiosk
                static_configs:
                  - targets: ['\(address)']
            """.write(toFile: directory + "/prometheus.yml", atomically: true, encoding: .utf8)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: prometheus)
        server.arguments = ["--config.file=\(directory)/prometheus.yml", "--storage.tsdb.path=\(directory)/tsdb",
                            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let api = "127.0.0.1:\(port)"
        #expect(try Self.query(api, "tactile_touch_downs_total", until: { $0 == 0 }) == 0, "the first scrape")
        try inject("wait mapped app_id=simple-touch\n" + (0..<3).map { _ in "touch down 1 100 100\ntouch frame\ntouch up 1\ntouch frame\n" }.joined(), socket: socket)
        #expect(try Self.query(api, "tactile_touch_downs_total", until: { $0 == 3 }) == 3, "three taps")
        try inject(Self.swipe, socket: socket)
        #expect(try Self.query(api, "tactile_gestures_recognized_total{gesture=\"close-app\"}", until: { $0 == 1 }) == 1)
        #expect(try Self.query(api, "tactile_touches_cancelled_total", until: { $0 == 1 }) == 1)
        #expect(try Self.query(api, "up{job=\"kiosk\"}", until: { $0 == 1 }) == 1, "every scrape succeeded")
    }

    /// node_exporter's textfile collector reads the file as it is written, and finds no error.
    @Test func nodeExportersTextfileCollectorReadsTheFile() throws {
        let textfiles = directory + "/textfile"
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        let (process, _, _) = try serve("metrics:\n  listen: 127.0.0.1:0\n  textfile: \(textfiles)/tactile.prom\n", socket: "node-\(UUID().uuidString.prefix(8))")
        defer { stop(process) }
        let exporter = try Self.external("prometheus-node-exporter", package: "prometheus-node-exporter")
        let port = try freeTCPPort()
        let node = Process()
        node.executableURL = URL(fileURLWithPath: exporter)
        node.arguments = ["--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=\(textfiles)",
                          "--web.listen-address=127.0.0.1:\(port)"]
        node.standardOutput = FileHandle.nullDevice
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer { node.terminate(); node.waitUntilExit() }
        var body = ""
        let deadline = Date().addingTimeInterval(10)
        while !body.contains("tactile_frames_presented_total"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            body = (try? HTTPGet.fetch("127.0.0.1:\(port)", "/metrics").body) ?? ""
        }
        let values = Self.samples(body)
        #expect(values["tactile_frames_presented_total{output=\"HEADLESS-1\"}"] != nil, "\(body.prefix(2000))")
        #expect(values["node_textfile_scrape_error"] == 0, "\(body.prefix(2000))")
    }

    // MARK: helpers

    /// An executable of a Debian package the tests need; a clear failure where it is missing.
    static func external(_ name: String, package: String) throws -> String {
        let path = "/usr/bin/" + name
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not installed (Debian's \(package) package; scripts/setup installs it)")
        return path
    }

    /// A Prometheus instant query's value, asked again until `done` says it is the one wanted
    /// (scrapes come every second) or 15 s passed; nil while there is no sample.
    static func query(_ api: String, _ expression: String, until done: (Double) -> Bool) throws -> Double? {
        let escaped = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
        let deadline = Date().addingTimeInterval(15)
        var value: Double?
        repeat {
            if let reply = try? HTTPGet.fetch(api, "/api/v1/query?query=\(escaped)"), reply.status == 200,
               let json = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any],
               let result = (json["data"] as? [String: Any])?["result"] as? [[String: Any]],
               let sample = result.first?["value"] as? [Any], sample.count == 2, let text = sample[1] as? String {
                value = Double(text)
                if let value, done(value) { return value }
            }
            Thread.sleep(forTimeInterval: 0.5)
        } while Date() < deadline
        return value
    }

    /// `tactile inject`, in the tests' environment (a sanitizer's options reach it too).
    func inject(_ script: String, socket: String) throws {
        let path = directory + "/script.txt"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runProcess(SessionCommandTests.tactile, ["inject", "--socket", socket, path],
                                    environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        try #require(result.status == 0, "inject: \(result.output)")
    }

    /// `tactile inspect --health`, in the tests' environment: its exit status and output.
    func inspectHealth(_ socket: String) throws -> (status: Int32, output: String) {
        try runProcess(SessionCommandTests.tactile, ["inspect", "--socket", socket, "--health"], environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
    }

    func waitForStatus(_ wanted: Int, _ address: String, seconds: Double) throws -> (status: Int, body: String) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try HTTPGet.fetch(address, "/healthz")
        while last.status != wanted, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            last = try HTTPGet.fetch(address, "/healthz")
        }
        return last
    }

    func waitForFile(_ path: String, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty { return text }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// Each sample line's value, by its name and labels.
    static func samples(_ exposition: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }

    /// `promtool check metrics`, Prometheus' own linter, must pass the exposition.
    static func promtool(_ exposition: String) throws {
        let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(promtool, "promtool is not installed (Debian's prometheus package; scripts/setup installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let (input, output) = (Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, output)
        try process.run()
        input.fileHandleForWriting.write(Data(exposition.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && said.isEmpty, "promtool check metrics: \(said)")
    }
}

/// A process's stderr, read on a thread of its own as it comes, so a test can wait for a line.
final class LogPipe: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                lock.lock()
                buffer += String(decoding: data, as: UTF8.self)
                lock.unlock()
            }
        }
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }

    /// The first line containing `fragment`, once it came.
    func wait(for fragment: String, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let line = text.split(separator: "\n").first(where: { $0.contains(fragment) }) { return String(line) }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }
}

/// HTTP/1.1 over a plain socket, as a scraper (or a hostile one) speaks it.
enum HTTPGet {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func connect(_ address: String) throws -> Int32 {
        let parts = address.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { throw Failure(description: "address \(address)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        inet_pton(AF_INET, String(parts[0]), &sin.sin_addr)
        let connected = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect \(address): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends `request` whole and reads the reply to its end (the server closes).
    static func exchange(_ address: String, _ request: String) throws -> String {
        let fd = try connect(address)
        defer { close(fd) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before all of an oversized request is sent.
            if count <= 0 { break }
            sent += count
        }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            reply += chunk[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    static func fetch(_ address: String, _ path: String) throws -> (status: Int, body: String) {
        let reply = try exchange(address, "GET \(path) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n\r\n")
        guard let blank = reply.range(of: "\r\n\r\n"), let status = Int(reply.dropFirst(9).prefix(3)) else {
            throw Failure(description: "no HTTP reply: \(reply.prefix(200))")
        }
        return (status, String(reply[blank.upperBound...]))
    }
}

@Suite struct LogThrottleTests {
    @Test func oneLineOfAKindPerIntervalThenTheCountLeftOut() {
        var throttle = LogThrottle()
        let start = Instant(microseconds: 1_000_000)
        #expect(throttle.admit("malformed", now: start) == 0, "the first at once")
        #expect(throttle.admit("malformed", now: start) == nil, "another in the same microsecond (an accept loop) is held back")
        #expect(throttle.admit("malformed", now: start.advanced(by: .seconds(1))) == nil)
        #expect(throttle.admit("malformed", now: start.advanced(by: .seconds(9))) == nil)
        #expect(throttle.admit("timeout", now: start.advanced(by: .seconds(9))) == 0, "another kind is not held back")
        #expect(throttle.admit("malformed", now: start.advanced(by: .seconds(10))) == 3, "then one saying three were left out")
        #expect(throttle.admit("malformed", now: start.advanced(by: .seconds(11))) == nil)
    }
}

@Suite struct MetricsExpositionTests {
    /// An output unplugged and plugged in again under its name counts its frames from 0: the
    /// series starts again from the new count (a reset, to Prometheus), not stuck at the old.
    @Test func aCountThatWentBackStartsTheSeriesAgain() {
        let exposition = MetricsExposition()
        func frames(_ count: Int) -> String {
            var statistics = ServerStatistics()
            statistics.outputs = [.init(name: "HDMI-A-1", framesPresented: count, lastPresented: nil, asleep: false)]
            let text = String(decoding: exposition.text(statistics, appRestarts: 0), as: UTF8.self)
            return text.split(separator: "\n").first { $0.hasPrefix("tactile_frames_presented_total{") }.map(String.init) ?? text
        }
        #expect(frames(120) == "tactile_frames_presented_total{output=\"HDMI-A-1\"} 120")
        #expect(frames(180) == "tactile_frames_presented_total{output=\"HDMI-A-1\"} 180")
        #expect(frames(7) == "tactile_frames_presented_total{output=\"HDMI-A-1\"} 7", "plugged in again")
        #expect(frames(9) == "tactile_frames_presented_total{output=\"HDMI-A-1\"} 9")
    }
}
