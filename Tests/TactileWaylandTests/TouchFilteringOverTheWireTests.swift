import CWaylandClient
import Foundation
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing

/// A touchscreen's filters as a real client sees them, through the server the libinput
/// backend feeds (`BackendHost.handle(_:from:)`): events timed as a panel sends them, the
/// held ones let go by the server's own timer. The guest tests drive the same path from
/// uinput panels.
@Suite(.serialized) struct TouchFilteringOverTheWireTests {
    static let panel = InputDeviceID(3)

    /// Sends `events` as `panel`'s, each followed by a frame, stamped `offsets` (ms) after now.
    static func send(_ server: TestServer, _ settings: TouchFilterSettings, _ events: [(UInt64, @Sendable (Instant) -> InputEvent)]) {
        server.onServerThread { server, _ in
            let port = server.port
            port.setTouchFilters(settings, for: panel, named: "Bouncy Panel")
            let start = port.currentTime
            for (offset, event) in events {
                port.handle(event(start.advanced(by: .milliseconds(offset))), from: panel)
                port.handle(.touchFrame, from: panel)
            }
        }
    }

    /// What `body` reads of the server, on its thread.
    static func read<T: Sendable>(_ server: TestServer, _ body: @escaping @Sendable (WaylandServer) -> T) -> T {
        let value = Locked<T?>(nil)
        server.onServerThread { server, _ in value.withLock { $0 = body(server) } }
        return value.withLock { $0! }
    }

    static func touches(_ client: TestClient) -> [Seen] { client.take().filter { !$0.isKeyboard && $0 != .touchFrame } }

    /// The bounce, all at once: the app hears one down, the re-touch as a motion, and
    /// one up once the window has passed after the last lift. The metrics count one bounce,
    /// and the trace says what happened (the re-touch, numbered 1 while 0 was held, goes on as 0).
    @Test func aBouncedTapReachesTheAppAsOneTap() throws {
        let server = try TestServer()
        let trace = TraceOverTheWireTests.Lines(server)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 400, height: 400, at: (0, 0))
        _ = client.take()
        Self.send(server, TouchFilterSettings(debounce: .milliseconds(50)), [
            (0, { .touchDown(id: 0, global: Point(x: 100, y: 100), time: $0) }),
            (40, { .touchUp(id: 0, time: $0) }),
            (55, { .touchDown(id: 0, global: Point(x: 102, y: 100), time: $0) }),
            (115, { .touchUp(id: 0, time: $0) }),
        ])
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 0, x: f(100), y: f(100)), .touchMotion(id: 0, x: f(102), y: f(100))])
        // The last lift is let go 50 ms after its own time, 115 ms after the first down.
        Thread.sleep(forTimeInterval: 0.4)
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchUp(id: 0)])
        #expect(Self.read(server) { $0.statistics.touchesFiltered } == [FilteredTouches(device: "Bouncy Panel", filter: .debounce): 1])
        let lines = trace.take()
        #expect(lines.contains { $0.hasPrefix("touch 1 filtered filter=debounce device='Bouncy Panel'") && $0.contains("verdict=bounce continues=0 gap=15ms distance=2px") }, "\(lines)")
    }

    /// A contact that never lifts is cancelled after stuck-after: the app gets
    /// wl_touch.cancel, the health answer names the panel, the metrics count it; the panel's
    /// next touch goes to the app as usual.
    @Test func aStuckContactIsCancelledAndNamedInTheHealthAnswer() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 400, height: 400, at: (0, 0))
        _ = client.take()
        Self.send(server, TouchFilterSettings(stuckAfter: .milliseconds(300)), [(0, { .touchDown(id: 4, global: Point(x: 50, y: 60), time: $0) })])
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 4, x: f(50), y: f(60))])
        Thread.sleep(forTimeInterval: 0.6)
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchCancel])
        #expect(Self.read(server) { $0.healthProblems.map(\.description) } == ["touchscreen 'Bouncy Panel': a stuck contact was ended in the last minute (its panel may need a reset)"])
        #expect(Self.read(server) { $0.statistics.touchesStuck } == ["Bouncy Panel": 1])
        Self.send(server, TouchFilterSettings(stuckAfter: .milliseconds(300)), [
            (0, { .touchUp(id: 4, time: $0) }),
            (10, { .touchDown(id: 4, global: Point(x: 70, y: 60), time: $0) }),
        ])
        try client.roundtrip()
        #expect(Self.touches(client) == [.touchDown(surface: client.id(window.surface), id: 4, x: f(70), y: f(60))])
    }
}
