import Foundation
import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// What the server shows, read back with grim (the screenshot tool users have) from a
/// headless output: every kind of surface in its place and stacking order, and the cursor.
@Suite(.serialized) struct CompositionTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020, blue: UInt32 = 0xff20_40d0
    static let yellow: UInt32 = 0xffe0_d020, magenta: UInt32 = 0xffc0_20c0
    static let background: UInt32 = 0x20_2020

    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    /// A toplevel with a subsurface above it and one below it that sticks out, a popup, and
    /// a cursor over the toplevel.
    @Test func everySurfaceKindShowsItsColourInItsPlaceAndOrder() throws {
        let window = try client.toplevel(width: 200, height: 150, at: (100, 100))
        try client.commitBuffer(window.surface, width: 200, height: 150, colour: Self.red)
        let above = try client.subsurface(of: window.surface, width: 50, height: 40)
        wl_subsurface_set_position(above.role, 20, 20)
        try client.commitBuffer(above.surface, width: 50, height: 40, colour: Self.green)
        let below = try client.subsurface(of: window.surface, width: 100, height: 50)
        wl_subsurface_set_position(below.role, 150, 120)
        wl_subsurface_place_below(below.role, window.surface)
        try client.commitBuffer(below.surface, width: 100, height: 50, colour: Self.blue)
        wl_surface_commit(window.surface)
        _ = try client.popup(on: window, width: 40, height: 40, anchorRect: (100, 100, 1, 1), colour: Self.yellow)
        let cursor = wl_compositor_create_surface(client.compositor)!
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(260), f(130)) }
        wl_pointer_set_cursor(client.pointer, try #require(client.lastEnterSerial), cursor, 2, 2)
        try client.commitBuffer(cursor, width: 16, height: 16, colour: Self.magenta)
        try client.roundtrip()

        let shot = try Screenshot(socket: server.socket)
        #expect((shot.width, shot.height) == (1280, 800))
        #expect(shot.colour(at: 50, 50) == Self.background)
        #expect(shot.colour(at: 110, 240) == Self.red & 0xffffff, "the toplevel")
        #expect(shot.colour(at: 140, 140) == Self.green & 0xffffff, "the subsurface above it")
        #expect(shot.colour(at: 270, 230) == Self.red & 0xffffff, "the subsurface below, where the toplevel covers it")
        #expect(shot.colour(at: 330, 260) == Self.blue & 0xffffff, "the subsurface below, outside the toplevel")
        #expect(shot.colour(at: 200, 200) == Self.yellow & 0xffffff, "the popup")
        #expect(shot.colour(at: 265, 135) == Self.red & 0xffffff, "no cursor unless asked for")
        let withCursor = try Screenshot(socket: server.socket, cursor: true)
        #expect(withCursor.colour(at: 265, 135) == Self.magenta & 0xffffff, "the cursor, its hotspot on the pointer")
        #expect(withCursor.colour(at: 256, 126) == Self.red & 0xffffff)
        // docs/composition.png is a copy of this, beside the test binary.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        try Screenshot.savePNG(socket: server.socket, cursor: true, at: "\(products)/screenshots/composition.png")
    }

    /// Where no client chose a cursor (over the background, over a client that never set
    /// one) Tactile draws its arrow, tip on the pointer; a client that hid the cursor hides it.
    @Test func theArrowShowsWhereNoClientChoseACursorAndNotWhereOneHidIt() throws {
        let window = try client.toplevel(width: 200, height: 200, at: (100, 100))
        try client.commitBuffer(window.surface, width: 200, height: 200, colour: Self.red)
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(600), f(400)) }
        try client.roundtrip()
        var shot = try Screenshot(socket: server.socket, cursor: true)
        #expect(shot.colour(at: 600, 400) == 0x00_0000, "the arrow's tip, black")
        #expect(shot.colour(at: 601, 403) == 0xff_ffff, "its white inside")
        #expect(shot.colour(at: 598, 403) == Self.background, "nothing left of the tip")
        #expect(try Screenshot(socket: server.socket).colour(at: 601, 403) == Self.background, "only with grim -c")

        try client.inject { tactile_test_input_v1_pointer_motion($0, f(150), f(150)) }
        try client.roundtrip()
        shot = try Screenshot(socket: server.socket, cursor: true)
        #expect(shot.colour(at: 151, 153) == 0xff_ffff, "over a window that never set a cursor")
        #expect(shot.colour(at: 601, 403) == Self.background, "and gone from where it was")

        wl_pointer_set_cursor(client.pointer, try #require(client.lastEnterSerial), nil, 0, 0)
        try client.roundtrip()
        shot = try Screenshot(socket: server.socket, cursor: true)
        #expect(shot.colour(at: 151, 153) == Self.red & 0xffffff, "hidden by the client under it")
    }

    /// wp_single_pixel_buffer_manager_v1, stretched by a viewport: an opaque colour fills
    /// the surface; a half-transparent one blends over what lies below.
    /// wp_alpha_modifier_v1: a red window at half alpha over a green one and over the
    /// background shows half of each, by either renderer; at 0 it is not seen; its modifier
    /// destroyed, it is opaque again from the next commit.
    @Test func aHalfAlphaSurfaceComposesAtHalfOpacity() throws {
        let below = try client.toplevel(width: 200, height: 150, at: (100, 100))
        try client.commitBuffer(below.surface, width: 200, height: 150, colour: Self.green)
        let window = try client.toplevel(width: 100, height: 100, at: (250, 200))
        try client.commitBuffer(window.surface, width: 100, height: 100, colour: Self.red)
        let manager = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["wp_alpha_modifier_v1"]),
                                                     tactile_wp_alpha_modifier_v1_interface(), 1))
        let modifier = try #require(wp_alpha_modifier_v1_get_surface(manager, window.surface))
        wp_alpha_modifier_surface_v1_set_multiplier(modifier, 0x8000_0000)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        func near(_ colour: UInt32, _ expected: UInt32) -> Bool {
            (0..<3).allSatisfy { (shift: Int) -> Bool in
                let (a, b) = (Int((colour >> UInt32(shift * 8)) & 0xff), Int((expected >> UInt32(shift * 8)) & 0xff))
                return abs(a - b) <= 1
            }
        }
        var shot = try Screenshot(socket: server.socket)
        // Red d02020 half over green 20c020: 78 70 20; over the background 202020: 78 20 20.
        #expect(near(shot.colour(at: 260, 210), 0x78_7020), "over the green window: \(String(shot.colour(at: 260, 210), radix: 16))")
        #expect(near(shot.colour(at: 320, 280), 0x78_2020), "over the background: \(String(shot.colour(at: 320, 280), radix: 16))")
        #expect(shot.colour(at: 240, 210) == Self.green & 0xff_ffff, "beside it, the green window as it is")

        wp_alpha_modifier_surface_v1_set_multiplier(modifier, 0)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 260, 210) == Self.green & 0xff_ffff && shot.colour(at: 320, 280) == Self.background, "at 0: not seen")

        wp_alpha_modifier_surface_v1_destroy(modifier)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 260, 210) == Self.red & 0xff_ffff, "no modifier: opaque again")
    }

    @Test func aSinglePixelBufferStretchedByAViewportFillsItsSurface() throws {
        let window = try client.toplevel(width: 200, height: 100, at: (100, 100))
        let max = UInt32.max
        let opaque = try #require(wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(client.singlePixelBufferManager, max, 0, max, max))
        let viewport = wp_viewporter_get_viewport(client.viewporter, window.surface)
        wp_viewport_set_destination(viewport, 200, 100)
        wl_surface_attach(window.surface, opaque, 0, 0)
        wl_surface_damage_buffer(window.surface, 0, 0, 1, 1)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        var shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 200, 150) == 0xff_00ff && shot.colour(at: 110, 110) == 0xff_00ff, "magenta across the 200x100 surface")
        #expect(shot.colour(at: 99, 150) == Self.background && shot.colour(at: 300, 150) == Self.background)
        // Half-transparent black (premultiplied: no colour, half alpha) over the background.
        let dim = try #require(wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(client.singlePixelBufferManager, 0, 0, 0, max / 2))
        wl_surface_attach(window.surface, dim, 0, 0)
        wl_surface_damage_buffer(window.surface, 0, 0, 1, 1)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        shot = try Screenshot(socket: server.socket)
        #expect(shot.colour(at: 200, 150) == 0x10_1010, "the background at half strength")
    }

    @Test func aRegionScreenshotHasTheRegionsPixels() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (300, 200))
        try client.commitBuffer(window.surface, width: 100, height: 100, colour: Self.blue)
        try client.roundtrip()
        let shot = try Screenshot(socket: server.socket, region: "290,190 40x30")
        #expect((shot.width, shot.height) == (40, 30))
        #expect(shot.colour(at: 5, 5) == Self.background)
        #expect(shot.colour(at: 15, 15) == Self.blue & 0xffffff)
    }
}

