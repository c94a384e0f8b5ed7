import Foundation
@testable import TactileTestSupport
import Testing

/// What the libinput backend says when it cannot start, and what it offers with no device;
/// its working path is tested with real devices in LibinputGuestTests.
///
/// As `tactile serve` processes, never inside the test process: libseat 0.7, when opening a
/// seat fails, closes its connection's fd twice (seatd.c's `_open_seat`: `destroy`, then
/// `close(fd)`). In a process whose other threads open fds all the time, the second close can
/// take one of theirs: a test server's wl_display lost its terminate eventfd that way, and
/// libwayland's assertion aborted the ThreadSanitizer run.
///
/// One at a time: as root without a seat manager, libseat forks a seat manager out of each
/// server; run side by side, they have been seen to outlive their servers and hold the
/// test's output open.
@Suite(.serialized) struct LibinputServeTests {
    static let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path

    /// `tactile serve --backend libinput` with `arguments`, on a fresh socket.
    private static func serve(_ arguments: [String]) throws -> (process: Process, socket: String, stdout: Pipe, stderr: Pipe) {
        try #require(FileManager.default.isExecutableFile(atPath: tactile), "\(tactile) was not built")
        let socket = "libinput-\(UUID().uuidString.prefix(8))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tactile)
        process.arguments = ["serve", "--backend", "libinput", "--socket", socket] + arguments
        process.environment = ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        let (stdout, stderr) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (stdout, stderr)
        try process.run()
        return (process, socket, stdout, stderr)
    }

    @Test func aDeviceThatIsNotThereStopsItWithThePathAndWhatToCheck() throws {
        let server = try Self.serve(["--input-device", "/dev/input/no-such-device"])
        let log = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus != 0, "\(log)")
        if geteuid() == 0 {
            // Root may open devices without a seat manager, so it gets as far as the path.
            #expect(log.contains("libinput cannot use /dev/input/no-such-device (does it exist, is it an input device, may we open it?)"), "\(log)")
        } else {
            #expect(log.contains("cannot open input devices: no seat manager answered"), "\(log)")
        }
    }

    /// A kiosk whose touchscreen is not plugged in yet: seat0 of this machine, which has no
    /// input devices at all (no /dev/input). Clients see a seat with no capabilities.
    @Test func withNoDeviceYetTheSeatHasNoCapabilities() throws {
        try #require(geteuid() == 0, "this test needs root, as the project's CI runs: without a seat manager only root may open devices")
        let server = try Self.serve(["--seat", "seat0"])
        defer {
            kill(server.process.processIdentifier, SIGTERM)
            server.process.waitUntilExit()
        }
        let firstLine = String(decoding: server.stdout.fileHandleForReading.availableData, as: UTF8.self)
        try #require(firstLine.hasPrefix("WAYLAND_DISPLAY=\(server.socket)"), "the server is listening")
        let info = try runProcess("/usr/bin/wayland-info", [], environment: ["WAYLAND_DISPLAY": server.socket,
                                                                              "XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("name: seat0\n\tcapabilities:\n"), "\(info.output)")
    }
}
