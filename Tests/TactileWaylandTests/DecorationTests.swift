import CWaylandClient
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// xdg-decoration as GTK, Qt, foot, SDL and browsers use it to decide whether to draw a title
/// bar: in kiosk mode Tactile answers server side (and draws none, as cage does), elsewhere
/// what the client asks for, client side when it asks nothing; the protocol's errors for
/// misuse.
@Suite(.serialized) struct DecorationTests {
    /// The modes a decoration object was configured with, in order.
    final class Modes {
        var received: [UInt32] = []
    }

    nonisolated(unsafe) static let listener: UnsafePointer<zxdg_toplevel_decoration_v1_listener> = {
        let pointer = UnsafeMutablePointer<zxdg_toplevel_decoration_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
            Unmanaged<Modes>.fromOpaque(data!).takeUnretainedValue().received.append(mode)
        }))
        return UnsafePointer(pointer)
    }()

    /// A toplevel as clients make it before their first buffer: surface, roles, an empty commit.
    static func bareToplevel(_ client: TestClient) -> (surface: OpaquePointer, toplevel: OpaquePointer) {
        let surface = wl_compositor_create_surface(client.compositor)!
        let xdg = xdg_wm_base_get_xdg_surface(client.wmBase, surface)!
        let toplevel = xdg_surface_get_toplevel(xdg)!
        wl_surface_commit(surface)
        return (surface, toplevel)
    }

    static func decorate(_ client: TestClient, _ toplevel: OpaquePointer, modes: Modes) throws -> OpaquePointer {
        let manager = try #require(client.decorationManager, "no zxdg_decoration_manager_v1")
        let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)!
        zxdg_toplevel_decoration_v1_add_listener(decoration, listener, Unmanaged.passUnretained(modes).toOpaque())
        return decoration
    }

    @Test func aKioskWindowIsToldServerSideWhateverItPrefers() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let client = try TestClient(socket: server.socket)
        let modes = Modes()
        let decoration = try Self.decorate(client, Self.bareToplevel(client).toplevel, modes: modes)
        try Self.settle(client)
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue)
        try Self.settle(client)
        let server_side = ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
        #expect(modes.received == [server_side, server_side])
        withExtendedLifetime(server) {}
    }

    @Test func outsideKioskModeAClientGetsWhatItAsksForAndDrawsItsOwnByDefault() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let modes = Modes()
        let decoration = try Self.decorate(client, Self.bareToplevel(client).toplevel, modes: modes)
        try Self.settle(client)
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        try Self.settle(client)
        zxdg_toplevel_decoration_v1_unset_mode(decoration)
        try Self.settle(client)
        let (client_side, server_side) = (ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        #expect(modes.received == [client_side, server_side, client_side])
        withExtendedLifetime(server) {}
    }

    /// A client that makes the object and states its mode in one go (SDL2 does) hears one
    /// answer, to what it asked: SDL acts on the first mode it hears.
    @Test func requestsThatCameTogetherGetOneAnswer() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let modes = Modes()
        let decoration = try Self.decorate(client, Self.bareToplevel(client).toplevel, modes: modes)
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue)
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        try Self.settle(client)
        #expect(modes.received == [ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue])
        withExtendedLifetime(server) {}
    }

    /// Two round trips: the answer goes out once the server handled the first one's requests.
    static func settle(_ client: TestClient) throws {
        try client.roundtrip()
        try client.roundtrip()
    }

    @Test func misuseIsTheProtocolsErrors() throws {
        let server = try TestServer()
        func error(_ misuse: (TestClient) throws -> Void) throws -> String {
            let client = try TestClient(socket: server.socket)
            try misuse(client)
            #expect(throws: ClientError.self) { try client.roundtrip() }
            return client.lastError
        }
        // A second decoration object for one toplevel.
        let twice = try error { client in
            let toplevel = Self.bareToplevel(client).toplevel
            _ = try Self.decorate(client, toplevel, modes: Modes())
            _ = try Self.decorate(client, toplevel, modes: Modes())
        }
        #expect(twice.hasPrefix("zxdg_decoration_manager_v1#") && twice.hasSuffix(": \(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue)"), "\(twice)")
        // Asked for after the toplevel already has a buffer.
        let late = try error { client in
            let window = try client.toplevel(width: 50, height: 50)
            _ = try Self.decorate(client, window.toplevel, modes: Modes())
        }
        #expect(late.hasSuffix(": \(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue)"), "\(late)")
        // The toplevel destroyed before its decoration object.
        let orphaned = try error { client in
            let toplevel = Self.bareToplevel(client).toplevel
            _ = try Self.decorate(client, toplevel, modes: Modes())
            xdg_toplevel_destroy(toplevel)
        }
        #expect(orphaned.hasPrefix("zxdg_toplevel_decoration_v1#") && orphaned.hasSuffix(": \(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue)"), "\(orphaned)")
    }
}
