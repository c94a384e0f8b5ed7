import CWaylandClient
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// weston_touch_calibration and tactile_touchscreen_mapper_v1 on a headless server, which
/// has no touchscreen: what shows where, and the protocol errors. A real touchscreen's
/// touches, matrices and mapping are CalibrationGuestTests' and TwoScreensGuestTests'.
@Suite struct TouchCalibrationTests {
    /// What a question heard.
    final class Heard {
        var configure: (Int32, Int32)?
        var touchscreens = 0
        var done = false
    }

    nonisolated(unsafe) static let mapperListener: UnsafeMutablePointer<tactile_touchscreen_mapper_v1_listener> = {
        let listener = UnsafeMutablePointer<tactile_touchscreen_mapper_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: tactile_touchscreen_mapper_v1_listener(
            touchscreen: { data, _, _, _, _, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().touchscreens += 1 },
            done: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().done = true }
        ))
        return listener
    }()

    nonisolated(unsafe) static let questionListener: UnsafeMutablePointer<tactile_touchscreen_question_v1_listener> = {
        let listener = UnsafeMutablePointer<tactile_touchscreen_question_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: tactile_touchscreen_question_v1_listener(
            configure: { data, _, w, h in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().configure = (w, h) },
            touched: { _, _, _ in },
            cancelled: { _, _ in }
        ))
        return listener
    }()

    /// The protocol error the client's next round trip ends in ("interface#id: code").
    static func error(of client: TestClient) -> String {
        do {
            try client.roundtrip()
            return "none"
        } catch {
            return client.lastError
        }
    }

    static func server() throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.privileges = .everyone
        return try TestServer(configuration)
    }

    /// A question on the output: configured to its size, shown over a window already there
    /// and over one opened after it, where touches hit it; gone, the window is hit again.
    @Test func aQuestionShowsOverEveryWindowAtItsOutputsSize() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200, at: (0, 0))
        let heard = Heard()
        let mapper = try client.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        tactile_touchscreen_mapper_v1_add_listener(mapper, Self.mapperListener, Unmanaged.passUnretained(heard).toOpaque())
        try client.roundtrip()
        #expect(heard.done && heard.touchscreens == 0, "a headless server has no touchscreen")
        let surface = wl_compositor_create_surface(client.compositor)!
        let question = tactile_touchscreen_mapper_v1_ask(mapper, surface, client.outputs[0])!
        tactile_touchscreen_question_v1_add_listener(question, Self.questionListener, Unmanaged.passUnretained(heard).toOpaque())
        try client.roundtrip()
        let size = try #require(heard.configure)
        #expect(size == (1280, 800))
        try client.commitBuffer(surface, width: size.0, height: size.1, colour: 0xFFFF_FFFF)
        #expect(try client.surfaceHit(at: 100, 100) == client.id(surface))
        let later = try client.toplevel(width: 200, height: 200, at: (300, 300))
        #expect(try client.surfaceHit(at: 350, 350) == client.id(surface), "a window opened later stays under it")
        tactile_touchscreen_question_v1_destroy(question)
        #expect(try client.surfaceHit(at: 100, 100) == client.id(window.surface))
        #expect(try client.surfaceHit(at: 350, 350) == client.id(later.surface))
    }

    /// One question or calibrator at a time, among all clients; a buffer of another size and
    /// a surface with a role are errors; an unknown touchscreen is weston's invalid_device.
    @Test func theProtocolsErrors() throws {
        let server = try Self.server()
        let first = try TestClient(socket: server.socket)
        let mapper = try first.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        _ = tactile_touchscreen_mapper_v1_ask(mapper, wl_compositor_create_surface(first.compositor), first.outputs[0])
        try first.roundtrip()

        let second = try TestClient(socket: server.socket)
        let busy = try second.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        _ = tactile_touchscreen_mapper_v1_ask(busy, wl_compositor_create_surface(second.compositor), second.outputs[0])
        #expect(Self.error(of: second) == "tactile_touchscreen_mapper_v1#\(second.id(busy)): 1")

        let calibrating = try TestClient(socket: server.socket)
        let calibration = try calibrating.bind("weston_touch_calibration", tactile_weston_touch_calibration_interface())
        _ = weston_touch_calibration_create_calibrator(calibration, wl_compositor_create_surface(calibrating.compositor), "/sys/devices/none")
        #expect(Self.error(of: calibrating) == "weston_touch_calibration#\(calibrating.id(calibration)): 2", "the question is under way")

        let sized = try TestClient(socket: server.socket)
        let window = try sized.toplevel(width: 100, height: 100)
        let roleMapper = try sized.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        _ = tactile_touchscreen_mapper_v1_ask(roleMapper, window.surface, sized.outputs[0])
        #expect(Self.error(of: sized) == "tactile_touchscreen_mapper_v1#\(sized.id(roleMapper)): 0")
    }

    @Test func aQuestionOfTheWrongSizeAndAnUnknownTouchscreenAreErrors() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let mapper = try client.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        let surface = wl_compositor_create_surface(client.compositor)!
        let question = tactile_touchscreen_mapper_v1_ask(mapper, surface, client.outputs[0])!
        try client.roundtrip()
        try client.commitBuffer(surface, width: 640, height: 400)
        #expect(Self.error(of: client) == "tactile_touchscreen_question_v1#\(client.id(question)): 0")

        let other = try TestClient(socket: server.socket)
        let calibration = try other.bind("weston_touch_calibration", tactile_weston_touch_calibration_interface())
        _ = weston_touch_calibration_create_calibrator(calibration, wl_compositor_create_surface(other.compositor), "/sys/devices/none")
        #expect(Self.error(of: other) == "weston_touch_calibration#\(other.id(calibration)): 1")
        // A map of a touchscreen that is not there changes nothing and is no error.
        let third = try TestClient(socket: server.socket)
        let thirdMapper = try third.bind("tactile_touchscreen_mapper_v1", tactile_tactile_touchscreen_mapper_v1_interface())
        tactile_touchscreen_mapper_v1_map(thirdMapper, "/sys/devices/none", third.outputs[0])
        try third.roundtrip()
    }
}
