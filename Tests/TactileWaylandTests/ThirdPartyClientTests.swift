import GestureConfiguration
import Foundation
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Real clients that are not ours, against the server, with injected input; their own output
/// is the evidence. A missing client fails the test (scripts/setup installs them).
@Suite struct ThirdPartyClientTests {
    let server: TestServer
    let injector: TestClient

    init() throws {
        server = try TestServer()
        injector = try TestClient(socket: server.socket, devices: [])
    }

    @Test func wevPrintsInjectedTouchAndPointerAtSurfaceLocalCoordinates() throws {
        let wev = try ClientProcess(["stdbuf", "-oL", "wev"], socket: server.socket)
        defer { wev.stop() }
        // wev's window is the first toplevel: the placement policy puts it at the origin. It is
        // mapped once the pointer can enter it.
        try wev.waitUntil("wl_pointer] enter") {
            try injector.inject { tactile_test_input_v1_pointer_motion($0, f(1), f(1)) }
        }
        try injector.inject { input in
            tactile_test_input_v1_touch_down(input, 7, f(100), f(120.5))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 7, f(700), f(50))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 7)
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_pointer_motion(input, f(40.25), f(60))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
        }
        let output = try wev.waitForOutput(containing: "state: 0 (released)")
        #expect(output.contains("wl_touch] down: serial:"))
        #expect(output.contains("id: 7; x, y: 100.000000, 120.500000"))
        #expect(output.contains("wl_touch] motion: time:") && output.contains("id: 7; x, y: 700.000000, 50.000000"))
        #expect(output.contains("wl_touch] up: serial:") && output.contains("id: 7"))
        #expect(output.contains("wl_pointer] motion: time:") && output.contains("x, y: 40.250000, 60.000000"))
        #expect(output.contains("button: 272 (left), state: 1 (pressed)"))
    }

    /// A system edge swipe over wev's window: wev prints the down, the first motion, then
    /// wl_touch.cancel, and nothing of the touch after it (no motion, no up).
    @Test func wevSeesAWinningEdgeSwipeAsACancel() throws {
        let server = try TestServer(ServerConfiguration(
            gestures: [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))]
        ))
        let injector = try TestClient(socket: server.socket, devices: [])
        let wev = try ClientProcess(["stdbuf", "-oL", "wev"], socket: server.socket)
        defer { wev.stop() }
        try wev.waitUntil("wl_pointer] enter") {
            try injector.inject { tactile_test_input_v1_pointer_motion($0, f(1), f(1)) }
        }
        try injector.inject { input in
            swipeFromTheLeftEdge(input)
            tactile_test_input_v1_pointer_motion(input, f(300), f(300))
        }
        let output = try wev.waitForOutput(containing: "x, y: 300.000000, 300.000000")
        // Lines read "[15:        wl_touch] down: serial: …": keep each event's name.
        let touch = output.split(separator: "\n").filter { $0.contains("wl_touch] ") }.map { line in
            String(line.split(separator: "] ")[1].split(separator: ":")[0])
        }
        #expect(touch == ["down", "frame", "motion", "frame", "cancel"], "\(output)")
        #expect(output.contains("id: 1; x, y: 40.000000, 100.000000"))
        #expect(!output.contains("x, y: 120.000000"))
    }

    /// foot binds no wl_touch, so the touch drives its pointer. When the edge swipe wins,
    /// foot must not get the release that would complete a click-drag: its protocol log shows
    /// the press, then a leave, and no release.
    @Test func footSeesAWinningEdgeSwipeEndItsEmulatedPressWithALeave() throws {
        let server = try TestServer(ServerConfiguration(
            gestures: [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))]
        ))
        let injector = try TestClient(socket: server.socket, devices: [])
        let foot = try ClientProcess(["foot", "sleep", "60"], socket: server.socket, protocolLog: true)
        defer { foot.stop() }
        try foot.waitUntil(".enter(") {
            try injector.inject { tactile_test_input_v1_pointer_motion($0, f(1), f(1)) }
        }
        try injector.inject(swipeFromTheLeftEdge)
        try injector.inject { tactile_test_input_v1_pointer_motion($0, f(300), f(300)) }
        let output = try foot.waitForOutput(containing: "300.00000000, 300.00000000")
        // Events read "[1234.567] wl_pointer@13.button(…)"; requests have "->" before the object.
        let pointer = output.split(separator: "\n").filter { $0.contains("] wl_pointer@") }
        let events = pointer.map { line in String(line.split(separator: "] wl_pointer@")[1].drop { $0 != "." }.dropFirst().prefix { $0 != "(" }) }
        let press = try #require(events.firstIndex(of: "button"), "foot got the touch as a press: \(output)")
        #expect(events[press...].filter { $0 == "button" }.count == 1, "no release after the press: \(events)")
        #expect(events[press...].contains("leave"), "the press ends with a leave: \(events)")
        #expect(pointer.contains { $0.contains("button(") && $0.hasSuffix(", 272, 1)") })
    }

    @Test func westonSimpleTouchReceivesTouchesAtSurfaceLocalCoordinates() throws {
        let client = try ClientProcess(["weston-simple-touch"], socket: server.socket, protocolLog: true)
        defer { client.stop() }
        try client.waitUntil(".down(") { try injector.tap(1, 1) }
        try injector.inject { input in
            tactile_test_input_v1_touch_down(input, 7, f(100), f(120.5))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 7, f(110), f(130))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 7)
            tactile_test_input_v1_touch_frame(input)
        }
        // The up of touch 7 ends "…, 7)"; so does the registry's line for a global of version 7.
        let log = try client.waitForOutput(containing: ", 7)\n", after: ".down(")
        #expect(log.contains(", 7, 100.00000000, 120.50000000)"))
        #expect(log.contains(".motion(") && log.contains(", 7, 110.00000000, 130.00000000)"))
        #expect(log.contains(".up("))
    }

    @Test func westonEventdemoLogsInjectedPointerMotionAndButtons() throws {
        let client = try ClientProcess(["stdbuf", "-oL", "weston-eventdemo", "--log-motion", "--log-button"], socket: server.socket, protocolLog: true)
        defer { client.stop() }
        try client.waitUntil(".enter(") {
            try injector.inject { tactile_test_input_v1_pointer_motion($0, f(50), f(50)) }
        }
        try injector.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(100), f(120.5))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
        }
        let log = try client.waitForOutput(containing: "state: released")
        #expect(log.contains(".motion(") && log.contains(", 100.00000000, 120.50000000)"))
        #expect(log.contains("motion time: "))
        #expect(log.contains("button: 272, state: pressed"))
    }

    @Test func westonSubsurfacesMapsWithItsSubsurfacesAndTakesTouches() throws {
        let client = try ClientProcess(["weston-subsurfaces"], socket: server.socket, protocolLog: true)
        defer { client.stop() }
        try client.waitForOutput(containing: ".set_desync()")
        try client.waitUntil(".down(") { try injector.tap(40, 40) }
        let log = try client.waitForOutput(containing: "wl_subcompositor")
        #expect(log.contains("get_subsurface(new id wl_subsurface@"))
        #expect(!log.contains("error"), "the server posted a protocol error")
        #expect(client.isRunning)
    }

    @Test func gtk3DemoMapsAWindowAndTakesATouch() throws {
        let client = try ClientProcess(["gtk3-demo"], socket: server.socket, protocolLog: true, environment: ["GDK_BACKEND": "wayland"])
        defer { client.stop() }
        try client.waitForOutput(containing: ".attach(wl_buffer@", within: 30)
        try client.waitUntil(".down(", within: 30) { try injector.tap(200, 200) }
        let log = try client.waitForOutput(containing: ".up(")
        #expect(log.contains("xdg_toplevel@") && log.contains(".configure("))
        #expect(log.contains(", 1, 200.00000000, 200.00000000)"))
        #expect(client.isRunning)
    }

    /// SDL2 (Debian's 2.26, without libdecor) asks for server-side decorations; told client
    /// side, it destroyed its toplevel and drew into a surface with no role, which never
    /// mapped. It maps, and a tap reaches it, in a kiosk and outside one.
    @Test(arguments: [false, true]) func sdlTestgestureMapsAndTakesATap(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try ClientProcess(["/usr/libexec/installed-tests/SDL2/testgesture"], socket: server.socket, protocolLog: true,
                                       environment: ["SDL_VIDEODRIVER": "wayland"])
        defer { client.stop() }
        try client.waitForOutput(containing: ".attach(wl_buffer@", within: 30)
        try client.waitUntil(".down(", within: 30) { try injector.tap(100, 80) }
        let log = try client.waitForOutput(containing: ".up(")
        #expect(log.contains(try Regex("zxdg_toplevel_decoration_v1@[0-9]+\\.set_mode\\(2\\)")), "SDL no longer asks for server side")
        #expect(log.contains(try Regex("zxdg_toplevel_decoration_v1@[0-9]+\\.configure\\(2\\)")), "not told server side")
        #expect(!log.contains(try Regex("xdg_toplevel@[0-9]+\\.destroy\\(\\)")), "SDL gave up its toplevel")
        #expect(log.contains(", 1, 100.00000000, 80.00000000)"))
        #expect(client.isRunning)
    }

    /// GTK listens for touchpad swipes and pinches on its pointer: a pinch over its window
    /// reaches it whole; a 3-finger swipe to the left, the kiosk's touchpad gesture, reaches it
    /// until the kiosk's swipe wins, then ends cancelled (GTK then drops its own swipe).
    @Test func gtk3DemoHearsTouchpadGesturesUntilTheKiosksSwipeWins() throws {
        let server = try TestServer(ServerConfiguration(gestures: [
            GestureBinding(name: "next-app", recognizer: Swipe(fingers: 3, direction: .left, distance: 100), device: .touchpad),
        ]))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try ClientProcess(["gtk3-demo"], socket: server.socket, protocolLog: true, environment: ["GDK_BACKEND": "wayland"])
        defer { client.stop() }
        try client.waitForOutput(containing: ".attach(wl_buffer@", within: 30)
        try client.waitForOutput(containing: "get_pinch_gesture(")
        try client.waitUntil(".motion(", within: 30) { try injector.inject { tactile_test_input_v1_pointer_motion($0, f(150), f(150)) } }
        try injector.inject { input in
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_PINCH.rawValue, 2)
            tactile_test_input_v1_touchpad_gesture_update(input, f(1), f(2), f(1.5), f(10))
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
            tactile_test_input_v1_touchpad_gesture_begin(input, TACTILE_TEST_INPUT_V1_TOUCHPAD_GESTURE_SWIPE.rawValue, 3)
            for _ in 0..<3 { tactile_test_input_v1_touchpad_gesture_update(input, f(-40), f(0), f(1), f(0)) }
            tactile_test_input_v1_touchpad_gesture_end(input, 0)
        }
        // Events GTK heard, as "pinch.begin", "swipe.end" and so on.
        func heard() -> [String] {
            client.outputSoFar.split(separator: "\n").filter { $0.contains("zwp_pointer_gesture_") && !$0.contains(" -> ") }.map { line in
                let event = line.split(separator: "zwp_pointer_gesture_").last ?? ""
                return String(event.prefix { $0 != "_" }) + String(event.drop { $0 != "." }.prefix { $0 != "(" })
            }
        }
        for _ in 0..<50 where heard().filter({ $0.hasSuffix(".end") }).count < 2 { _ = try? client.waitForOutput(containing: "\u{1}", within: 0.1) }
        #expect(heard() == ["pinch.begin", "pinch.update", "pinch.end", "swipe.begin", "swipe.update", "swipe.update", "swipe.end"],
                "\(client.outputSoFar.suffix(3000))")
        #expect(client.outputSoFar.contains("1.50000000, 10.00000000)"), "the pinch's scale and rotation")
        let swipeEnd = client.outputSoFar.split(separator: "\n").last { $0.contains("zwp_pointer_gesture_swipe_v1@") && $0.contains(".end(") }
        #expect(swipeEnd?.hasSuffix(", 1)") == true, "the swipe should end cancelled: \(swipeEnd ?? "no end")")
    }

    /// wayland-info lists the globals real clients need, wl_shm at version 2 with every
    /// format composition reads.
    @Test func waylandInfoListsTheGlobalsRealClientsNeed() throws {
        let info = try ClientProcess(["wayland-info"], socket: server.socket)
        defer { info.stop() }
        let output = try info.waitForExit()
        for global in ["wl_compositor", "wl_shm", "wl_seat", "wl_output", "xdg_wm_base", "wl_data_device_manager", "tactile_test_input_v1"] {
            #expect(output.contains("interface: '\(global)'"), "wayland-info did not list \(global)")
        }
        #expect(output.contains("name: seat0"))
        let shm = output.split(separator: "\n").first { $0.hasPrefix("interface: 'wl_shm',") }
        #expect(shm?.contains("version:  2,") == true, "wl_shm 2: \(shm ?? "not listed")")
        for format in ["'AR24'", "'XR24'", "'RG16'", "'AR30'", "'XB12'"] {
            #expect(output.contains(format), "wayland-info did not hear format \(format)")
        }
    }
}

