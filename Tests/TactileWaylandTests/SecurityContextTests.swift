import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// A sandbox engine's listener (wp_security_context_v1): the clients that connect through it
/// get none of the privileged globals, even where the policy gives them to everyone, and so
/// cannot make a listener of their own; mistakes in making one are the protocol's errors.
@Suite struct SecurityContextTests {
    /// A listening socket and the pipe whose hang-up ends the listener, handed to the server
    /// by `engine` with a security context.
    final class Sandbox {
        let path = TestServer.runtimeDirectory + "/sandbox-\(UUID().uuidString.prefix(8))"
        let listenFD: Int32
        var pipeFDs: [Int32] = [-1, -1]
        let manager: OpaquePointer
        let context: OpaquePointer

        init(engine: TestClient) throws {
            let fd = boundUnixSocket(at: path, type: Int32(SOCK_STREAM.rawValue)) ?? -1
            listenFD = fd
            var pipeFDs: [Int32] = [-1, -1]
            let piped = pipe(&pipeFDs)
            self.pipeFDs = pipeFDs
            guard fd >= 0, listen(fd, 8) == 0, piped == 0, let manager = Self.bindManager(engine) else { throw ClientError.noMemory }
            self.manager = manager
            context = wp_security_context_manager_v1_create_listener(manager, fd, pipeFDs[0])!
        }

        static func bindManager(_ client: TestClient) -> OpaquePointer? {
            client.registryNames["wp_security_context_manager_v1"].map {
                OpaquePointer(wl_registry_bind(client.registry, $0, tactile_wp_security_context_manager_v1_interface(), 1))
            }
        }

        deinit {
            close(listenFD)
            for fd in pipeFDs where fd >= 0 { close(fd) }
            unlink(path)
        }
    }

    @Test func aSandboxedClientGetsNoPrivilegedGlobal() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let engine = try TestClient(socket: server.socket)
        let sandbox = try Sandbox(engine: engine)
        wp_security_context_v1_set_sandbox_engine(sandbox.context, "org.example.sandbox")
        wp_security_context_v1_set_app_id(sandbox.context, "org.example.App")
        wp_security_context_v1_commit(sandbox.context)
        try engine.roundtrip()
        let sandboxed = try TestClient(socket: sandbox.path)
        let privileged = ["zwp_virtual_keyboard_manager_v1", "zwlr_virtual_pointer_manager_v1", "ext_transient_seat_manager_v1", "zwlr_screencopy_manager_v1",
                          "zwlr_foreign_toplevel_manager_v1", "zwp_input_method_manager_v2", "zwlr_layer_shell_v1",
                          "zwlr_output_manager_v1", "zwlr_output_power_manager_v1", "ext_session_lock_manager_v1",
                          "wp_security_context_manager_v1"]
        for name in privileged {
            #expect(engine.globals[name] != nil, "\(name) offered outside the sandbox")
            #expect(sandboxed.globals[name] == nil, "\(name) kept from the sandbox")
        }
        // It is an ordinary client otherwise: its window maps and takes touches.
        let window = try sandboxed.toplevel(width: 100, height: 100)
        #expect(try sandboxed.surfaceHit(at: 50, 50) == sandboxed.id(window.surface))
        // Binding the manager by the name the engine saw: a sandbox makes no sandbox.
        let name = try #require(engine.registryNames["wp_security_context_manager_v1"])
        _ = wl_registry_bind(sandboxed.registry, name, tactile_wp_security_context_manager_v1_interface(), 1)
        #expect(throws: ClientError.self) { try sandboxed.roundtrip() }
    }

    @Test func aListenFDThatIsNoListeningSocketIsInvalid() throws {
        let server = try TestServer()
        let engine = try TestClient(socket: server.socket)
        let manager = try #require(Sandbox.bindManager(engine))
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        _ = wp_security_context_manager_v1_create_listener(manager, fds[0], fds[0])
        #expect(throws: ClientError.self) { try engine.roundtrip() }
        #expect(engine.lastError == "wp_security_context_manager_v1#\(wl_proxy_get_id(manager)): 1", "invalid_listen_fd")
    }

    @Test func aFieldSetTwiceAndARequestAfterCommitAreErrors() throws {
        let server = try TestServer()
        let engine = try TestClient(socket: server.socket)
        let twice = try Sandbox(engine: engine)
        wp_security_context_v1_set_app_id(twice.context, "a")
        wp_security_context_v1_set_app_id(twice.context, "b")
        #expect(throws: ClientError.self) { try engine.roundtrip() }
        #expect(engine.lastError == "wp_security_context_v1#\(wl_proxy_get_id(twice.context)): 2", "already_set")

        let other = try TestClient(socket: server.socket)
        let after = try Sandbox(engine: other)
        wp_security_context_v1_commit(after.context)
        wp_security_context_v1_set_instance_id(after.context, "1")
        #expect(throws: ClientError.self) { try other.roundtrip() }
        #expect(other.lastError == "wp_security_context_v1#\(wl_proxy_get_id(after.context)): 1", "already_used")
    }
}
