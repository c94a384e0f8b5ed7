import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Pens as tablet-v2 clients hear them (zwp_tablet_manager_v2): a client with a tablet seat
/// gets the pen over its window as a tool, with pressure and tilt, and never as its pointer;
/// a client without one still gets the pointer.
@Suite struct TabletOverTheWireTests {
    static let pen: Int32 = 2

    /// A server, a client injecting input, and alice: a client with a tablet seat and a
    /// window at (0, 0).
    struct TabletDesk {
        let server: TestServer
        let injector: TestClient
        let alice: TestClient
        let heard: TabletSeatLog
        let window: Window

        init(_ configuration: ServerConfiguration = ServerConfiguration(), width: Int32 = 300, height: Int32 = 200) throws {
            server = try TestServer(configuration)
            injector = try TestClient(socket: server.socket, devices: [])
            alice = try TestClient(socket: server.socket)
            heard = try TabletSeatLog(of: alice)
            window = try alice.toplevel(width: width, height: height, at: (0, 0))
            try alice.roundtrip()
        }
    }

    /// alice has a tablet seat; bob none. A stroke on alice's window with pressure, tilt and
    /// the barrel button reaches her as the tool, the whole stroke (the part over bob's
    /// window too); bob's pointer hears the pen once it hovers over his window.
    @Test(arguments: [false, true])
    func aTabletClientHearsThePenAsAToolAndOthersAsThePointer(kiosk: Bool) throws {
        let desk = try TabletDesk(ServerConfiguration(kioskMode: kiosk))
        let (injector, alice, heard) = (desk.injector, desk.alice, desk.heard)
        let a = desk.window
        #expect(heard.lines == [], "no tool before a pen was seen: \(heard.lines)")
        // In kiosk mode alice fills the screen: the pen starts on her window either way.
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(50), f(60))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(60), f(70), f(0.5), f(30), f(-10))
            tactile_test_input_v1_pen_button(input, Self.pen, 0x14b, 1)
            tactile_test_input_v1_pen_button(input, Self.pen, 0x14b, 0)
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
        }
        try alice.roundtrip()
        #expect(heard.lines == [
            "tablet Tactile pen input", "tablet done",
            "type 0x140", "capability 1", "capability 2", "done",
            "proximity_in", "motion 50.0 60.0", "pressure 0", "tilt 0.0 0.0", "frame",
            "down", "frame",
            "motion 60.0 70.0", "pressure 32768", "tilt 30.0 -10.0", "frame",
            "button 0x14b 1", "frame", "button 0x14b 0", "frame",
            "up", "frame",
            "proximity_out", "frame",
        ])
        #expect(heard.surfaces == [a.surface])
        #expect(!alice.take().contains { if case .pointerButton = $0 { true } else { false } }, "alice's pointer heard no tip")
    }

    /// A client without a tablet seat beside one with: the pen over its window is its
    /// pointer; over the tablet client's, it is that client's tool, and the pointer stays
    /// where the pen left it (over bob's window, which keeps its focus).
    @Test func aClientWithoutATabletSeatStillGetsThePointer() throws {
        let server = try TestServer()
        let injector = try TestClient(socket: server.socket, devices: [])
        let alice = try TestClient(socket: server.socket)
        let bob = try TestClient(socket: server.socket)
        let heard = try TabletSeatLog(of: alice)
        _ = try alice.toplevel(width: 200, height: 200, at: (0, 0))
        let b = try bob.toplevel(width: 200, height: 200, at: (300, 0))
        for client in [alice, bob] { try client.roundtrip(); _ = client.take() }
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(350), f(50))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(100), f(50), f(0), f(0), f(0))
        }
        for client in [alice, bob] { try client.roundtrip() }
        let bobs = bob.take()
        #expect(bobs.contains(.pointerEnter(surface: bob.id(b.surface), x: f(50), y: f(50))))
        #expect(bobs.contains(.pointerButton(button: 0x110, state: 1)) && bobs.contains(.pointerButton(button: 0x110, state: 0)))
        #expect(!bobs.contains { if case .pointerLeave = $0 { true } else { false } }, "the pointer stayed on bob's window")
        #expect(Array(heard.lines.drop { $0 != "proximity_in" }) == ["proximity_in", "motion 100.0 50.0", "pressure 0", "tilt 0.0 0.0", "frame"],
                "alice hears the tool: \(heard.lines)")
        #expect(!alice.take().contains { if case .pointerEnter = $0 { true } else { false } }, "alice's pointer did not enter")
    }

    /// A source numbering a new pen for every stroke (test input takes the client's numbers)
    /// makes Tactile keep no more than 32 tools: past that the oldest is removed, and the
    /// newest still reaches the client.
    @Test func theToolsKeptAreBounded() throws {
        let desk = try TabletDesk(width: 200, height: 200)
        let (injector, alice, heard) = (desk.injector, desk.alice, desk.heard)
        try injector.inject { input in
            for pen in Int32(100)..<140 {
                tactile_test_input_v1_pen_proximity_in(input, pen, f(50), f(50))
                tactile_test_input_v1_pen_proximity_out(input, pen)
            }
        }
        try alice.roundtrip()
        #expect(heard.lines.filter { $0 == "type 0x140" }.count == 40)
        #expect(heard.lines.filter { $0 == "removed" }.count == 8)
        #expect(Array(heard.lines.suffix(7)) == ["proximity_in", "motion 50.0 50.0", "pressure 0", "tilt 0.0 0.0", "frame", "proximity_out", "frame"],
                "the 40th pen still reached alice: \(heard.lines.suffix(8))")
    }

    /// An edge swipe configured for pens (`input-types: [touch, pen]`) wins a stroke from the
    /// left edge: the tablet client hears up and proximity_out and nothing more of it, and the
    /// trace names the claim.
    @Test func aGestureThatTakesPensEndsTheStrokeWithProximityOut() throws {
        let edge = GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left), options: GestureOptions(inputTypes: [.touch, .pen]))
        let server = try TestServer(ServerConfiguration(gestures: [edge]))
        let trace = TraceOverTheWireTests.Lines(server)
        let injector = try TestClient(socket: server.socket, devices: [])
        let alice = try TestClient(socket: server.socket)
        let heard = try TabletSeatLog(of: alice)
        _ = try alice.toplevel(width: 400, height: 300, at: (0, 0))
        try alice.roundtrip()
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(5), f(100))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(40), f(100), f(0.5), f(0), f(0))
            tactile_test_input_v1_pen_motion(input, Self.pen, f(120), f(100), f(0.5), f(0), f(0))
            tactile_test_input_v1_pen_motion(input, Self.pen, f(200), f(100), f(0.5), f(0), f(0))
        }
        try alice.roundtrip()
        let stroke = Array(heard.lines.drop { $0 != "down" })
        #expect(stroke == ["down", "frame", "motion 40.0 100.0", "pressure 32768", "frame", "up", "proximity_out", "frame"], "\(heard.lines)")
        #expect(trace.take().contains { $0.contains("pen \(Self.pen) claimed gesture=edge proximity-out") })
    }

    /// Palm rejection with a client nobody here wrote: weston-simple-touch, which has no
    /// tablet seat (the pen over it drives the pointer), in kiosk and desktop mode. A touch
    /// while the pen hovers over it, then the tip: that touch never reaches it. With the pen
    /// gone, the next touch does.
    @Test(arguments: [false, true])
    func westonSimpleTouchNeverHearsThePalm(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try ClientProcess(["weston-simple-touch"], socket: server.socket, protocolLog: true)
        defer { client.stop() }
        try client.waitUntil(".down(", within: 30) { try injector.tap(2, 2) }
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(40), f(40))
            tactile_test_input_v1_touch_down(input, 5, f(100), f(120))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_touch_motion(input, 5, f(110), f(120))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 5)
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
            tactile_test_input_v1_touch_down(input, 6, f(130), f(140))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 6)
            tactile_test_input_v1_touch_frame(input)
        }
        let log = try client.waitForOutput(containing: ", 6, 130.00000000, 140.00000000)")
        #expect(!log.contains(", 5, 100.00000000, 120.00000000)"), "the palm never reached it")
        #expect(client.isRunning)
    }

    /// GTK 3 binds a tablet seat: gtk3-demo hears the pen as a tool (WAYLAND_DEBUG shows the
    /// tool's events), in a kiosk and outside one, and no pointer button for the tip.
    @Test(arguments: [false, true])
    func gtk3DemoHearsThePenAsATool(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try ClientProcess(["gtk3-demo"], socket: server.socket, protocolLog: true, environment: ["GDK_BACKEND": "wayland"])
        defer { client.stop() }
        try client.waitForOutput(containing: ".attach(wl_buffer@", within: 30)
        try client.waitForOutput(containing: "get_tablet_seat(")
        try client.waitUntil("zwp_tablet_tool_v2@", within: 30) {
            try injector.inject { input in
                tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(120), f(120))
                tactile_test_input_v1_pen_proximity_out(input, Self.pen)
            }
        }
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(150), f(150))
            tactile_test_input_v1_pen_tip(input, Self.pen, 1)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(160), f(150), f(0.25), f(5), f(5))
            tactile_test_input_v1_pen_tip(input, Self.pen, 0)
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
        }
        let log = try client.waitForOutput(containing: ".up()", within: 10)
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.type\\(320\\)")))
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.proximity_in\\(")))
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.down\\(")))
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.pressure\\(16384\\)")))
        #expect(!log.contains(try Regex("wl_pointer@[0-9]+\\.button\\(")), "the tip was no pointer button")
        #expect(client.isRunning)
    }

    /// gtk4-demo's Paint demo, drawn (on the cairo renderer, as no GPU is assumed) and with
    /// its tablet seat bound; its WAYLAND_DEBUG log is its output.
    static func gtk4Paint(on server: TestServer) throws -> ClientProcess {
        let client = try ClientProcess(["gtk4-demo", "--run=paint"], socket: server.socket, protocolLog: true,
                                       environment: ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"])
        try client.waitForOutput(containing: ".attach(wl_buffer@", within: 30)
        try client.waitForOutput(containing: "get_tablet_seat(")
        return client
    }

    /// GTK 4's Paint demo draws only what a tablet tool gives it (GtkGestureStylus), with a
    /// line as wide and as dark as the tool's pressure: a firm stroke and a light one, in a
    /// kiosk and outside one, are both drawn, the firm one wider and darker.
    @Test(arguments: [false, true])
    func gtk4PaintDrawsWithThePensPressure(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try Self.gtk4Paint(on: server)
        defer { client.stop() }
        Thread.sleep(forTimeInterval: 1)
        // Both strokes run across the drawing area of the window, placed at the top left
        // (about (15, 60) to (290, 258)) outside a kiosk, and full screen in one.
        let strokes = [(y: 150.0, pressure: 1.0), (y: 210.0, pressure: 0.25)]
        for stroke in strokes {
            try injector.inject { input in
                tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(60), f(stroke.y))
                tactile_test_input_v1_pen_motion(input, Self.pen, f(60), f(stroke.y), f(stroke.pressure), f(0), f(0))
                tactile_test_input_v1_pen_tip(input, Self.pen, 1)
                for x in stride(from: 60.0, through: 240, by: 20) {
                    tactile_test_input_v1_pen_motion(input, Self.pen, f(x), f(stroke.y), f(stroke.pressure), f(0), f(0))
                }
                tactile_test_input_v1_pen_tip(input, Self.pen, 0)
                tactile_test_input_v1_pen_proximity_out(input, Self.pen)
            }
        }
        let log = try client.waitForOutput(containing: ".up()", after: ".up()", within: 10)
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.pressure\\(65535\\)")))
        #expect(log.contains(try Regex("zwp_tablet_tool_v2@[0-9]+\\.pressure\\(16384\\)")))
        // The demo draws on the next frame; the column at x 150 crosses both strokes.
        Thread.sleep(forTimeInterval: 1)
        let shot = try Screenshot(socket: server.socket)
        func shades(around y: Double) -> [Int] {
            (Int(y) - 6...Int(y) + 6).map { row in Int(shot.colour(at: 150, row) & 0xff) }
        }
        let firm = shades(around: strokes[0].y), light = shades(around: strokes[1].y)
        #expect(firm.filter { $0 < 64 }.count >= 3, "the firm stroke: a dark line 4 pixels wide: \(firm)")
        #expect(light.allSatisfy { $0 >= 64 } && light.contains { $0 < 240 }, "the light stroke: a faint line: \(light)")
        #expect(shades(around: 180).allSatisfy { $0 > 240 }, "between the strokes, the white of the drawing area")
        #expect(client.isRunning)
    }

    static let pad: Int32 = 5

    /// A pad (test input's: 4 buttons, a ring, a strip) is described to a tablet seat when
    /// first used, enters the surface with the keyboard focus, and passes on its buttons,
    /// ring and strip, each with its frame; a button the pad does not have is not heard. In
    /// a kiosk and outside one.
    @Test(arguments: [false, true])
    func aPadGoesToTheFocusedWindow(kiosk: Bool) throws {
        let desk = try TabletDesk(ServerConfiguration(kioskMode: kiosk))
        let (injector, alice, heard) = (desk.injector, desk.alice, desk.heard)
        let a = desk.window
        try injector.tap(50, 50)
        try injector.inject { input in
            tactile_test_input_v1_pad_button(input, Self.pad, 1, 1)
            tactile_test_input_v1_pad_button(input, Self.pad, 1, 0)
            tactile_test_input_v1_pad_button(input, Self.pad, 9, 1)
            tactile_test_input_v1_pad_ring(input, Self.pad, 0, f(-90), 1)
            tactile_test_input_v1_pad_ring(input, Self.pad, 0, f(0), 0)
            tactile_test_input_v1_pad_strip(input, Self.pad, 0, f(0.25), 1)
            tactile_test_input_v1_pad_strip(input, Self.pad, 0, f(0), 0)
        }
        try alice.roundtrip()
        #expect(heard.lines == [
            "tablet Tactile pad input", "tablet done",
            "pad", "pad buttons 4", "group", "group buttons [0, 1, 2, 3]", "ring", "strip", "modes 1", "group done", "pad done",
            "pad enter", "pad button 1 1", "pad button 1 0",
            "ring source 1", "ring angle 270.0", "ring frame", "ring source 1", "ring stop", "ring frame",
            "strip source 1", "strip position 16384", "strip frame", "strip source 1", "strip stop", "strip frame",
        ])
        #expect(heard.surfaces == [a.surface])
    }

    /// The keyboard focus moves from alice's window to bob's: at the pad's next use it leaves
    /// alice's window and enters bob's, and only bob hears it then.
    @Test func thePadFollowsTheKeyboardFocusFromClientToClient() throws {
        let server = try TestServer()
        let injector = try TestClient(socket: server.socket, devices: [])
        let alice = try TestClient(socket: server.socket), bob = try TestClient(socket: server.socket)
        let heardA = try TabletSeatLog(of: alice), heardB = try TabletSeatLog(of: bob)
        _ = try alice.toplevel(width: 200, height: 200, at: (0, 0))
        let b = try bob.toplevel(width: 200, height: 200, at: (300, 0))
        for client in [alice, bob] { try client.roundtrip() }
        try injector.tap(50, 50)
        try injector.inject { tactile_test_input_v1_pad_button($0, Self.pad, 0, 1); tactile_test_input_v1_pad_button($0, Self.pad, 0, 0) }
        try injector.tap(350, 50)
        try injector.inject { tactile_test_input_v1_pad_button($0, Self.pad, 2, 1) }
        for client in [alice, bob] { try client.roundtrip() }
        #expect(Array(heardA.lines.drop { $0 != "pad enter" }) == ["pad enter", "pad button 0 1", "pad button 0 0", "pad leave"], "\(heardA.lines)")
        #expect(Array(heardB.lines.drop { $0 != "pad enter" }) == ["pad enter", "pad button 2 1"], "\(heardB.lines)")
        #expect(heardB.surfaces == [b.surface])
    }

    /// GTK 4 binds pads: gtk4-demo hears the pad described, entering its window and its
    /// button (WAYLAND_DEBUG), in a kiosk and outside one.
    @Test(arguments: [false, true])
    func gtk4DemoHearsThePad(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let injector = try TestClient(socket: server.socket, devices: [])
        let client = try Self.gtk4Paint(on: server)
        defer { client.stop() }
        try injector.tap(100, 150)
        try client.waitUntil("zwp_tablet_pad_v2@", within: 30) {
            try injector.inject { tactile_test_input_v1_pad_button($0, Self.pad, 0, 1); tactile_test_input_v1_pad_button($0, Self.pad, 0, 0) }
        }
        let log = try client.waitForOutput(containing: ".button(", after: ".enter(", within: 10)
        #expect(log.contains(try Regex("zwp_tablet_pad_v2@[0-9]+\\.buttons\\(4\\)")))
        #expect(log.contains(try Regex("zwp_tablet_pad_group_v2@[0-9]+\\.modes\\(1\\)")))
        #expect(log.contains(try Regex("zwp_tablet_pad_v2@[0-9]+\\.enter\\([0-9]+, zwp_tablet_v2@[0-9]+, wl_surface@[0-9]+\\)")))
        #expect(log.contains(try Regex("zwp_tablet_pad_v2@[0-9]+\\.button\\([0-9]+, 0, 1\\)")))
        #expect(client.isRunning)
    }

    /// A pen near a tablet client draws a cursor at its tip (the cursor shows as a pen
    /// hovers, as for a mouse): Tactile's arrow until the client sets the tool's cursor with
    /// its proximity_in's serial, then that surface at its hotspot; a stale serial changes
    /// nothing; a nil surface hides it; once the pen leaves, no cursor is drawn there.
    @Test func aToolsCursorFollowsThePen() throws {
        let server = try TestServer()
        let injector = try TestClient(socket: server.socket, devices: [])
        let alice = try TestClient(socket: server.socket)
        let heard = try TabletSeatLog(of: alice)
        let window = try alice.toplevel(width: 400, height: 300, at: (0, 0))
        try alice.commitBuffer(window.surface, width: 400, height: 300, colour: 0xff20_4060)
        try alice.roundtrip()
        try injector.inject { tactile_test_input_v1_pen_proximity_in($0, Self.pen, f(200), f(150)) }
        try alice.roundtrip()
        var shot = try Screenshot(socket: server.socket, cursor: true)
        #expect(shot.colour(at: 200, 150) == 0x00_0000 && shot.colour(at: 201, 153) == 0xff_ffff, "the arrow's tip at the pen")

        let tool = try #require(heard.tools.first), serial = try #require(heard.proximitySerials.last)
        let cursor = wl_compositor_create_surface(alice.compositor)!
        zwp_tablet_tool_v2_set_cursor(tool, serial &+ 1000, cursor, 4, 4)
        try alice.commitBuffer(cursor, width: 10, height: 10, colour: 0xffff_00ff)
        try alice.roundtrip()
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 201, 153) == 0xff_ffff, "a stale serial changed nothing")
        zwp_tablet_tool_v2_set_cursor(tool, serial, cursor, 4, 4)
        try alice.roundtrip()
        try injector.inject { tactile_test_input_v1_pen_motion($0, Self.pen, f(300), f(100), f(0), f(0), f(0)) }
        try alice.roundtrip()
        shot = try Screenshot(socket: server.socket, cursor: true)
        #expect(shot.colour(at: 300, 100) == 0xff_00ff && shot.colour(at: 296, 96) == 0xff_00ff && shot.colour(at: 305, 105) == 0xff_00ff,
                "the tool's cursor, its hotspot on the pen")
        #expect(shot.colour(at: 294, 100) == 0x20_4060 && shot.colour(at: 201, 153) == 0x20_4060, "nothing left of it, nor where the pen was")

        zwp_tablet_tool_v2_set_cursor(tool, serial, nil, 0, 0)
        try alice.roundtrip()
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 300, 100) == 0x20_4060, "hidden")
        zwp_tablet_tool_v2_set_cursor(tool, serial, cursor, 4, 4)
        try injector.inject { tactile_test_input_v1_pen_proximity_out($0, Self.pen) }
        try alice.roundtrip()
        #expect(try Screenshot(socket: server.socket, cursor: true).colour(at: 300, 100) == 0x20_4060, "gone with the pen")
    }

    /// A pen described as an airbrush sensing every axis (test input's pen_describe, as a
    /// backend describes its pens) comes with its capabilities, and its motions carry the
    /// rotation (brought into 0..<360), the slider (-65535 to 65535, clamped) and each turn
    /// of its wheel, a turn sent once, with the same position and axes again heard anew.
    @Test func everyAxisPassesThroughInItsProtocolUnits() throws {
        let desk = try TabletDesk()
        let (injector, alice, heard) = (desk.injector, desk.alice, desk.heard)
        try injector.inject { input in
            tactile_test_input_v1_pen_describe(input, Self.pen, 0x144, 0b111_1110)
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(50), f(60))
            tactile_test_input_v1_pen_motion_axes(input, Self.pen, f(50), f(60), f(0.5), f(0), f(0), f(0.25), f(-90), f(2), f(15), 1)
            tactile_test_input_v1_pen_motion_axes(input, Self.pen, f(50), f(60), f(0.5), f(0), f(0), f(0.25), f(-90), f(2), f(15), 1)
            tactile_test_input_v1_pen_motion_axes(input, Self.pen, f(50), f(60), f(0.5), f(0), f(0), f(0.25), f(-90), f(2), f(0), 0)
        }
        try alice.roundtrip()
        #expect(Array(heard.lines.drop { $0 != "type 0x144" }.prefix(8)) == [
            "type 0x144", "capability 1", "capability 2", "capability 3", "capability 4", "capability 5", "capability 6", "done",
        ])
        #expect(Array(heard.lines.drop { $0 != "proximity_in" }) == [
            "proximity_in", "motion 50.0 60.0", "pressure 0", "distance 0", "tilt 0.0 0.0", "rotation 0.0", "slider 0", "frame",
            "motion 50.0 60.0", "pressure 32768", "distance 16384", "rotation 270.0", "slider 65535", "wheel 15.0 1", "frame",
            "motion 50.0 60.0", "wheel 15.0 1", "frame",
        ], "the third motion, which neither moved nor turned, is not heard: \(heard.lines)")
    }

    /// A pen described anew while near keeps its tool until it leaves (a tool replaced
    /// mid-stroke would hear the rest without proximity_in); then clients get the new tool.
    /// A tablet seat bound while the pen is near hears nothing of it until its next proximity.
    @Test func aToolChangesOnlyWhileItsPenIsAway() throws {
        let desk = try TabletDesk()
        let (injector, alice, heard) = (desk.injector, desk.alice, desk.heard)
        try injector.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, Self.pen, f(50), f(60))
            tactile_test_input_v1_pen_describe(input, Self.pen, 0x141, 0b110)
            tactile_test_input_v1_pen_motion(input, Self.pen, f(51), f(60), f(0), f(0), f(0))
        }
        try alice.roundtrip()
        let late = try TabletSeatLog(of: alice)
        try injector.inject { input in
            tactile_test_input_v1_pen_motion(input, Self.pen, f(52), f(60), f(0), f(0), f(0))
            tactile_test_input_v1_pen_proximity_out(input, Self.pen)
        }
        try alice.roundtrip()
        #expect(Array(heard.lines.drop { $0 != "proximity_in" }) == [
            "proximity_in", "motion 50.0 60.0", "pressure 0", "tilt 0.0 0.0", "frame", "motion 51.0 60.0", "frame", "motion 52.0 60.0", "frame",
            "proximity_out", "frame", "removed", "tablet removed", "tablet Tactile pen input", "tablet done", "type 0x141", "capability 1", "capability 2", "done",
        ], "\(heard.lines)")
        #expect(!late.lines.contains { $0.hasPrefix("motion") || $0.hasPrefix("proximity") }, "the late seat heard nothing of the stroke: \(late.lines)")
    }
}
