import Foundation
import Glibc
import Responder
@testable import TactileServer
@testable import TactileTestSupport
@testable import TactileWayland
import Testing

/// A kiosk's day through `tactile serve`, its configuration file and a third-party app: the
/// session starting weston-simple-shm over when nobody comes (the log and the metrics say
/// so), the staff door's default knock and PIN running its command, and `tactile staff-pin`.
@Suite(.serialized) struct KioskDayServeTests {
    let served = try! MetricsTests()

    @Test func anIdleSessionStartsTheAppOverAndTheMetricsCountIt() throws {
        let socket = "day-\(UUID().uuidString.prefix(8))"
        let yaml = """
            metrics:
              listen: 127.0.0.1:0
            session:
              reset-after: 1
              warning: 1
            """
        let (process, log, address) = try served.serve(yaml, socket: socket, command: ["weston-simple-shm"])
        defer { served.stop(process) }
        let first = try #require(log.wait(for: "started weston-simple-shm (pid ", seconds: 10))
        try served.inject("wait mapped app_id=org.freedesktop.weston.simple-shm\ntouch down 1 300 300\ntouch frame\ntouch up 1\ntouch frame\n", socket: socket)
        #expect(log.wait(for: "warning for 1 s before starting over", seconds: 5) != nil, "\(log.text)")
        let again = try #require(log.wait(for: "started weston-simple-shm again (pid ", seconds: 8), "\(log.text)")
        #expect(again != first)
        #expect(log.text.contains("session: starting over after 2 s without input (reset 1)"), "\(log.text)")
        try served.inject("wait mapped app_id=org.freedesktop.weston.simple-shm\n", socket: socket)
        let (_, body) = try HTTPGet.fetch(address, "/metrics")
        #expect(MetricsTests.samples(body)["tactile_session_resets_total"] == 1, "\(body)")
        try MetricsTests.promtool(body)
    }

    @Test func theDefaultKnockAndTheRightPINRunTheDoorsCommand() throws {
        let socket = "door-\(UUID().uuidString.prefix(8))"
        let marker = served.directory + "/opened"
        let hash = try #require(StaffPin.hash("80412"))
        let yaml = """
            metrics:
              listen: 127.0.0.1:0
            staff:
              pin: '\(hash)'
              run: touch \(marker)
            """
        let (process, log, address) = try served.serve(yaml, socket: socket, command: ["weston-simple-shm"])
        defer { served.stop(process) }
        // A finger held 2 s in the top-right corner, then five taps there.
        var script = "wait mapped app_id=org.freedesktop.weston.simple-shm\ntouch down 1 1260 20\ntouch frame\nsleep 2600\ntouch up 1\ntouch frame\n"
        for tap in 2...6 { script += "touch down \(tap) 1255 25\ntouch frame\nsleep 30\ntouch up \(tap)\ntouch frame\nsleep 80\n" }
        let keys = PinPad.keys(in: Rect(x: 0, y: 0, width: 1280, height: 800))
        for (k, digit) in ("80412".map { UInt8(String($0))! }).enumerated() {
            let rect = try #require(keys.first { $0.key == .digit(digit) }?.rect)
            script += "touch down \(10 + k) \(rect.x + 20) \(rect.y + 20)\ntouch frame\ntouch up \(10 + k)\ntouch frame\n"
        }
        let ok = try #require(keys.first { $0.key == .ok }?.rect)
        script += "touch down 20 \(ok.x + 20) \(ok.y + 20)\ntouch frame\ntouch up 20\ntouch frame\n"
        try served.inject(script, socket: socket)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: marker), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: marker), "the door's command ran: \(log.text)")
        #expect(log.text.contains("staff door: opened"), "\(log.text)")
        #expect(!log.text.contains("80412"), "no log line shows the PIN")
        let (_, body) = try HTTPGet.fetch(address, "/metrics")
        #expect(MetricsTests.samples(body)["tactile_staff_pin_attempts_total{result=\"right\"}"] == 1, "\(body)")
        #expect(MetricsTests.samples(body)["tactile_staff_pin_attempts_total{result=\"wrong\"}"] == 0, "\(body)")
    }

    /// SIGUSR1 is the command that starts cleaning: weston-simple-touch hears none of the
    /// drag made meanwhile, and the log says how many touches went nowhere.
    @Test func sigusr1StartsTheCleaningScreenAndItsTouchesReachNoApp() throws {
        let socket = "clean-\(UUID().uuidString.prefix(8))"
        let (process, log, address) = try served.serve("metrics:\n  listen: 127.0.0.1:0\ncleaning:\n  duration: 2\n", socket: socket,
                                                       command: ["env", "WAYLAND_DEBUG=client", "weston-simple-touch"])
        defer { served.stop(process) }
        try served.inject("wait mapped app_id=simple-touch\n", socket: socket)
        kill(process.processIdentifier, SIGUSR1)
        #expect(log.wait(for: "cleaning: every touch goes nowhere for 2 s", seconds: 5) != nil, "\(log.text)")
        var drag = "touch down 1 200 200\ntouch frame\n"
        for step in 1...20 { drag += "touch motion 1 \(200 + 10 * step) 200\ntouch frame\n" }
        try served.inject(drag + "touch up 1\ntouch frame\n", socket: socket)
        #expect(log.wait(for: "cleaning: over (its time ran out); 1 touch went nowhere", seconds: 5) != nil, "\(log.text)")
        #expect(!log.text.contains(".down("), "simple-touch heard no touch: \(log.text.suffix(1500))")
        let (_, body) = try HTTPGet.fetch(address, "/metrics")
        #expect(MetricsTests.samples(body)["tactile_screen_cleanings_total"] == 1, "\(body)")
    }

    @Test func staffPinReadsThePINFromStandardInputAndPrintsAHashThatMatchesIt() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SessionCommandTests.tactile)
        process.arguments = ["staff-pin", "--corner", "bottom-left"]
        let (input, output) = (Pipe(), Pipe())
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        input.fileHandleForWriting.write(Data("97531\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        let hash = try #require(printed.split(separator: "\n").first { $0.contains("pin:") }?.split(separator: "'").dropFirst().first.map(String.init))
        #expect(StaffPin.matches("97531", hash: hash))
        #expect(!StaffPin.matches("97532", hash: hash))
        #expect(!printed.contains("97531"), "the PIN itself is printed nowhere")
        // The lines paste as they are.
        let config = try ConfigurationFile.parse(printed, file: "pasted.yaml")
        #expect(config.staff?.corner == .bottomLeft)
        #expect(config.staff?.opens == .exit)
    }
}
