import Foundation
import Testing

/// `tactile serve` as a process, as systemd or a script runs it.
@Suite struct ServeCommandTests {
    /// systemd stops a kiosk with SIGTERM: the server disconnects its clients and exits
    /// normally (which also lets LeakSanitizer check a sanitizer build at exit).
    @Test func sigtermStopsTheServerWithStatusZero() throws {
        let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path
        try #require(FileManager.default.isExecutableFile(atPath: tactile), "\(tactile) was not built")
        let runtime = NSTemporaryDirectory() + "tactile-serve-\(getpid())"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tactile)
        process.arguments = ["serve", "--test-input", "--socket", "sigterm-test"]
        process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        let (stdout, stderr) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (stdout, stderr)
        try process.run()
        let firstLine = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        #expect(firstLine.hasPrefix("WAYLAND_DISPLAY=sigterm-test"), "the server is listening")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(log)")
        #expect(log.contains("SIGTERM: disconnecting every client and stopping"))
    }
}
