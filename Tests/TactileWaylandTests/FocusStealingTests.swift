import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// No client takes the keyboard from the one the user is typing in: a window that maps takes
/// focus only when no window has it, when its own client has it, or when it comes with an
/// xdg_activation token the focused client granted; `always` is the old way.
@Suite struct FocusStealingTests {
    /// Keys typed now, as (the client that got them).
    static func typeA(_ server: TestServer, _ clients: [TestClient]) throws -> [Bool] {
        for client in clients { _ = client.take() }
        try clients[0].inject { tactile_test_input_v1_key($0, 30, 1); tactile_test_input_v1_key($0, 30, 0) }
        for client in clients { try client.roundtrip() }
        return clients.map { $0.take().contains(.key(key: 30, state: 1)) }
    }

    @Test(arguments: [false, true])
    func aBackgroundClientsNewWindowDoesNotTakeTheKeyboard(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let user = try TestClient(socket: server.socket)
        let background = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        #expect(try Self.typeA(server, [user, background]) == [true, false], "the first window took focus")
        _ = try background.toplevel(width: 100, height: 100, at: (200, 0))
        #expect(try Self.typeA(server, [user, background]) == [true, false], "still the user's")
        // A second window of the focused client (a dialog of the app in use) does take it.
        let dialog = try user.toplevel(width: 50, height: 50, at: (0, 200))
        #expect(user.take().filter(\.isKeyboard).contains(.keyboardEnter(surface: user.id(dialog.surface), keys: [])))
    }

    /// The trace says why a new window was left without focus, and a refused token says so
    /// for a window already shown.
    @Test func theTraceSaysWhyAWindowWasLeftWithoutFocus() throws {
        let server = try TestServer()
        let trace = TraceOverTheWireTests.Lines(server)
        let user = try TestClient(socket: server.socket)
        let background = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        let window = try background.toplevel(width: 100, height: 100, at: (200, 0))
        try user.roundtrip()
        let id = background.id(window.surface)
        #expect(trace.take().contains { $0.hasPrefix("keyboard withheld surface=wl_surface@\(id) ") && $0.hasSuffix(" reason=no-activation-token (it wants attention)") })
        try Activation(background).activate("not-a-token", window.surface)
        try user.roundtrip()
        #expect(trace.take().contains { $0.hasPrefix("keyboard withheld surface=wl_surface@\(id) ") && $0.contains(" reason=unknown-token ") })
    }

    @Test func withAlwaysEveryNewWindowTakesTheKeyboard() throws {
        let server = try TestServer(ServerConfiguration(newWindowFocus: .always))
        let user = try TestClient(socket: server.socket)
        let background = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        _ = try background.toplevel(width: 100, height: 100, at: (200, 0))
        #expect(try Self.typeA(server, [user, background]) == [false, true])
    }

    /// The focused client makes a token and hands it over (as a launcher passes
    /// XDG_ACTIVATION_TOKEN): the other client's window, activated with it before it maps,
    /// takes focus as it maps; the token works once.
    @Test func aTokenTheFocusedClientGrantedLetsAnotherClientsWindowTakeFocus() throws {
        let server = try TestServer()
        let user = try TestClient(socket: server.socket)
        let launched = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        let token = try Activation(user).token()
        let activation = Activation(launched)
        let surface = wl_compositor_create_surface(launched.compositor)!
        try activation.activate(token, surface)
        let window = try launched.toplevel(width: 100, height: 100, at: (200, 0), surface: surface)
        #expect(try Self.typeA(server, [user, launched]) == [false, true], "the activated window took focus")
        _ = window
        // Used: the same token again does nothing for another window.
        _ = try user.surfaceHit(at: 50, 50)
        let second = wl_compositor_create_surface(launched.compositor)!
        try activation.activate(token, second)
        _ = try launched.toplevel(width: 50, height: 50, at: (400, 0), surface: second)
        #expect(try Self.typeA(server, [user, launched]) == [true, false])
    }

    /// A token made by a client without focus is handed out, and does nothing: activating
    /// a mapped window with it leaves focus where it is. One the focused client granted
    /// moves focus to the mapped window.
    @Test func aTokenMadeWithoutFocusActivatesNothing() throws {
        let server = try TestServer()
        let user = try TestClient(socket: server.socket)
        let background = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        let window = try background.toplevel(width: 100, height: 100, at: (200, 0))
        let activation = Activation(background)
        try activation.activate(try activation.token(), window.surface)
        #expect(try Self.typeA(server, [user, background]) == [true, false])
        try activation.activate(try Activation(user).token(), window.surface)
        #expect(try Self.typeA(server, [user, background]) == [false, true])
    }

    /// weston-simple-shm, a client nobody here wrote, maps a window while ours is focused:
    /// the keys stay ours, kiosk and not.
    @Test(arguments: [false, true])
    func aThirdPartyWindowDoesNotTakeTheKeyboard(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let user = try TestClient(socket: server.socket)
        _ = try user.toplevel(width: 100, height: 100, at: (0, 0))
        let other = try ClientProcess(["weston-simple-shm"], socket: server.socket)
        defer { other.stop() }
        // Mapped once the server shows more than one window.
        #expect(try waitFor { try Screenshot(socket: server.socket).colours(every: 16).count > 2 }, "weston-simple-shm mapped")
        #expect(try Self.typeA(server, [user]) == [true])
    }
}

/// xdg_activation_v1 as a client uses it.
private final class Activation {
    let client: TestClient
    let manager: OpaquePointer
    private var done: String?

    init(_ client: TestClient) {
        self.client = client
        manager = OpaquePointer(wl_registry_bind(client.registry, client.registryNames["xdg_activation_v1"]!, tactile_xdg_activation_v1_interface(), 1))
    }

    /// A token, committed with no serial.
    func token() throws -> String {
        done = nil
        let token = xdg_activation_v1_get_activation_token(manager)
        xdg_activation_token_v1_add_listener(token, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        xdg_activation_token_v1_commit(token)
        try client.roundtrip()
        xdg_activation_token_v1_destroy(token)
        return try #require(done)
    }

    func activate(_ token: String, _ surface: OpaquePointer) throws {
        xdg_activation_v1_activate(manager, token, surface)
        try client.roundtrip()
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<xdg_activation_token_v1_listener> = {
        let l = UnsafeMutablePointer<xdg_activation_token_v1_listener>.allocate(capacity: 1)
        l.initialize(to: xdg_activation_token_v1_listener(done: { data, _, token in
            Unmanaged<Activation>.fromOpaque(data!).takeUnretainedValue().done = token.map { String(cString: $0) }
        }))
        return l
    }()
}

private func waitFor(_ condition: () throws -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return false
}
