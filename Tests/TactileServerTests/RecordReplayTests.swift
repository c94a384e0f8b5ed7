import Foundation
@testable import TactileTestSupport
import Testing

/// Testing a touch app the way its developer would: `tactile serve` with the app inside,
/// `inspect --wait` instead of sleeps, a stroke recorded with `tactile record` and replayed
/// with `tactile inject`, all through the CLI, against weston-simple-touch (which nobody
/// here wrote), whose wl_touch events WAYLAND_DEBUG shows.
@Suite(.serialized) struct RecordReplayTests {
    static let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path

    /// A `tactile serve --test-input` process with its log in a file (a pipe could fill
    /// with the app's WAYLAND_DEBUG lines and stop it).
    final class Session {
        let socket = "record-\(UUID().uuidString.prefix(8))"
        let process = Process()
        let logPath = NSTemporaryDirectory() + "tactile-\(UUID().uuidString).log"

        init(_ options: [String], app: [String]) throws {
            try #require(FileManager.default.isExecutableFile(atPath: RecordReplayTests.tactile), "\(RecordReplayTests.tactile) was not built")
            FileManager.default.createFile(atPath: logPath, contents: nil)
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
            process.executableURL = URL(fileURLWithPath: RecordReplayTests.tactile)
            process.arguments = ["serve", "--backend", "headless", "--test-input", "--socket", socket] + options + ["--"] + app
            process.environment = ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
            (process.standardOutput, process.standardError) = (log, log)
            try process.run()
        }

        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        /// Runs `tactile ARGUMENTS --socket S` to its end.
        func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
            var arguments = arguments
            arguments.insert(contentsOf: ["--socket", socket], at: 1)
            guard let input else { return try runProcess(RecordReplayTests.tactile, arguments, environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory]) }
            let script = NSTemporaryDirectory() + "script-\(UUID().uuidString).txt"
            try input.write(toFile: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: script) }
            return try runProcess(RecordReplayTests.tactile, arguments + [script], environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        }

        /// `tactile record ARGUMENTS -o output`, returned once it records (its first line
        /// is written then).
        func record(_ arguments: [String], to output: String) throws -> Process {
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: RecordReplayTests.tactile)
            recorder.arguments = ["record", "--socket", socket, "-o", output] + arguments
            recorder.environment = ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory]
            try recorder.run()
            for _ in 0..<200 where ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").isEmpty { usleep(10_000) }
            return recorder
        }

        /// `inspect --wait`, which must hold.
        func wait(_ condition: String) throws {
            let (status, output) = try run(["inspect", "--wait", condition, "--timeout", "20"])
            try #require(status == 0, "\(output)\nlog:\n\(log)")
        }

        /// The app's wl_touch events, from its WAYLAND_DEBUG lines: down, motion, up with
        /// their times (ms) and positions.
        var touches: [(kind: String, time: UInt32, x: Double?, y: Double?)] {
            log.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: "wl_touch@"), let open = line.range(of: "(", range: start.upperBound..<line.endIndex) else { return nil }
                let kind = line[start.upperBound..<open.lowerBound].split(separator: ".").last.map(String.init) ?? ""
                let args = line[open.upperBound...].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                switch kind {
                case "down" where args.count == 6: return ("down", UInt32(args[1]) ?? 0, Double(args[4]), Double(args[5]))
                case "motion" where args.count == 4: return ("motion", UInt32(args[0]) ?? 0, Double(args[2]), Double(args[3]))
                case "up" where args.count == 3: return ("up", UInt32(args[1]) ?? 0, nil, nil)
                default: return nil
                }
            }
        }

        deinit {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: logPath)
        }
    }

    /// A stroke with uneven spacing, as a finger makes it: times in µs, window pixels.
    static let stroke: [(time: UInt64, line: String)] = [
        (0, "touch down 4 120 90"), (0, "touch frame"),
        (7_000, "touch motion 4 131.5 94"), (7_000, "touch frame"),
        (23_000, "touch motion 4 160 101.25"), (23_000, "touch frame"),
        (31_000, "touch motion 4 201 110"), (31_000, "touch frame"),
        (58_000, "touch motion 4 240 130"), (58_000, "touch frame"),
        (64_000, "touch up 4"), (64_000, "touch frame"),
    ]

    /// Records a stroke injected into weston-simple-touch with its window at 0,0, then
    /// replays the recording into another session where the window is elsewhere: the app
    /// sees the same window positions, spaced as recorded (±1 ms), however late the lines go.
    @Test(arguments: [false, true]) func aRecordedStrokeReplaysWithTheSamePositionsAndSpacing(kiosk: Bool) throws {
        let recording = NSTemporaryDirectory() + "stroke-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: recording) }
        do {
            let source = try Session(kiosk ? ["--kiosk"] : [], app: ["weston-simple-touch"])
            try source.wait("mapped app_id=simple-touch")
            let recorder = try source.record(["--window", "simple-touch"], to: recording)
            let injected = Self.stroke.map { "@\($0.time) \($0.line)" }.joined(separator: "\n")
            let (status, output) = try source.run(["inject", "--window", "simple-touch"], input: injected)
            #expect(status == 0, "\(output)")
            try source.wait("idle")
            recorder.terminate()
            recorder.waitUntilExit()
        }
        let recorded = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded.first == "# window simple-touch 600x500", "\(recorded)")
        #expect(Array(recorded.dropFirst()) == Self.stroke.map { "@\($0.time) \($0.line)" }, "the recording is the stroke: \(recorded)")

        // Replayed where the window is not at 0,0: below another app's in the desktop, alone
        // and full screen in the kiosk.
        let app = "env WAYLAND_DEBUG=client weston-simple-touch"
        let replay = try Session(kiosk ? ["--kiosk"] : [], app: ["sh", "-c", kiosk ? "exec \(app)" : "weston-simple-shm & sleep 1; exec \(app)"])
        try replay.wait("mapped app_id=simple-touch")
        let scene = try replay.run(["inspect"]).output
        if !kiosk { #expect(scene.contains("app_id=simple-touch title=\"simple-touch\"") && scene.contains("window=32,32,600x500"), "cascaded: \(scene)") }
        let (status, output) = try replay.run(["inject", "--window", "simple-touch", recording])
        #expect(status == 0, "\(output)")
        try replay.wait("idle")
        let seen = replay.touches
        let expected = Self.stroke.filter { !$0.line.hasSuffix("frame") }
        try #require(seen.count == expected.count, "\(seen)\n\(replay.log)")
        for (event, (time, line)) in zip(seen, expected) {
            let words = line.split(separator: " ")
            #expect(event.kind == String(words[1]))
            if words.count == 5 {
                #expect(event.x == Double(words[3]) && event.y == Double(words[4]), "\(event) for \(line)")
            }
            let spacing = Int64(event.time) - Int64(seen[0].time)
            #expect(abs(spacing - Int64(time / 1000)) <= 1, "\(line): \(spacing) ms after the down, recorded \(time / 1000)")
        }
    }

    /// `--speed 2` plays the stroke in half the time, and the app's times say so; a script
    /// recorded in a window of another size is scaled onto this one, or refused.
    @Test func replaysFollowTheSpeedAndTheWindowsSize() throws {
        let session = try Session([], app: ["env", "WAYLAND_DEBUG=client", "weston-simple-touch"])
        try session.wait("mapped app_id=simple-touch")
        let script = "# window simple-touch 300x250\n" + Self.stroke.map { "@\($0.time) \($0.line)" }.joined(separator: "\n")
        let (status, output) = try session.run(["inject", "--window", "simple-touch", "--speed", "2"], input: script)
        #expect(status == 0, "\(output)")
        try session.wait("idle")
        let seen = session.touches
        try #require(seen.count == 6, "\(seen)")
        #expect(seen[0].x == 240 && seen[0].y == 180, "recorded at half the size: twice the positions")
        #expect(abs(Int64(seen[5].time) - Int64(seen[0].time) - 32) <= 1, "64 ms at twice the speed: \(seen)")

        let refused = try session.run(["inject", "--window", "simple-touch", "--refuse-resized"], input: script)
        #expect(refused.status != 0)
        #expect(refused.output.contains("the window is 600x500, the script was recorded at 300x250"), "\(refused.output)")
        #expect(session.touches.count == 6, "nothing of a refused script is sent")
    }

    /// Every kind of line `tactile inject` knows comes back from `tactile record` as it went
    /// in, so any recording replays.
    @Test func everyKindOfInputIsRecordedAsTheLineThatMadeIt() throws {
        let session = try Session([], app: ["weston-simple-touch"])
        try session.wait("mapped app_id=simple-touch")
        let lines = [
            "pointer motion 10.5 20", "pointer button left pressed", "pointer button 275 released", "pointer scroll 0 15",
            "key 30 pressed", "key 30 released", "touch down 0 5 6", "touch frame", "touch cancel 0",
            "touchpad swipe 3", "touchpad update 4 -2 1 0", "touchpad end", "touchpad pinch 2", "touchpad update 0 0 1.5 10", "touchpad end cancelled",
            "pen in 7 40 50", "pen tip 7 down", "pen motion 7 41 52 0.5 10 -5", "pen motion 7 42 53 0.5 10 -5 3 90 0.25 15 1",
            "pen button 7 331 pressed", "pen tip 7 up", "pen out 7",
            "pad button 2 1 pressed", "pad ring 2 0 45", "pad ring 2 0 stop", "pad strip 2 0 0.75",
        ]
        let output = NSTemporaryDirectory() + "all-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let recorder = try session.record(["--duration", "30"], to: output)
        let (status, log) = try session.run(["inject"], input: (["pen tool 7 pen tilt pressure distance rotation slider wheel"] + lines).joined(separator: "\n"))
        #expect(status == 0, "\(log)")
        try session.wait("idle")
        recorder.terminate()
        recorder.waitUntilExit()
        let file = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(file.first == "# positions in global pixels; @T in microseconds since the first event")
        let recorded = file.dropFirst().map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(recorded == lines, "\(recorded)")
    }

    /// `inspect --wait` returns when the app's window shows, not after a guessed sleep; an
    /// app that never shows fails the wait with the scene it saw; a frame is waited for
    /// until the app draws one (weston-simple-touch draws only when touched).
    @Test func waitsReturnWhenTheSceneShowsItOrFailWithWhatTheySaw() throws {
        let session = try Session([], app: ["sh", "-c", "sleep 1; exec weston-simple-touch"])
        try session.wait("mapped app_id=simple-touch")
        try session.wait("focused app_id=simple-touch")
        try session.wait("titled app_id=simple-touch simple")
        try session.wait("idle")

        let missing = try session.run(["inspect", "--wait", "mapped app_id=org.example.Nobody", "--timeout", "0.3"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("waited 0.3 s for `mapped app_id=org.example.Nobody`; the scene was:"), "\(missing.output)")
        #expect(missing.output.contains("app_id=simple-touch"), "the scene it saw: \(missing.output)")

        let untouched = try session.run(["inspect", "--wait", "frame app_id=simple-touch", "--timeout", "0.5"])
        #expect(untouched.status != 0, "no frame without a touch: \(untouched.output)")
        // A script that waits: a tap, then its frame, then a second tap.
        let (status, output) = try session.run(["inject"], input: """
            touch down 1 50 50
            touch frame
            touch up 1
            touch frame
            wait frame app_id=simple-touch
            touch down 1 60 60
            touch frame
            """)
        #expect(status == 0, "\(output)")
        let bad = try session.run(["inspect", "--wait", "mapped simple-touch"])
        #expect(bad.status != 0 && bad.output.contains("expected mapped app_id=ID"), "\(bad.output)")
    }

    /// A word that names no command fails and lists the commands (it used to print the
    /// root's help and succeed); a script's mistakes are named by line.
    @Test func mistakesAreErrorsThatSayWhat() throws {
        let typo = try runProcess(Self.tactile, ["recrod", "--help"])
        #expect(typo.status != 0)
        #expect(typo.output.contains("'recrod' is not a command; the commands are: demo, serve, inject, inspect, record"), "\(typo.output)")
        let help = try runProcess(Self.tactile, ["record", "--help"])
        #expect(help.status == 0 && help.output.contains("--window"), "\(help.output)")

        for (script, problem) in [("@x touch frame", "line 1: @T needs T"), ("@20 touch frame\n@10 touch frame", "line 2: @10 comes before the line above it (@20)"),
                                  ("wait maybe", "line 1: expected wait mapped app_id=ID"),
                                  ("@0 touch frame\n@1000 touch frame", "line 2: at --speed 1e-300 it comes more than 2^40 µs (12 days) after the script began")] {
            let file = NSTemporaryDirectory() + "bad-\(UUID().uuidString).txt"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let result = try runProcess(Self.tactile, ["inject", "--socket", "none-\(UUID().uuidString.prefix(6))", "--speed", "1e-300", file])
            #expect(result.status != 0)
            #expect(result.output.contains(problem), "\(result.output)")
        }
    }
}
