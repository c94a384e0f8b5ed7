import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

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

    /// A terminal rings the bell (xdg_system_bell_v1): the log names who rang, once a second at
    /// most however fast it rings; with `bell: off` nothing is said. A surface with tearing
    /// asked for (wp_tearing_control_v1) is named once in the log (headless: shown at vertical blanks).
    @Test(arguments: [nil, "off"])
    func theBellIsLoggedAsConfigured(_ bell: String?) throws {
        let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path
        let runtime = TestServer.runtimeDirectory
        let socket = "bell-\(UUID().uuidString.prefix(8))"
        var arguments = ["serve", "--socket", socket]
        if let bell {
            let config = NSTemporaryDirectory() + "\(socket).yaml"
            try "bell: \(bell)\n".write(toFile: config, atomically: true, encoding: .utf8)
            arguments += ["--config", config]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tactile)
        process.arguments = arguments
        process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        let (stdout, stderr) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (stdout, stderr)
        try process.run()
        _ = stdout.fileHandleForReading.availableData
        do {
            let client = try TestClient(socket: socket)
            let ringer = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["xdg_system_bell_v1"]),
                                                        tactile_xdg_system_bell_v1_interface(), 1))
            let surface = wl_compositor_create_surface(client.compositor)
            for _ in 0..<5 { xdg_system_bell_v1_ring(ringer, surface) }
            xdg_system_bell_v1_ring(ringer, nil)
            let tearing = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["wp_tearing_control_manager_v1"]),
                                                         tactile_wp_tearing_control_manager_v1_interface(), 1))
            wp_tearing_control_v1_set_presentation_hint(wp_tearing_control_manager_v1_get_tearing_control(tearing, surface),
                                                        WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC.rawValue)
            wl_surface_commit(surface)
            wl_surface_commit(surface)
            try client.roundtrip()
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rings = log.split(separator: "\n").filter { $0.contains("rang the bell") }
        #expect(rings.count == (bell == "off" ? 0 : 1), "\(log)")
        if bell == nil { #expect(rings.first?.contains("bell: pid \(getpid()) rang the bell for its window") == true, "\(rings)") }
        #expect(log.split(separator: "\n").filter { $0.contains("asks to be shown torn") }.count == 1, "\(log)")
    }
}
