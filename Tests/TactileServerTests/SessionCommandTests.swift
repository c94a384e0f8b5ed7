import Foundation
@testable import TactileTestSupport
import Testing
import TactileWayland
import WaylandProtocols

/// `tactile serve -- COMMAND` as a kiosk script or the desktop demo runs it: the command
/// starts once Tactile listens, talks to Tactile, and its end is Tactile's.
@Suite(.serialized) struct SessionCommandTests {
    static let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path

    /// Runs `tactile ARGUMENTS` headless (or nested in `parent`) in the tests' runtime
    /// directory; returns the process, running, and its stdout and stderr.
    static func start(_ arguments: [String], parent: TestServer? = nil, environment extra: [String: String] = [:]) throws -> (Process, stdout: Pipe, stderr: Pipe) {
        try #require(FileManager.default.isExecutableFile(atPath: tactile), "\(tactile) was not built")
        _ = TestServer.runtimeDirectory
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tactile)
        process.arguments = arguments
        var environment = ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        if let parent { environment["WAYLAND_DISPLAY"] = parent.socket }
        environment.merge(extra) { $1 }
        process.environment = environment
        let (stdout, stderr) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (stdout, stderr)
        try process.run()
        return (process, stdout, stderr)
    }

    static func finish(_ process: Process, _ stderr: Pipe) -> (status: Int32, log: String) {
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func theCommandReachesTactilesSocketAndTactileExitsWithItsStatus() throws {
        let socket = "session-\(UUID().uuidString.prefix(8))"
        // wayland-info connects to WAYLAND_DISPLAY and lists the globals: Tactile's, ready.
        let (process, stdout, stderr) = try Self.start(["serve", "--socket", socket, "--", "sh", "-c", "echo \"inside: $WAYLAND_DISPLAY\"; wayland-info | grep -c wl_compositor; exit 7"])
        let (status, log) = Self.finish(process, stderr)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 7, "\(log)")
        #expect(output.contains("inside: \(socket)\n1\n"), "\(output)")
        #expect(log.contains("sh exited with status 7: stopping"), "\(log)")
    }

    @Test func aCommandThatEndsWellEndsTactileWithStatusZero() throws {
        let (process, _, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))", "--", "true"])
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0, "\(log)")
    }

    @Test func aCommandThatCannotStartIsAnErrorNamingIt() throws {
        let (process, _, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))", "--", "/nonexistent/kiosk-app"])
        let (status, log) = Self.finish(process, stderr)
        #expect(status != 0)
        #expect(log.contains("could not start /nonexistent/kiosk-app: No such file or directory"), "\(log)")
    }

    /// With `app.restart: on-failure` an app that fails is started again (after 1 s, then 2 s)
    /// instead of ending Tactile, and SIGTERM still ends both.
    @Test func anAppThatFailsIsStartedAgain() throws {
        let directory = NSTemporaryDirectory() + "tactile-restart-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/kiosk.yaml", runs = directory + "/runs"
        try "app:\n  restart: on-failure\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, _, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))", "--config", config, "--",
                                                   "sh", "-c", "echo run >> \(runs); exit 3"])
        let deadline = Date().addingTimeInterval(10)
        var count = 0
        while count < 3, Date() < deadline, process.isRunning {
            usleep(50_000)
            count = ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        #expect(count >= 3, "started three times within 10 s")
        kill(process.processIdentifier, SIGTERM)
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0, "\(log)")
        #expect(log.contains("sh exited with status 3: starting it again in 1000 ms"), "\(log)")
        #expect(log.contains("sh exited with status 3: starting it again in 2000 ms"), "the back-off doubles: \(log)")
    }

    /// An app that exits with 0 ends Tactile, restart or not.
    @Test func anAppThatEndsWellIsNotStartedAgain() throws {
        let config = NSTemporaryDirectory() + "tactile-restart-\(UUID().uuidString.prefix(8)).yaml"
        try "app:\n  restart: on-failure\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let (process, _, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))", "--config", config, "--", "true"])
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0 && log.contains("true exited with status 0: stopping"), "\(log)")
    }

    /// A `Type=notify` unit hears READY once Tactile listens, a watchdog ping at half the
    /// interval systemd asked for, and STOPPING at SIGTERM, on the socket it names.
    @Test func systemdHearsReadyTheWatchdogAndStopping() throws {
        let path = NSTemporaryDirectory() + "tactile-notify-\(UUID().uuidString.prefix(8))"
        let socket = try #require(boundUnixSocket(at: path, type: Int32(SOCK_DGRAM.rawValue)))
        defer { close(socket); unlink(path) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let (process, _, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))"],
                                                  environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"])
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let length = recv(socket, &buffer, buffer.count, 0)
            return length > 0 ? String(decoding: buffer[..<length], as: UTF8.self) : nil
        }
        let ready = receive()
        #expect(ready?.hasPrefix("READY=1\nSTATUS=listening on session-") == true, "\(ready ?? "nothing")")
        let started = Date()
        #expect(receive() == "WATCHDOG=1")
        #expect(receive() == "WATCHDOG=1")
        #expect(Date().timeIntervalSince(started) < 1, "pings every 100 ms")
        kill(process.processIdentifier, SIGTERM)
        var last: String?
        while let message = receive() {
            last = message
            if message == "STOPPING=1" { break }
        }
        #expect(last == "STOPPING=1")
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0, "\(log)")
    }

    /// systemd stopping the kiosk stops its app too, and Tactile still ends normally. `sleep`
    /// has no handler of its own: SIGTERM's default action must end it, which it cannot if it
    /// inherited the server's blocked signals.
    @Test func sigtermEndsTheCommandWithTactile() throws {
        let (process, stdout, stderr) = try Self.start(["serve", "--socket", "session-\(UUID().uuidString.prefix(8))", "--", "sh", "-c", "echo started; exec sleep 1000"])
        // The command's own "started" follows Tactile's WAYLAND_DISPLAY line on the same pipe.
        var output = ""
        while !output.contains("started") { output += String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self) }
        kill(process.processIdentifier, SIGTERM)
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0, "\(log)")
        #expect(!log.contains("did not end within 2 s of SIGTERM"), "\(log)")
    }

    /// The README's first command on a desktop: `tactile demo` opens a window in the parent
    /// with weston-simple-touch inside, and a touch in the window draws where it landed.
    @Test func theDesktopDemoShowsItsClientsInAWindowAndTheyAnswerTouch() throws {
        let parent = try TestServer(ServerConfiguration(kioskMode: true))
        let (process, _, stderr) = try Self.start(["demo"], parent: parent)
        defer { if process.isRunning { process.terminate() } }
        // weston-simple-touch (the first toplevel, at the window's origin) fills its 600x500
        // with a quarter-alpha grey: 0x58 over Tactile's background. First frames take a while.
        var shot = try Screenshot(socket: parent.socket)
        for _ in 0..<100 where shot.colour(at: 10, 10) != 0x58_5858 {
            usleep(100_000)
            shot = try Screenshot(socket: parent.socket)
        }
        try #require(shot.colour(at: 10, 10) == 0x58_5858, "no weston-simple-touch in the window: \(String(shot.colour(at: 10, 10), radix: 16))")
        // Below weston-clickdot, simple-touch shows at the bottom left of its area.
        let client = try TestClient(socket: parent.socket)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 0, f(20), f(480))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 0)
            tactile_test_input_v1_touch_frame(input)
        }
        for _ in 0..<100 where shot.colour(at: 20, 480) != 0xff_0000 {
            usleep(100_000)
            shot = try Screenshot(socket: parent.socket)
        }
        #expect(shot.colour(at: 20, 480) == 0xff_0000, "simple-touch's red cross where the finger went down")
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        try Screenshot.savePNG(socket: parent.socket, at: "\(products)/screenshots/demo.png")
        // Closing the window ends the demo normally.
        for _ in 0..<50 where process.isRunning {
            parent.onServerThread { server, _ in server.port.closeFocusedWindow() }
            usleep(100_000)
        }
        let (status, log) = Self.finish(process, stderr)
        #expect(status == 0, "\(log)")
        #expect(log.contains("started /bin/sh -c weston-simple-touch & weston-clickdot & wait"), "\(log)")
    }
}
