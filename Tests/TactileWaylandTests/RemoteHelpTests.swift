import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Help from afar (wayvnc): a virtual pointer's click and drag on an app that listens only to
/// touch arrive as a touch, never at the cost of a local finger's touch, and its cursor shows
/// on the kiosk whatever the cursor policy.
@Suite(.serialized) struct RemoteHelpTests {
    static let remote = Int32(0x7F00_0000)

    /// A helper's virtual pointer, positioned in the layout's pixels (the default headless
    /// output is the whole layout).
    final class Helper {
        let client: TestClient
        let pointer: OpaquePointer
        let extent: (UInt32, UInt32)

        init(_ server: TestServer, extent: (UInt32, UInt32) = (1280, 800)) throws {
            client = try TestClient(socket: server.socket, devices: [])
            let manager = try client.bind("zwlr_virtual_pointer_manager_v1", tactile_zwlr_virtual_pointer_manager_v1_interface(), version: 2)
            pointer = try #require(zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil))
            self.extent = extent
        }

        func move(to x: UInt32, _ y: UInt32) throws {
            zwlr_virtual_pointer_v1_motion_absolute(pointer, 0, x, y, extent.0, extent.1)
            zwlr_virtual_pointer_v1_frame(pointer)
            try client.roundtrip()
        }

        func left(_ pressed: Bool) throws {
            zwlr_virtual_pointer_v1_button(pointer, 0, 0x110, pressed ? 1 : 0)
            zwlr_virtual_pointer_v1_frame(pointer)
            try client.roundtrip()
        }
    }

    static func touches(_ client: TestClient) throws -> [Seen] {
        try client.roundtrip()
        return client.take().filter { if case .touchDown = $0 { true } else if case .touchMotion = $0 { true } else if case .touchUp = $0 { true } else { $0 == .touchFrame } }
    }

    @Test func aRemoteClickAndDragOnATouchOnlyAppArriveAsATouch() throws {
        let server = try TestServer()
        let app = try TestClient(socket: server.socket, devices: ["touch"])
        let window = try app.toplevel(width: 200, height: 200)
        _ = app.take()
        let helper = try Helper(server)
        try helper.move(to: 50, 60)
        try helper.left(true)
        try helper.move(to: 80, 90)
        try helper.left(false)
        #expect(try Self.touches(app) == [
            .touchDown(surface: app.id(window.surface), id: Self.remote, x: f(50), y: f(60)), .touchFrame,
            .touchMotion(id: Self.remote, x: f(80), y: f(90)), .touchFrame, .touchUp(id: Self.remote), .touchFrame,
        ])
    }

    @Test func anAppWithAPointerGetsTheClickAsAClickAndNoTouch() throws {
        let server = try TestServer()
        let app = try TestClient(socket: server.socket, devices: ["touch", "pointer"])
        _ = try app.toplevel(width: 200, height: 200)
        _ = app.take()
        let helper = try Helper(server)
        try helper.move(to: 50, 60)
        try helper.left(true)
        try helper.left(false)
        try app.roundtrip()
        let seen = app.take()
        #expect(seen.contains(.pointerButton(button: 0x110, state: 1)), "\(seen)")
        #expect(!seen.contains { if case .touchDown = $0 { true } else { false } }, "\(seen)")
    }

    /// While a finger is on the glass the helper's click does not touch; a finger that comes
    /// down during a remote drag lifts the remote touch first, so no gesture counts both.
    @Test func aRemoteTouchNeverTakesALocalFingersPlace() throws {
        let server = try TestServer()
        let app = try TestClient(socket: server.socket, devices: ["touch"])
        let window = try app.toplevel(width: 200, height: 200)
        _ = app.take()
        let helper = try Helper(server)
        let surface = app.id(window.surface)
        try app.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_frame(input)
        }
        try helper.move(to: 50, 60)
        try helper.left(true)
        try helper.left(false)
        #expect(try Self.touches(app) == [.touchDown(surface: surface, id: 1, x: f(10), y: f(10)), .touchFrame], "no remote touch beside the finger")
        try app.inject { input in
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        try helper.left(true)
        try app.inject { input in
            tactile_test_input_v1_touch_down(input, 2, f(20), f(20))
            tactile_test_input_v1_touch_frame(input)
        }
        try helper.left(false)
        #expect(try Self.touches(app) == [
            .touchUp(id: 1), .touchFrame,
            .touchDown(surface: surface, id: Self.remote, x: f(50), y: f(60)), .touchFrame,
            .touchUp(id: Self.remote), .touchFrame,
            .touchDown(surface: surface, id: 2, x: f(20), y: f(20)), .touchFrame,
        ])
    }

    /// `cursor: never` on a touch kiosk; a helper's pointer still shows where it is.
    @Test func aVirtualPointersCursorShowsEvenUnderNever() throws {
        var configuration = ServerConfiguration()
        configuration.cursor = .never
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(600), f(400)) }
        try client.roundtrip()
        #expect(try !CursorPolicyTests.arrowShows(server), "a local mouse shows none")
        let helper = try Helper(server)
        try helper.move(to: 600, 400)
        #expect(try CursorPolicyTests.arrowShows(server), "the helper's does")
    }

    /// wayvnc 0.5 (Debian's) against Tactile, as docs/kiosk.md sets it up: what a viewer
    /// sees equals grim's picture pixel for pixel, and its click and drag reach
    /// weston-simple-touch, which listens only to touch, as one touch.
    @Test func wayvncShowsTheScreenAsGrimDoesAndItsClickTouchesATouchOnlyApp() throws {
        var configuration = ServerConfiguration()
        configuration.privileges = .everyone
        configuration.cursor = .never
        let server = try TestServer(configuration)
        let app = try ClientProcess(["weston-simple-touch"], socket: server.socket, protocolLog: true)
        defer { app.stop() }
        try app.waitForOutput(containing: "xdg_toplevel@")
        let port = try freeTCPPort()
        let vnc = try ClientProcess(["wayvnc", "127.0.0.1", String(port)], socket: server.socket)
        defer { vnc.stop() }
        let viewer = try RFBViewer(port: port)
        #expect((viewer.width, viewer.height) == (1280, 800))
        // The first capture may come before simple-touch's first frame: until two agree.
        var seen = try viewer.capture()
        var grim = try Screenshot(socket: server.socket)
        var tries = 1
        while seen != grim, tries < 20 {
            Thread.sleep(forTimeInterval: 0.2)
            (seen, grim, tries) = (try viewer.capture(), try Screenshot(socket: server.socket), tries + 1)
        }
        #expect(seen == grim, "the viewer's picture is grim's: \(seen.differences(from: grim)) pixels differ")
        try viewer.pointer(100, 120)
        try viewer.pointer(100, 120, buttons: 1)
        try viewer.pointer(140, 150, buttons: 1)
        try viewer.pointer(140, 150)
        let log = try app.waitForOutput(containing: "wl_touch@", after: ".up(")
        #expect(log.contains(", 100.00000000, 120.00000000)"), "down where the viewer clicked: \(log.suffix(2000))")
        #expect(log.contains(".motion(") && log.contains(", 140.00000000, 150.00000000)"), "\(log.suffix(2000))")
        #expect(!log.contains("wl_pointer@"), "simple-touch has no pointer")
    }
}
