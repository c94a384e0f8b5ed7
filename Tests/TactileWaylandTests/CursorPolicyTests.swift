import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// `--cursor`: whether Tactile's arrow shows, read back with `grim -c`. The pointer moves
/// to (600, 400), over the background, where the arrow's white inside covers (601, 403).
@Suite(.serialized) struct CursorPolicyTests {
    static let background: UInt32 = 0x20_2020

    static func arrowShows(_ server: TestServer) throws -> Bool {
        try Screenshot(socket: server.socket, cursor: true).colour(at: 601, 403) == 0xff_ffff
    }

    static func touch(_ client: TestClient) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(100), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        try client.roundtrip()
    }

    static func move(_ client: TestClient, to x: Double = 600, _ y: Double = 400) throws {
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(x), f(y)) }
        try client.roundtrip()
    }

    /// The default: a touch-only kiosk never shows a cursor; a mouse that moves does, until
    /// the next touch.
    @Test func autoShowsTheCursorOnlyWhileThePointerIsWhatWasLastUsed() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        try Self.touch(client)
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 100, 100) == Self.background, "no cursor for touches")
        try Self.move(client)
        #expect(try Self.arrowShows(server), "a pointer that moves shows it")
        try Self.touch(client)
        #expect(try !Self.arrowShows(server), "a touch hides it")
        try client.inject { tactile_test_input_v1_pointer_button($0, 0x110, 1) }
        try client.roundtrip()
        #expect(try Self.arrowShows(server), "a click brings it back where the pointer is")
    }

    @Test func neverShowsNoCursorEvenForAMouse() throws {
        var configuration = ServerConfiguration()
        configuration.cursor = .never
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        try Self.move(client)
        #expect(try !Self.arrowShows(server))
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 600, 400) == Self.background)
    }

    @Test func alwaysKeepsTheCursorThroughTouches() throws {
        var configuration = ServerConfiguration()
        configuration.cursor = .always
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        try Self.move(client)
        try Self.touch(client)
        #expect(try Self.arrowShows(server))
    }
}
