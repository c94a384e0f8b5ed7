import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// The core and xdg-shell versions newer than Debian 12's libwayland: wl_compositor 6
/// (preferred buffer scale and transform), wl_seat 9 (scroll direction), xdg_wm_base 6
/// (suspended) and 7 (constrained edges), each heard by a client binding that version with
/// the newer tables, as GTK 4.14+, Qt 6.7+ and Chromium do.
@Suite(.serialized) struct CoreVersionTests {
    /// What a wl_surface of version 6 heard, in order.
    final class SurfaceEvents {
        var heard: [String] = []
        nonisolated(unsafe) static let listener: UnsafeMutablePointer<tactile_client_surface_listener_v6> = {
            let pointer = UnsafeMutablePointer<tactile_client_surface_listener_v6>.allocate(capacity: 1)
            pointer.initialize(to: tactile_client_surface_listener_v6(
                enter: { data, _, _ in events(data).heard.append("enter") },
                leave: { data, _, _ in events(data).heard.append("leave") },
                preferred_buffer_scale: { data, _, factor in events(data).heard.append("scale \(factor)") },
                preferred_buffer_transform: { data, _, transform in events(data).heard.append("transform \(transform)") }
            ))
            return pointer
        }()

        static func events(_ data: UnsafeMutableRawPointer?) -> SurfaceEvents { Unmanaged.fromOpaque(data!).takeUnretainedValue() }

        /// Takes what was heard since the last call.
        func take() -> [String] {
            defer { heard.removeAll() }
            return heard
        }
    }

    /// wl_compositor bound at version 6 with the newer tables, and a surface made on it.
    static func surfaceV6(_ client: TestClient, events: SurfaceEvents) throws -> OpaquePointer {
        let name = try #require(client.registryNames["wl_compositor"])
        #expect(client.globals["wl_compositor"] == 6)
        let compositor = OpaquePointer(wl_registry_bind(client.registry, name, tactile_wl_compositor_interface(), 6))
        let surface = try #require(tactile_client_create_surface_v6(compositor))
        tactile_client_surface_add_listener_v6(surface, SurfaceEvents.listener, Unmanaged.passUnretained(events).toOpaque())
        try client.roundtrip()
        return surface
    }

