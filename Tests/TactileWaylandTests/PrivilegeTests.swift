import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Responder
import TactileWayland
import Testing

/// Who sees the privileged globals: a family the policy refuses a client is absent from its
/// registry and cannot be bound by name; one it allows is there, for everyone, for named
/// executables, or for the processes Tactile started and their children.
@Suite struct PrivilegeTests {
    /// Each family's globals, as a client's registry names them.
    static let interfaces: [Privilege: [String]] = [
        .inputInjection: ["zwp_virtual_keyboard_manager_v1", "zwlr_virtual_pointer_manager_v1", "ext_transient_seat_manager_v1"],
        .screenCapture: ["zwlr_screencopy_manager_v1"],
        .windowManagement: ["zwlr_foreign_toplevel_manager_v1"],
        .inputMethod: ["zwp_input_method_manager_v2"],
        .layerShell: ["zwlr_layer_shell_v1"],
        .outputManagement: ["zwlr_output_manager_v1", "zwlr_output_power_manager_v1"],
        .sessionLock: ["ext_session_lock_manager_v1"],
        .touchCalibration: ["weston_touch_calibration", "tactile_touchscreen_mapper_v1"],
        .clipboardControl: ["zwlr_data_control_manager_v1", "ext_data_control_manager_v1"],
        .inspector: ["tactile_inspector_v1"],
        .securityContext: ["wp_security_context_manager_v1"],
    ]

    /// Every family open but `refused`, which only `executables` (and what Tactile started,
    /// when `started`) may bind. The tests' own clients run in the server's process, which
    /// counts as started.
    static func server(refusing refused: [Privilege], allowing executables: [String] = [], started: Bool = false) throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.offersInspector = true
        configuration.privileges = .everyone
        for privilege in refused { configuration.privileges.grants[privilege] = .only(started: started, executables: executables) }
        return try TestServer(configuration)
    }

    @Test(arguments: Privilege.allCases)
    func aRefusedFamilyIsAbsentFromTheRegistryAndTheOthersStay(_ refused: Privilege) throws {
        let server = try Self.server(refusing: [refused])
        let client = try TestClient(socket: server.socket)
        for (privilege, names) in Self.interfaces {
            for name in names {
                #expect((client.globals[name] != nil) == (privilege != refused), "\(name) with \(refused.rawValue) refused")
            }
        }
        #expect(client.globals["wl_compositor"] != nil && client.globals["xdg_wm_base"] != nil, "everyone's globals stay")
    }

    /// A client that guesses a refused global's name and binds it anyway is cut off.
    @Test func bindingARefusedGlobalByNameIsAProtocolError() throws {
        let open = try Self.server(refusing: [])
        let name = try #require(try TestClient(socket: open.socket).registryNames["zwlr_screencopy_manager_v1"])
        let server = try Self.server(refusing: [.screenCapture])
        let client = try TestClient(socket: server.socket)
        // The same globals are made in the same order, so the refused one has the same name.
        _ = wl_registry_bind(client.registry, name, tactile_client_wl_compositor_interface(), 1)
        #expect(throws: ClientError.self) { try client.roundtrip() }
    }

    /// A third-party client (wayland-info) whose executable is named sees the family.
    @Test func aNamedExecutableIsAllowed() throws {
        let path = try #require(ClientProcess.find("wayland-info"))
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let allowed = try Self.server(refusing: [.screenCapture], allowing: [resolved])
        let refused = try Self.server(refusing: [.screenCapture])
        #expect(try Self.waylandInfoLists("zwlr_screencopy_manager_v1", on: allowed))
        #expect(try !Self.waylandInfoLists("zwlr_screencopy_manager_v1", on: refused))
    }

    /// A child of a process Tactile started (a shell that runs wayland-info) is started too;
    /// the same command not started by Tactile is refused.
    @Test(arguments: [true, false])
    func theChildrenOfAStartedProcessAreStarted(_ started: Bool) throws {
        let server = try Self.server(refusing: [.outputManagement], started: true)
        let output = try Self.waylandInfoInAShell(on: server, started: started)
        #expect(output.contains("zwlr_output_manager_v1") == started, "wayland-info: \(output.prefix(2000))")
        #expect(output.contains("wl_compositor"))
    }

    /// The standard policy, as a kiosk runs without a `privileges` section: a program nobody
    /// named and Tactile did not start (wayland-info) sees no privileged family but the
    /// security-context one; the same program, started by Tactile, sees them all.
    @Test(arguments: [true, false])
    func theStandardPolicyGivesThePrivilegedFamiliesToWhatTactileStarted(_ started: Bool) throws {
        var configuration = ServerConfiguration()
        configuration.offersInspector = true
        let output = try Self.waylandInfoInAShell(on: TestServer(configuration), started: started)
        #expect(output.contains("'wl_compositor'"), "wayland-info ran: \(output.prefix(500))")
        for (privilege, names) in Self.interfaces {
            for name in names {
                #expect(output.contains("'\(name)'") == (started || privilege == .securityContext), "\(name), started: \(started)")
            }
        }
    }

    /// libwayland keeps a removed global (an unplugged output's wl_output) and asks the
    /// filter about it for every registry made after: a client connecting then lists the
    /// outputs left, and the server goes on.
    @Test func aClientConnectingAfterAGlobalWentIsServed() throws {
        let server = try TestServer(Self.restrictive(), headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 640, height: 480)]))
        server.onServerThread { _, headless in headless.removeOutput(headless.outputs[1]) }
        for _ in 0..<3 {
            let client = try TestClient(socket: server.socket)
            try client.roundtrip()
            #expect(client.outputs.count == 1, "one wl_output left")
        }
    }

    static func restrictive() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.privileges.grants[.screenCapture] = .only(started: true, executables: [])
        return configuration
    }

    /// wayland-info's output, run by a shell that Tactile started or did not. `; true` keeps
    /// the shell waiting, so wayland-info is its child, not the shell itself.
    static func waylandInfoInAShell(on server: TestServer, started: Bool) throws -> String {
        let shell = try ClientProcess(["sh", "-c", "sleep 0.5; wayland-info; true"], socket: server.socket)
        defer { shell.stop() }
        if started {
            let pid = shell.pid
            server.onServerThread { server, _ in server.port.processStarted(pid) }
        }
        return try shell.waitForExit()
    }

    /// Runs wayland-info against `server`: whether it lists `interface`.
    static func waylandInfoLists(_ interface: String, on server: TestServer) throws -> Bool {
        let info = try ClientProcess(["wayland-info"], socket: server.socket)
        defer { info.stop() }
        let output = try info.waitForExit()
        #expect(output.contains("wl_compositor"), "wayland-info ran: \(output.prefix(500))")
        return output.contains(interface)
    }
}
