import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// A screen mounted turned: a headless 320 × 200 output with each of the eight transforms.
/// The layout sees it upright; its frame (what the panel scans out, what screencopy hands a
/// client) is turned; grim, which turns frames back by wl_output's transform, sees the
/// picture as a person in front of the screen does.
@Suite(.serialized) struct OutputTransformTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020
    static let background: UInt32 = 0x20_2020

    /// Where a 100 × 60 window at the layout's top-left corner lies in the 320 × 200 panel's
    /// own frame, worked out by hand from wl_output.transform's definition (counter-clockwise
    /// turns, flips about the vertical axis first).
    static let redInPanel: [(OutputTransform, Rect)] = [
        (.normal, Rect(x: 0, y: 0, width: 100, height: 60)),
        (.rotated90, Rect(x: 0, y: 100, width: 60, height: 100)),
        (.rotated180, Rect(x: 220, y: 140, width: 100, height: 60)),
        (.rotated270, Rect(x: 260, y: 0, width: 60, height: 100)),
        (.flipped, Rect(x: 220, y: 0, width: 100, height: 60)),
        (.flipped90, Rect(x: 0, y: 0, width: 60, height: 100)),
        (.flipped180, Rect(x: 0, y: 140, width: 100, height: 60)),
        (.flipped270, Rect(x: 260, y: 100, width: 60, height: 100)),
    ]

    static func server(_ transform: OutputTransform) throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.outputs = [OutputSettings(name: "HEADLESS-1", transform: transform)]
        return try TestServer(configuration, headless: .init(outputs: [Size(width: 320, height: 200)]))
    }

    @Test(arguments: redInPanel)
    func theFrameIsTurnedAndGrimSeesItUpright(_ transform: OutputTransform, red: Rect) throws {
        let server = try Self.server(transform)
        let client = try TestClient(socket: server.socket)
        let output = try #require(client.outputs.first)
        #expect(client.outputTransforms[output] == transform.rawValue, "wl_output.geometry names the transform")
        #expect(client.outputModes[output].map { Size(width: Int($0.width), height: Int($0.height)) } == Size(width: 320, height: 200), "the mode is the panel's, not turned")
        let window = try client.toplevel(width: 100, height: 60, at: (0, 0))
        try client.commitBuffer(window.surface, width: 100, height: 60, colour: Self.red)
        try client.roundtrip()

        // The panel's frame, as screencopy copies it.
        let capture = try ScreencopyCapture.copied(client: client)
        #expect(capture.layout.map { Size(width: Int($0.width), height: Int($0.height)) } == Size(width: 320, height: 200))
        for (x, y) in [(red.x, red.y), (red.maxX - 1, red.maxY - 1)] {
            #expect(capture.colour(at: x, y) == Self.red & 0xff_ffff, "red at (\(x), \(y)) of the panel")
        }
        let outside = (x: red.x == 0 ? red.maxX : red.x - 1, y: red.y == 0 ? red.maxY : red.y - 1)
        #expect(capture.colour(at: outside.x, outside.y) == Self.background, "background at (\(outside.x), \(outside.y))")

        // grim turns the frame upright: the window at the top-left, the layout portrait for
        // quarter turns.
        let shot = try Screenshot(socket: server.socket)
        #expect(Size(width: shot.width, height: shot.height) == (transform.swapsAxes ? Size(width: 200, height: 320) : Size(width: 320, height: 200)))
        #expect(shot.colour(at: 0, 0) == Self.red & 0xff_ffff && shot.colour(at: 99, 59) == Self.red & 0xff_ffff)
        #expect(shot.colour(at: 100, 30) == Self.background && shot.colour(at: 50, 60) == Self.background)
    }

    /// A client that renders pre-turned (set_buffer_transform as its output) gives a buffer
    /// in the panel's axes: it lands there pixel for pixel, and upright for grim.
    @Test(arguments: [(OutputTransform.rotated90, Position(x: 0, y: 100)), (.flipped270, Position(x: 260, y: 100))])
    func aBufferTurnedAsItsOutputLandsPixelForPixel(_ transform: OutputTransform, at panel: Position) throws {
        let server = try Self.server(transform)
        let client = try TestClient(socket: server.socket)
        // The 100 × 60 window's buffer, turned: 60 × 100, red but for its green first row.
        let window = try client.toplevel(width: 100, height: 60, at: (0, 0))
        let buffer = try client.buffer(width: 60, height: 100) { _, y in y == 0 ? Self.green : Self.red }
        wl_surface_set_buffer_transform(window.surface, transform.rawValue)
        wl_surface_attach(window.surface, buffer, 0, 0)
        wl_surface_damage_buffer(window.surface, 0, 0, 60, 100)
        wl_surface_commit(window.surface)
        try client.roundtrip()

        let capture = try ScreencopyCapture.copied(client: client)
        #expect(capture.colour(at: panel.x, panel.y) == Self.green & 0xff_ffff && capture.colour(at: panel.x + 59, panel.y) == Self.green & 0xff_ffff,
                "the buffer's first row is the panel's row \(panel.y)")
        #expect(capture.colour(at: panel.x, panel.y + 1) == Self.red & 0xff_ffff && capture.colour(at: panel.x + 59, panel.y + 99) == Self.red & 0xff_ffff)

        // Upright, the first row is the window's right edge.
        let shot = try Screenshot(socket: server.socket)
        #expect(Size(width: shot.width, height: shot.height) == Size(width: 200, height: 320))
        #expect(shot.colour(at: 99, 0) == Self.green & 0xff_ffff && shot.colour(at: 99, 59) == Self.green & 0xff_ffff)
        #expect(shot.colour(at: 0, 0) == Self.red & 0xff_ffff && shot.colour(at: 98, 59) == Self.red & 0xff_ffff)
        #expect(shot.colour(at: 100, 30) == Self.background && shot.colour(at: 50, 60) == Self.background)
    }

    /// A client's cursor (asymmetric: 16 × 8) on a turned output: grim -c shows it upright,
    /// its hotspot on the pointer.
    @Test(arguments: [OutputTransform.rotated90, .flipped180])
    func theCursorIsDrawnTurnedWithItsHotspotOnThePointer(_ transform: OutputTransform) throws {
        let server = try Self.server(transform)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 150, height: 150, at: (0, 0))
        try client.commitBuffer(window.surface, width: 150, height: 150, colour: Self.red)
        let cursor = wl_compositor_create_surface(client.compositor)!
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(60), f(40)) }
        wl_pointer_set_cursor(client.pointer, try #require(client.lastEnterSerial), cursor, 2, 2)
        try client.commitBuffer(cursor, width: 16, height: 8, colour: Self.green)
        try client.roundtrip()
        let shot = try Screenshot(socket: server.socket, cursor: true)
        for (x, y) in [(58, 38), (73, 45)] { #expect(shot.colour(at: x, y) == Self.green & 0xff_ffff, "cursor at (\(x), \(y))") }
        for (x, y) in [(57, 38), (74, 45), (58, 46), (58, 37)] { #expect(shot.colour(at: x, y) == Self.red & 0xff_ffff, "window at (\(x), \(y))") }
    }

    /// A small update (a 5 × 5 surface damage, as weston-simple-touch's cross) repaints
    /// exactly its pixels on a turned output.
    @Test(arguments: OutputTransform.allCases)
    func aSmallDamageRepaintsItsPixelsOnATurnedOutput(_ transform: OutputTransform) throws {
        let server = try Self.server(transform)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 60, at: (0, 0))
        try client.commitBuffer(window.surface, width: 100, height: 60, colour: Self.red)
        try client.roundtrip()
        _ = try Screenshot(socket: server.socket)
        wl_surface_attach(window.surface, try client.buffer(width: 100, height: 60, colour: Self.green), 0, 0)
        wl_surface_damage(window.surface, 48, 28, 5, 5)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        let shot = try Screenshot(socket: server.socket)
        for y in 27...33 {
            for x in 47...53 {
                let inside = (48...52).contains(x) && (28...32).contains(y)
                #expect(shot.colour(at: x, y) == (inside ? Self.green : Self.red) & 0xff_ffff, "(\(x), \(y))")
            }
        }
    }
}