/// A client program run against the test server, its standard output collected as it comes.
final class ClientProcess {
    private let process = Process()
    private let output = Pipe()
    private var collected = ""

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// With `protocolLog`, libwayland in the client logs every message (WAYLAND_DEBUG=client),
    /// which shows what the client received even when it prints nothing itself.
    init(_ command: [String], socket: String, protocolLog: Bool = false, environment extra: [String: String] = [:]) throws {
        guard let path = Self.find(command[0]) else {
            throw Failure(description: "\(command[0]) is not installed (scripts/setup installs it)")
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socket
        environment["XDG_RUNTIME_DIR"] = TestServer.runtimeDirectory
        if protocolLog { environment["WAYLAND_DEBUG"] = "client" }
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    deinit { stop() }

    /// Ends the client (tests call this in a `defer`: a client left running after its server
    /// is gone may spin on the dead socket).
    func stop() {
        guard process.processIdentifier > 0, process.isRunning else { return }
        // A client that leads its own process group takes its helpers (a session bus, say)
        // with it.
        let pid = process.processIdentifier
        kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
        process.waitUntilExit()
    }

    var isRunning: Bool { process.isRunning }

    var pid: Int32 { process.processIdentifier }

    /// What it printed up to the last wait.
    var outputSoFar: String { collected }

    /// Everything printed so far, once it contains `marker` (after the first `earlier`, if
    /// given); fails after `seconds`.
    @discardableResult
    func waitForOutput(containing marker: String, after earlier: String? = nil, within seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        func found() -> Bool {
            guard let earlier else { return collected.contains(marker) }
            return collected.range(of: earlier).map { collected[$0.upperBound...].contains(marker) } ?? false
        }
        while !found() {
            guard Date() < deadline else {
                throw Failure(description: "no \"\(marker)\" within \(seconds) s; output so far:\n\(collected.suffix(4000))")
            }
            let chunk = readAvailable()
            if chunk.isEmpty {
                guard process.isRunning else {
                    throw Failure(description: "exited (\(process.terminationStatus)) before \"\(marker)\"; output:\n\(collected)")
                }
                usleep(20_000)
            }
            collected += String(decoding: chunk, as: UTF8.self)
        }
        return collected
    }

    /// Everything printed so far, once it contains `marker` `count` times; fails after `seconds`.
    @discardableResult
    func waitForOutput(containing marker: String, times count: Int, within seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while collected.components(separatedBy: marker).count - 1 < count {
            guard Date() < deadline, process.isRunning else {
                throw Failure(description: "not \(count) \"\(marker)\" within \(seconds) s; output so far:\n\(collected.suffix(4000))")
            }
            usleep(20_000)
            collected += String(decoding: readAvailable(), as: UTF8.self)
        }
        return collected
    }

    /// Repeats `probe` every 50 ms until the output contains `marker`; fails after `seconds`.
    func waitUntil(_ marker: String, within seconds: Double = 10, probing probe: () throws -> Void) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !collected.contains(marker) {
            guard Date() < deadline, process.isRunning else {
                throw Failure(description: "no \"\(marker)\" within \(seconds) s; output so far:\n\(collected.suffix(4000))")
            }
            try probe()
            usleep(50_000)
            collected += String(decoding: readAvailable(), as: UTF8.self)
        }
    }

    /// Whatever the pipe holds now, without blocking.
    private func readAvailable() -> Data {
        let fd = output.fileHandleForReading.fileDescriptor
        var data = Data()
        var pending: Int32 = 0
        while ioctl(fd, UInt(FIONREAD), &pending) == 0, pending > 0 {
            data.append(output.fileHandleForReading.readData(ofLength: Int(pending)))
        }
        return data
    }

    /// Everything printed, after the program exits by itself.
    func waitForExit() throws -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return collected + String(decoding: data, as: UTF8.self)
    }

    /// A path is taken as it is (installed tests live outside PATH); a name is looked up there.
    static func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
