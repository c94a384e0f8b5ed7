import CWaylandClient
import Responder
import TactileBackends
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Outputs as the headless backend announces them through the seam, seen by a real client:
/// several side by side in one layout, input at the right place on each, and an output
/// taken away while windows are on it.
@Suite(.serialized) struct HeadlessOutputsTests {
    static let twoOutputs = HeadlessBackend.Options(outputs: [Size(width: 1280, height: 800), Size(width: 800, height: 480)])

    /// The client's wl_output of each name.
    static func outputs(of client: TestClient) -> [String: OpaquePointer] {
        Dictionary(uniqueKeysWithValues: client.outputNames.map { ($1, $0) })
    }

    @Test func twoOutputsSideBySideEachShowTheirWindowAndATouchOnTheSecondReachesItsWindow() throws {
        let server = try TestServer(headless: Self.twoOutputs)
        let client = try TestClient(socket: server.socket)
        let outputs = Self.outputs(of: client)
        try #require(Set(outputs.keys) == ["HEADLESS-1", "HEADLESS-2"])
        #expect(client.outputModes[outputs["HEADLESS-2"]!]! == (800, 480))
        let left = try client.toplevel(width: 300, height: 200, at: (100, 100))
        let right = try client.toplevel(width: 300, height: 200, at: (1280 + 100, 100))
        try client.roundtrip()
        #expect(left.outputs == [outputs["HEADLESS-1"]!])
        #expect(right.outputs == [outputs["HEADLESS-2"]!])
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(1280 + 150), f(120))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(right.surface), id: 1, x: f(50), y: f(20)), .touchFrame])
    }

    @Test func aWindowAcrossTheBoundaryIsOnBothOutputs() throws {
        let server = try TestServer(headless: Self.twoOutputs)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 300, height: 200, at: (1200, 0))
        try client.roundtrip()
        #expect(Set(window.outputs) == Set(client.outputs))
    }

    /// The second output goes: the client sees its global go, the window on it moves to the
    /// first output at the same place within it, leaves the old output and enters the new,
    /// and a touch there reaches it.
    @Test func anOutputRemovedAtRunTimeMovesItsWindowsAndClientsSeeItGo() throws {
        let server = try TestServer(headless: Self.twoOutputs)
        let client = try TestClient(socket: server.socket)
        let outputs = Self.outputs(of: client)
        let window = try client.toplevel(width: 300, height: 200, at: (1280 + 100, 100))
        try client.roundtrip()
        server.onServerThread { _, backend in backend.removeOutput(backend.outputs[1]) }
        try client.roundtrip()
        #expect(client.removedGlobals == [client.outputGlobals[outputs["HEADLESS-2"]!]!])
        #expect(window.outputs == [outputs["HEADLESS-1"]!])
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(150), f(120))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(window.surface), id: 1, x: f(50), y: f(20)), .touchFrame])
        // Nothing is left where the output was.
        #expect(try client.surfaceHit(at: 1280 + 150, 120) == nil)
    }

    /// In kiosk mode a window fills its output; when that output goes, it moves to the one
    /// left and is told that output's size.
    @Test func aKioskWindowWhoseOutputGoesIsReconfiguredForTheOutputLeft() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true), headless: Self.twoOutputs)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 1280, height: 800)
        try client.roundtrip()
        #expect(window.configuredSize! == (1280, 800))
        server.onServerThread { _, backend in backend.removeOutput(backend.outputs[0]) }
        try client.roundtrip()
        #expect(window.configuredSize! == (800, 480))
        #expect(window.outputs == Self.outputs(of: client)["HEADLESS-2"].map { [$0] })
    }

    /// A kiosk with two screens runs an app on each: the second toplevel goes to the second
    /// output and is told its size; a third goes back to the first.
    @Test func kioskToplevelsTakeTheOutputsInTurn() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true), headless: Self.twoOutputs)
        let client = try TestClient(socket: server.socket)
        let outputs = Self.outputs(of: client)
        let first = try client.toplevel(width: 100, height: 100)
        let second = try client.toplevel(width: 100, height: 100)
        let third = try client.toplevel(width: 100, height: 100)
        try client.roundtrip()
        #expect(first.configuredSize! == (1280, 800) && first.outputs == [outputs["HEADLESS-1"]!])
        #expect(second.configuredSize! == (800, 480) && second.outputs == [outputs["HEADLESS-2"]!])
        #expect(third.outputs == [outputs["HEADLESS-1"]!])
    }

    /// A screen plugged in: clients see a new wl_output, and a window placed on it is there.
    @Test func anOutputAddedAtRunTimeIsAnnouncedAndTakesWindows() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        try #require(client.outputs.count == 1)
        server.onServerThread { _, backend in backend.addOutput(size: Size(width: 640, height: 480)) }
        // One round trip hears the new global and binds it; the second brings the bound
        // output's name and mode, which the server sends only in answer to the bind.
        try client.roundtrip()
        try client.roundtrip()
        let added = try #require(Self.outputs(of: client)["HEADLESS-2"])
        #expect(try #require(client.outputModes[added]) == (640, 480))
        let window = try client.toplevel(width: 100, height: 100, at: (1280 + 10, 10))
        try client.roundtrip()
        #expect(window.outputs == [added])
    }
}
