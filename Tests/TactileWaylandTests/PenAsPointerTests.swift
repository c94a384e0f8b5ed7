import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// A pen reaches clients without a tablet seat as the pointer (tablet-v2's guidance for
/// them): hovering moves the pointer, the tip is the left button, a stroke stays with the
/// window it started on.
@Suite struct PenAsPointerTests {
    static let pen: Int32 = 3

    /// A stroke from one client's window across another's: the first client gets the whole
    /// stroke as a press, motions outside its window and the release; the second nothing
    /// until the pen lifts over it.
    @Test func aPenStrokeStaysWithTheWindowItStartedOn() throws {
        let server = try TestServer()
        let injector = try TestClient(socket: server.socket, devices: [])
        let alice = try TestClient(socket: server.socket)
        let bob = try TestClient(socket: server.socket)
        let a = try alice.toplevel(width: 200, height: 200, at: (0, 0))
        let b = try bob.toplevel(width: 200, height: 200, at: (300, 0))
        for client in [alice, bob] { try client.roundtrip(); _ = client.take() }
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(50), f(60))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(350), f(60), f(0.8), f(10), f(-5))
        }
        for client in [alice, bob] { try client.roundtrip() }
        let stroke = alice.take().filter { if case .pointerFrame = $0 { false } else { true } }
        #expect(stroke == [
            .pointerEnter(surface: alice.id(a.surface), x: f(50), y: f(60)),
            .pointerButton(button: 0x110, state: 1),
            .pointerMotion(x: f(350), y: f(60)),
        ])
        #expect(!bob.take().contains { if case .pointerEnter = $0 { true } else { false } }, "the stroke stayed with alice")
        try injector.inject { input in
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
        }
        for client in [alice, bob] { try client.roundtrip() }
        #expect(alice.take().contains(.pointerButton(button: 0x110, state: 0)))
        #expect(bob.take().contains(.pointerEnter(surface: bob.id(b.surface), x: f(50), y: f(60))), "lifted over bob's window")
    }

    /// wev, which knows nothing of tablets, in kiosk and desktop mode: a pen's hover, tap and
    /// barrel button arrive as pointer motion and the left and right buttons.
    @Test(arguments: [false, true])
    func wevGetsAPenAsThePointer(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let wev = try ClientProcess(["stdbuf", "-oL", "wev"], socket: server.socket)
        defer { wev.stop() }
        try wev.waitUntil("wl_pointer] enter") {
            try injector.inject { input in
                tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(40), f(30))
                tactile_test_input_v1_pen_proximity_out(input, Self.pen)
            }
        }
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(40.5), f(30))
            tactile_test_input_v1_pen_motion(input, Self.pen, f(41.25), f(31), f(0), f(0), f(0))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_button(input, Self.pen, 0x14b, 1)
            tactile_test_input_v1_pen_button(input, Self.pen, 0x14b, 0)
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
        }
        let output = try wev.waitForOutput(containing: "button: 273 (right), state: 0 (released)")
        #expect(output.contains("x, y: 41.250000, 31.000000"))
        #expect(output.contains("button: 272 (left), state: 1 (pressed)") && output.contains("button: 272 (left), state: 0 (released)"))
        #expect(output.contains("button: 273 (right), state: 1 (pressed)"))
    }
}