/// Damage: what a client changes is all that is repainted, as a screen recorder sees it.
extension CompositionTests {
    /// Waits (a bounded number of round trips, the server's frame being 16 ms away) for `done`.
    func wait(until done: () -> Bool) throws {
        for _ in 0..<200 where !done() {
            usleep(2000)
            try client.roundtrip()
        }
    }

    @Test func aTenPixelSquareUpdateRepaintsOnlyThatSquare() throws {
        let window = try client.toplevel(width: 200, height: 200, at: (100, 100))
        try client.commitBuffer(window.surface, width: 200, height: 200, colour: Self.red)
        try client.roundtrip()
        // The first copy with damage shows everything (the client has seen nothing yet).
        let first = try ScreencopyCapture(client: client)
        try first.copyWithDamage(client: client)
        try wait { first.ready }
        try #require(first.ready)
        #expect(first.damage.count == 1 && first.damage[0] == (0, 0, 1280, 800))

        // The next waits for a change: a 10×10 square of another colour.
        let second = try ScreencopyCapture(client: client)
        try second.copyWithDamage(client: client)
        try client.roundtrip()
        #expect(!second.ready, "nothing changed yet")
        // A buffer green all over, of which the client says only the square changed.
        let buffer = try client.buffer(width: 200, height: 200, colour: Self.green)
        wl_surface_attach(window.surface, buffer, 0, 0)
        wl_surface_damage_buffer(window.surface, 10, 10, 10, 10)
        wl_surface_commit(window.surface)
        try wait { second.ready }
        try #require(second.ready)
        #expect(second.damage.map { [$0.x, $0.y, $0.width, $0.height] } == [[110, 110, 10, 10]])
        #expect(second.colour(at: 115, 115) == Self.green & 0xffffff, "the square was repainted")
        #expect(second.colour(at: 105, 105) == Self.red & 0xffffff, "and nothing around it")
    }
}
