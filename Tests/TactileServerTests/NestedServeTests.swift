import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing

/// `tactile serve` started from inside a compositor (a `TestServer` in kiosk mode, named by
/// WAYLAND_DISPLAY): it nests without being told, and its parent decides when it ends.
@Suite(.serialized) struct NestedServeTests {
    /// `tactile serve` with WAYLAND_DISPLAY naming `parent`, running once it printed its socket.
    final class Nested {
        let process = Process()
        private let stderr = Pipe()

        init(in parent: TestServer) throws {
            let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path
            try #require(FileManager.default.isExecutableFile(atPath: tactile), "\(tactile) was not built")
            process.executableURL = URL(fileURLWithPath: tactile)
            process.arguments = ["serve", "--socket", "tactile-nested-\(UUID().uuidString.prefix(8))"]
            process.environment = [
                "XDG_RUNTIME_DIR": TestServer.runtimeDirectory, "WAYLAND_DISPLAY": parent.socket,
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
            ]
            let stdout = Pipe()
            (process.standardOutput, process.standardError) = (stdout, stderr)
            try process.run()
            let firstLine = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
            #expect(firstLine.hasPrefix("WAYLAND_DISPLAY=tactile-nested-"), "the nested server is listening")
        }

        /// Its status and log, once it ended.
        func finish() -> (status: Int32, log: String) {
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test func withoutBackendItNestsAndTheParentClosingItsWindowEndsItWithStatusZero() throws {
        let parent = try TestServer(ServerConfiguration(kioskMode: true))
        let nested = try Nested(in: parent)
        // Its window is the parent's only one, so it has the parent's keyboard focus once the
        // parent has mapped it (which the nested server does not wait for): asked until it ends.
        for _ in 0..<50 where nested.process.isRunning {
            parent.onServerThread { server, _ in server.port.closeFocusedWindow() }
            usleep(100_000)
        }
        let (status, log) = nested.finish()
        #expect(status == 0, "\(log)")
        #expect(log.contains("backend: wayland (a compositor listens on WAYLAND_DISPLAY=\(parent.socket))"), "\(log)")
        #expect(log.contains("the parent compositor closed the window"), "\(log)")
    }

    @Test func losingTheParentEndsItWithAnErrorAndAFailureStatus() throws {
        var parent: TestServer? = try TestServer(ServerConfiguration(kioskMode: true))
        let nested = try Nested(in: parent!)
        parent = nil
        let (status, log) = nested.finish()
        #expect(status != 0, "\(log)")
        #expect(log.contains("lost the parent compositor"), "\(log)")
    }
}