    /// A 1000 × 800 output at scale 2 (500 × 400 logical, at 0,0) and an 800 × 600 one turned
    /// a quarter (600 × 800 logical) to its right.
    static func twoScreens() throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.outputs = [OutputSettings(name: "HEADLESS-1", scale: 2), OutputSettings(name: "HEADLESS-2", transform: .rotated90)]
        return try TestServer(configuration, headless: .init(outputs: [Size(width: 1000, height: 800), Size(width: 800, height: 600)]))
    }

    @Test func aSurfaceIsToldTheScaleAndTransformOfWhereItIsAndHearsThemChangeAsItMoves() throws {
        let server = try Self.twoScreens()
        let client = try TestClient(socket: server.socket)
        let events = SurfaceEvents()
        let surface = try Self.surfaceV6(client, events: events)
        #expect(events.take() == ["scale 2", "transform 0"], "before it maps: the first output's, so its first buffer suits")

        let window = try client.toplevel(width: 100, height: 100, at: (10, 10), surface: surface)
        try client.roundtrip()
        #expect(events.take() == ["enter"], "on the first output: nothing new to say")

        tactile_test_input_v1_move_toplevel(client.testInput, window.surface, 600, 10)
        try client.roundtrip()
        #expect(events.take() == ["leave", "enter", "scale 1", "transform 1"], "on the turned output: scale 1, turned 90")

        // Across both, the larger scale; the transform of the one it mostly covers.
        tactile_test_input_v1_move_toplevel(client.testInput, window.surface, 480, 10)
        try client.roundtrip()
        #expect(events.take() == ["enter", "scale 2"], "on both, mostly on the turned one")
        tactile_test_input_v1_move_toplevel(client.testInput, window.surface, 420, 10)
        try client.roundtrip()
        #expect(events.take() == ["transform 0"], "still on both, now mostly on the first")
    }

    /// wlr-randr turns the output under a window: the window hears the new transform.
    @Test func aTransformSetAtRunTimeIsTold() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 800, height: 600)]))
        let client = try TestClient(socket: server.socket)
        let events = SurfaceEvents()
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0), surface: try Self.surfaceV6(client, events: events))
        try client.roundtrip()
        #expect(events.take() == ["scale 1", "transform 0", "enter"])
        let result = try runProcess("/usr/bin/wlr-randr", ["--output", "HEADLESS-1", "--transform", "270", "--scale", "2"],
                                    environment: ["WAYLAND_DISPLAY": server.socket, "XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(result.status == 0, "\(result.output)")
        try client.roundtrip()
        #expect(events.take() == ["scale 2", "transform 3"])
        _ = window
    }

    /// A window wholly under an opaque one is suspended, and hears it is not once uncovered;
    /// a translucent window over it, or a part left uncovered, keeps it shown; a screen
    /// put to sleep suspends every window on it.
    @Test func aCoveredWindowIsSuspendedUntilItShowsAgain() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 800, height: 600)]))
        let client = try TestClient(socket: server.socket)
        let suspended = XDG_TOPLEVEL_STATE_SUSPENDED.rawValue
        let below = try client.toplevel(width: 200, height: 200, at: (50, 50))
        try client.commitBuffer(below.surface, width: 200, height: 200, colour: 0xff20_c020)
        try client.roundtrip()
        try client.roundtrip()  // windows hear whether they show after the repaint the first one caused
        #expect(!below.configuredStates.contains(suspended))

        let cover = try client.toplevel(width: 400, height: 400, at: (0, 0))
        try client.commitBuffer(cover.surface, width: 400, height: 400, colour: 0x8020_2080)
        try client.roundtrip()
        try client.roundtrip()  // windows hear whether they show after the repaint the first one caused
        #expect(!below.configuredStates.contains(suspended), "a translucent window over it, saying nothing is opaque: it still shows")

        // Opaque pixels in an ARGB buffer hide nothing until the client says they are opaque.
        let opaque = wl_compositor_create_region(client.compositor)
        wl_region_add(opaque, 0, 0, 400, 400)
        wl_surface_set_opaque_region(cover.surface, opaque)
        try client.commitBuffer(cover.surface, width: 400, height: 400, colour: 0xff20_2080)
        try client.roundtrip()
        try client.roundtrip()
        #expect(below.configuredStates.contains(suspended), "wholly under an opaque window: \(below.configuredStates)")
        #expect(!cover.configuredStates.contains(suspended))

        tactile_test_input_v1_move_toplevel(client.testInput, cover.surface, 100, 0)
        try client.roundtrip()
        try client.roundtrip()  // windows hear whether they show after the repaint the first one caused
        #expect(!below.configuredStates.contains(suspended), "a strip of it shows again: \(below.configuredStates)")

        let power = try IdleTests.watchPower(client)
        zwlr_output_power_v1_set_mode(power, 0)
        try client.roundtrip()
        try client.roundtrip()
        #expect(below.configuredStates.contains(suspended) && cover.configuredStates.contains(suspended), "the screen sleeps")
        zwlr_output_power_v1_set_mode(power, 1)
        try client.roundtrip()
        try client.roundtrip()  // windows hear whether they show after the repaint the first one caused
        #expect(!below.configuredStates.contains(suspended) && !cover.configuredStates.contains(suspended), "and wakes")
    }

    /// A window whose own surface lies under an opaque window but whose subsurface sticks out
    /// beside it still shows: it is not suspended until the subsurface is covered too.
    @Test func aSubsurfaceThatShowsKeepsItsWindowShown() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 800, height: 600)]))
        let client = try TestClient(socket: server.socket)
        let suspended = XDG_TOPLEVEL_STATE_SUSPENDED.rawValue
        let below = try client.toplevel(width: 200, height: 200, at: (50, 50))
        let child = try client.subsurface(of: below.surface, width: 100, height: 100)
        wl_subsurface_set_position(child.role, 400, 0)
        try client.commitBuffer(below.surface, width: 200, height: 200, colour: 0xff20_c020)
        let cover = try client.toplevel(width: 400, height: 400, at: (0, 0))
        let opaque = wl_compositor_create_region(client.compositor)
        wl_region_add(opaque, 0, 0, 400, 400)
        wl_surface_set_opaque_region(cover.surface, opaque)
        try client.commitBuffer(cover.surface, width: 400, height: 400, colour: 0xff20_2080)
        try client.roundtrip()
        try client.roundtrip()  // windows hear whether they show after the repaint the first one caused
        #expect(!below.configuredStates.contains(suspended), "its subsurface at (450, 50) shows beside the cover: \(below.configuredStates)")

        tactile_test_input_v1_move_toplevel(client.testInput, cover.surface, 0, 0)
        wl_subsurface_set_position(child.role, 100, 0)
        wl_surface_commit(below.surface)
        try client.roundtrip()
        try client.roundtrip()
        #expect(below.configuredStates.contains(suspended), "the subsurface moved under the cover too: \(below.configuredStates)")
    }

    /// Constrained edges: a floating window is constrained at the output edges it touches; a
    /// kiosk's window fills its output and may grow past none.
    @Test func aWindowIsConstrainedAtTheOutputEdgesItTouches() throws {
        let (left, right, top, bottom) = (XDG_TOPLEVEL_STATE_CONSTRAINED_LEFT.rawValue, XDG_TOPLEVEL_STATE_CONSTRAINED_RIGHT.rawValue,
                                          XDG_TOPLEVEL_STATE_CONSTRAINED_TOP.rawValue, XDG_TOPLEVEL_STATE_CONSTRAINED_BOTTOM.rawValue)
        func constraints(_ window: Window) -> Set<UInt32> { Set(window.configuredStates).intersection([left, right, top, bottom]) }
        do {
            let server = try TestServer(headless: .init(outputs: [Size(width: 800, height: 600)]))
            let client = try TestClient(socket: server.socket)
            let window = try client.toplevel(width: 200, height: 100, at: (0, 0))
            try client.commitBuffer(window.surface, width: 200, height: 100)
            try client.roundtrip()
            try client.roundtrip()
            #expect(constraints(window) == [left, top], "at the top left corner")
            tactile_test_input_v1_move_toplevel(client.testInput, window.surface, 600, 500)
            try client.roundtrip()
            try client.roundtrip()
            #expect(constraints(window) == [right, bottom], "at the bottom right corner")
        }
        do {
            let server = try TestServer(ServerConfiguration(kioskMode: true), headless: .init(outputs: [Size(width: 800, height: 600)]))
            let client = try TestClient(socket: server.socket)
            let window = try client.toplevel(width: 200, height: 100)
            try client.roundtrip()
            try client.roundtrip()
            #expect(constraints(window) == [left, right, top, bottom], "a kiosk's window: \(window.configuredStates)")
        }
    }

    /// What a wl_pointer of version 9 heard of scrolling, in order.
    final class PointerEvents {
        var heard: [String] = []
        nonisolated(unsafe) static let listener: UnsafeMutablePointer<tactile_client_pointer_listener_v9> = {
            let pointer = UnsafeMutablePointer<tactile_client_pointer_listener_v9>.allocate(capacity: 1)
            func events(_ data: UnsafeMutableRawPointer?) -> PointerEvents { Unmanaged.fromOpaque(data!).takeUnretainedValue() }
            pointer.initialize(to: tactile_client_pointer_listener_v9(
                enter: { _, _, _, _, _, _ in }, leave: { _, _, _, _ in }, motion: { _, _, _, _, _ in }, button: { _, _, _, _, _, _ in },
                axis: { data, _, _, axis, value in events(data).heard.append("axis \(axis) \(Double(value) / 256)") },
                frame: { data, _ in events(data).heard.append("frame") },
                axis_source: { data, _, source in events(data).heard.append("source \(source)") },
                axis_stop: { data, _, _, axis in events(data).heard.append("stop \(axis)") },
                axis_discrete: { data, _, axis, discrete in events(data).heard.append("discrete \(axis) \(discrete)") },
                axis_value120: { data, _, axis, value in events(data).heard.append("value120 \(axis) \(value)") },
                axis_relative_direction: { data, _, axis, direction in events(data).heard.append("direction \(axis) \(direction)") }
            ))
            return pointer
        }()
    }

    /// wl_seat 9: each scrolled axis's direction relative to the device comes before its
    /// value: inverted from a device with natural scrolling, identical otherwise.
    @Test func scrollingSaysWhetherItIsNatural() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 800, height: 600)]))
        let client = try TestClient(socket: server.socket)
        #expect(client.globals["wl_seat"] == 9)
        let seat = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["wl_seat"]), tactile_wl_seat_interface(), 9))
        let pointer = try #require(tactile_client_get_pointer_v9(seat))
        let events = PointerEvents()
        tactile_client_pointer_add_listener_v9(pointer, PointerEvents.listener, Unmanaged.passUnretained(events).toOpaque())
        _ = try client.toplevel(width: 200, height: 200, at: (0, 0))
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(50), f(50)) }
        events.heard.removeAll()

        try client.inject { tactile_test_input_v1_pointer_scroll($0, 1, 0, f(-12), 0, 0, 1) }
        #expect(events.heard == ["source 1", "direction 0 1", "axis 0 -12.0", "frame"], "fingers, natural scrolling")
        events.heard.removeAll()
        try client.inject { tactile_test_input_v1_pointer_scroll($0, 0, f(5), f(15), 40, 120, 0) }
        #expect(events.heard == ["source 0", "direction 0 0", "value120 0 120", "axis 0 15.0",
                                 "direction 1 0", "value120 1 40", "axis 1 5.0", "frame"], "a wheel, both axes, not natural")
    }

    /// What a second wl_registry heard: the names of the globals announced.
    final class RegistryEvents {
        var announced: [String] = []
        nonisolated(unsafe) static let listener: UnsafeMutablePointer<wl_registry_listener> = {
            let pointer = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
            pointer.initialize(to: wl_registry_listener(
                global: { data, _, _, interface, _ in
                    Unmanaged<RegistryEvents>.fromOpaque(data!).takeUnretainedValue().announced.append(String(cString: interface!))
                },
                global_remove: { _, _, _ in }
            ))
            return pointer
        }()
    }

    /// wl_fixes.destroy_registry: the registry destroyed hears no later global (an output
    /// plugged in) while the client's first registry does; a surface passed as the registry
    /// is the display's invalid_method error (invalid arguments) for that client alone.
    @Test func wlFixesDestroysARegistry() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        #expect(client.globals["wl_fixes"] == 1)
        let fixes = try client.bind("wl_fixes", tactile_wl_fixes_interface())
        let spare = RegistryEvents()
        let registry = try #require(wl_display_get_registry(client.display))
        wl_registry_add_listener(registry, RegistryEvents.listener, Unmanaged.passUnretained(spare).toOpaque())
        try client.roundtrip()
        #expect(spare.announced.contains("wl_compositor"), "the spare registry listed the globals: \(spare.announced)")
        wl_fixes_destroy_registry(fixes, registry)
        try client.roundtrip()
        spare.announced.removeAll()
        server.onServerThread { _, headless in _ = headless.addOutput(size: Size(width: 320, height: 240)) }
        try IdleTests.wait(client) { client.outputs.count == 2 }
        #expect(client.outputs.count == 2, "the first registry heard the new wl_output")
        #expect(spare.announced.isEmpty, "the destroyed registry heard nothing: \(spare.announced)")
        wl_registry_destroy(registry)
        wl_fixes_destroy(fixes)
        try client.roundtrip()

        let hostile = try TestClient(socket: server.socket)
        let hostileFixes = try hostile.bind("wl_fixes", tactile_wl_fixes_interface())
        let surface = try #require(wl_compositor_create_surface(hostile.compositor))
        wl_fixes_destroy_registry(hostileFixes, surface)
        #expect(throws: ClientError.self) { try hostile.roundtrip() }
        #expect(hostile.lastError == "wl_display#1: \(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue)")
        try client.roundtrip()
    }
}
