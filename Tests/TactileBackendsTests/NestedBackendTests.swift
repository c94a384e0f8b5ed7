import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
@testable import TactileBackends
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Tactile nested in Tactile: the wayland backend as a client of a headless parent, whose
/// injected input must reach the nested server's clients at the right place, whose gestures'
/// cancels must reach them as wl_touch.cancel, and whose window management (kiosk sizes,
/// close) the nested server must follow. The parent is in kiosk mode, so the nested window
/// fills its 1280 × 800 output at (0, 0): parent coordinates are nested coordinates.
@Suite(.serialized) struct NestedBackendTests {
    /// What the nested client saw that is not keyboard traffic, once `count` such events came.
    static func seat(_ pair: NestedPair, count: Int) throws -> [Seen] {
        _ = try pair.eventually { pair.nestedClient.seen.filter { !$0.isKeyboard }.count >= count }
        return pair.nestedClient.take().filter { !$0.isKeyboard }
    }

    @Test func aTouchInTheParentReachesTheNestedClientInItsSurfaceCoordinates() throws {
        let pair = try NestedPair.launch()
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        _ = pair.nestedClient.take()
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(150.5), f(60.25))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(500), f(10))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Self.seat(pair, count: 6) == [
            .touchDown(surface: pair.nestedClient.id(window.surface), id: 1, x: f(50.5), y: f(10.25)),
            .touchFrame,
            .touchMotion(id: 1, x: f(400), y: f(-40)),
            .touchFrame,
            .touchUp(id: 1),
            .touchFrame,
        ])
    }

    /// Where the nested layout's point (150.5, 60.25) lies in the 1280 × 800 window (the
    /// panel) for each transform of the nested output, worked out by hand.
    static let panelPoints: [(OutputTransform, Point)] = [
        (.normal, Point(x: 150.5, y: 60.25)), (.rotated90, Point(x: 60.25, y: 649.5)),
        (.rotated180, Point(x: 1129.5, y: 739.75)), (.rotated270, Point(x: 1219.75, y: 150.5)),
        (.flipped, Point(x: 1129.5, y: 60.25)), (.flipped90, Point(x: 60.25, y: 150.5)),
        (.flipped180, Point(x: 150.5, y: 739.75)), (.flipped270, Point(x: 1219.75, y: 649.5)),
    ]

    /// The nested window is the turned output's panel: a touch on it lands on what it shows
    /// there, and the client gets it in its own upright coordinates.
    @Test(arguments: panelPoints)
    func aTouchOnATurnedNestedOutputLandsWhereTheWindowShowsTheClient(_ transform: OutputTransform, panel: Point) throws {
        var nested = ServerConfiguration()
        nested.outputs = [OutputSettings(transform: transform)]
        let pair = try NestedPair.launch(nested: nested)
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        try pair.nestedClient.commitBuffer(window.surface, width: 300, height: 200, colour: 0xffd0_2020)
        #expect(try pair.eventually {
            let shot = try Screenshot(socket: pair.parent.socket)
            return shot.colour(at: Int(panel.x), Int(panel.y)) == 0xd0_2020
        }, "the parent shows the client under the panel point")
        _ = pair.nestedClient.take()
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(panel.x), f(panel.y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Self.seat(pair, count: 4).first == .touchDown(surface: pair.nestedClient.id(window.surface), id: 1, x: f(50.5), y: f(10.25)))
    }

    @Test func pointerMotionButtonsAndScrollInTheParentReachTheNestedClient() throws {
        let pair = try NestedPair.launch()
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        _ = pair.nestedClient.take()
        try pair.parentClient.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(120), f(70))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
            tactile_test_input_v1_pointer_axis(input, f(0), f(15), 0, 120)
        }
        let seen = try Self.seat(pair, count: 7)
        let surface = pair.nestedClient.id(window.surface)
        #expect(seen.first == .pointerEnter(surface: surface, x: f(20), y: f(20)))
        #expect(seen.contains(.pointerButton(button: 0x110, state: 1)))
        #expect(seen.contains(.pointerButton(button: 0x110, state: 0)))
        #expect(seen.contains(.pointerAxis(axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value: f(15))))
        // The parent shows no cursor over the window: Tactile's clients set theirs.
    }

    @Test func aKeyInTheParentReachesTheNestedClientWithFocusAndIsReleasedWhenTheParentTakesFocusAway() throws {
        let pair = try NestedPair.launch()
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        #expect(try pair.eventually { pair.nestedClient.seen.contains(.keyboardEnter(surface: pair.nestedClient.id(window.surface), keys: [])) })
        _ = pair.nestedClient.take()
        try pair.parentClient.inject { input in tactile_test_input_v1_key(input, 30, 1) }
        #expect(try pair.eventually { pair.nestedClient.seen.contains(.key(key: 30, state: 1)) })
        // A window of the parent's own takes its keyboard focus while the key is held (a touch
        // gives it: a new window of another client does not take it): the nested server hears
        // wl_keyboard.leave and releases the key for its client.
        _ = try pair.parentClient.toplevel(width: 100, height: 100)
        _ = try pair.parentClient.surfaceHit(at: 50, 50)
        #expect(try pair.eventually { pair.nestedClient.seen.contains(.key(key: 30, state: 0)) })
    }

    /// A left-edge swipe in the parent wins a touch the nested client has: the parent cancels
    /// the nested server's touches, which cancels its client's.
    @Test func theParentsGestureCancelReachesTheNestedClientAsTouchCancel() throws {
        let swipe = GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))
        let pair = try NestedPair.launch(parent: ServerConfiguration(kioskMode: true, gestures: [swipe]))
        let window = try pair.nestedClient.toplevel(width: 400, height: 800, at: (0, 0))
        _ = pair.nestedClient.take()
        // From (5, 100), at the left edge, past the swipe's 80 px to (120, 100), then lifted.
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(40), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(120), f(100))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Self.seat(pair, count: 5) == [
            .touchDown(surface: pair.nestedClient.id(window.surface), id: 1, x: f(5), y: f(100)),
            .touchFrame,
            .touchMotion(id: 1, x: f(40), y: f(100)),
            .touchFrame,
            .touchCancel,
        ])
        // And a fresh touch afterwards arrives as usual.
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(300), f(300))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Self.seat(pair, count: 2) == [.touchDown(surface: pair.nestedClient.id(window.surface), id: 1, x: f(300), y: f(300)), .touchFrame])
    }

    /// The nested window starts at the parent's output size (kiosk), not the 640 × 480 asked;
    /// when that output goes, the parent configures the window to the output left, and the
    /// nested server's clients see their wl_output's mode change.
    @Test func theParentResizingTheWindowChangesTheNestedOutputsMode() throws {
        let outputs = HeadlessBackend.Options(outputs: [Size(width: 1280, height: 800), Size(width: 800, height: 480)])
        let pair = try NestedPair.launch(parentOutputs: outputs) { WaylandBackend.Options(outputSize: Size(width: 640, height: 480), socketName: $0) }
        let output = try #require(pair.nestedClient.outputs.first)
        #expect(pair.nestedClient.outputModes[output]! == (1280, 800))
        pair.parent.onServerThread { _, backend in backend.removeOutput(backend.outputs[0]) }
        #expect(try pair.eventually { pair.nestedClient.outputModes[output]! == (800, 480) })
    }

    /// Pixels flow: what a nested client shows is in the nested output, and so in the
    /// parent's screenshot where the nested window lies (here, the same place).
    @Test func theParentsScreenshotShowsTheNestedClientsPixels() throws {
        let pair = try NestedPair.launch()
        let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        try pair.nestedClient.commitBuffer(window.surface, width: 300, height: 200, colour: red)
        #expect(try pair.eventually { try Screenshot(socket: pair.parent.socket).colour(at: 150, 100) == red & 0xffffff })
        // An update of the same window: only its damage travels, and arrives.
        try pair.nestedClient.commitBuffer(window.surface, width: 300, height: 200, colour: green)
        #expect(try pair.eventually { try Screenshot(socket: pair.parent.socket).colour(at: 150, 100) == green & 0xffffff })
        let shot = try Screenshot(socket: pair.parent.socket)
        #expect(shot.colour(at: 50, 30) == 0x20_2020, "the nested server's background")
    }

    /// Frames flow: a nested client's frame callback completes (the nested server presents
    /// to the parent, whose frame callback paces it).
    @Test func aNestedClientsFrameCallbackCompletes() throws {
        let pair = try NestedPair.launch()
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        let done = FrameDone()
        let callback = wl_surface_frame(window.surface)
        wl_callback_add_listener(callback, FrameDone.listener, Unmanaged.passUnretained(done).toOpaque())
        try pair.nestedClient.commitBuffer(window.surface, width: 300, height: 200)
        #expect(try pair.eventually { done.count == 1 })
        wl_callback_destroy(callback)
    }

    /// What a broken or hostile parent may send, straight into the backend's handlers: events
    /// for touches never down, surfaces not ours, keys beyond KEY_MAX, input before enter,
    /// coordinates at wl_fixed's ends. Nothing crashes, nothing reaches the client, and a real
    /// touch afterwards arrives as usual.
    @Test func nonsenseFromTheParentIsIgnoredOrClamped() throws {
        let pair = try NestedPair.launch()
        let window = try pair.nestedClient.toplevel(width: 300, height: 200, at: (100, 50))
        _ = pair.nestedClient.take()
        pair.nested.onServerThread { _, backend in
            let ours = backend.windows.values.first!.surface
            // Compared, never dereferenced.
            let stranger = OpaquePointer(bitPattern: 0x1000)
            backend.touchMoved(id: 42, x: 0, y: 0)
            backend.touchUp(id: 43)
            backend.touchDown(id: 1, surface: stranger, x: f(150), y: f(60))
            backend.touchDown(id: 2, surface: nil, x: f(150), y: f(60))
            backend.touchFrame()
            backend.keyboardKey(InputEvent.maximumKeyCode + 1, state: 1)
            backend.keyboardKey(UInt32.max, state: 1)
            backend.keyboardKey(30, state: 0)
            backend.pointerLeft()
            backend.pointerMoved(x: .max, y: .min)
            backend.pointerButton(0x110, state: 1)
            backend.pointerAxisSource(77)
            backend.pointerFrame()
            backend.pointerEntered(serial: 1, surface: stranger, x: 0, y: 0)
            backend.touchDown(id: 3, surface: ours, x: .max, y: .min)
            backend.touchDown(id: 3, surface: ours, x: f(150), y: f(60))
            backend.touchFrame()
            backend.touchCancelled()
        }
        try pair.nestedClient.roundtrip()
        #expect(pair.nestedClient.take().filter { !$0.isKeyboard } == [])
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 3, f(150), f(60))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(try Self.seat(pair, count: 2) == [.touchDown(surface: pair.nestedClient.id(window.surface), id: 3, x: f(50), y: f(10)), .touchFrame])
    }

    /// A configure's size is the parent's: "you choose" (0) and nonsense keep ours, and
    /// anything beyond 16384 pixels a side is clamped there.
    @Test func configuredSizesAreClampedToWhatABufferCanBe() {
        #expect(NestedWindow.clamped(0, 0) == nil)
        #expect(NestedWindow.clamped(640, 0) == nil)
        #expect(NestedWindow.clamped(-1, 480) == nil)
        #expect(NestedWindow.clamped(.max, 480) == Size(width: 16384, height: 480))
        #expect(NestedWindow.clamped(640, 480) == Size(width: 640, height: 480))
    }

    @Test func theParentClosingTheWindowStopsTheNestedServerNormally() throws {
        let pair = try NestedPair.launch()
        // The nested window is the parent's only one, so it has the parent's keyboard focus.
        pair.parent.onServerThread { server, _ in server.port.closeFocusedWindow() }
        #expect(pair.nested.waitUntilStopped())
        #expect(pair.nested.end == .closed)
    }

    /// The parent's nanosecond input times reach the nested server's clients: a touch the
    /// parent stamped while the nested server was held keeps the parent's time.
    @Test func aNestedClientGetsTheParentsInputTimes() throws {
        let pair = try NestedPair.launch()
        let client = pair.nestedClient
        _ = try client.toplevel(width: 300, height: 200, at: (0, 0))
        let timestamps = try #require(zwp_input_timestamps_manager_v1_get_touch_timestamps(try #require(client.inputTimestampsManager), client.touch))
        zwp_input_timestamps_v1_add_listener(timestamps, Listeners.touchTimestamps, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
        let hold = Hold(pair.nested)
        try pair.parentClient.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(50))
            tactile_test_input_v1_touch_frame(input)
        }
        _ = try pair.eventually { client.touchTimestamps.count == 1 && hold.end != nil }
        let stamp = try #require(client.touchTimestamps.first).nanoseconds
        #expect(stamp >= hold.start && stamp < hold.start + 200_000_000, "stamped by the parent while the nested server was held: \(stamp) against \(hold.start)")
    }

    /// The parent's pen (its tablet-v2 tool over the nested window) is the nested server's
    /// pen: a nested client with a tablet seat hears the tool described as the parent
    /// described it, on the parent's tablet, and its stroke at its own surface coordinates
    /// with the pressure and tilt the parent gave; then the parent's pad is not forwarded.
    @Test func aPenInTheParentReachesANestedTabletClient() throws {
        let pair = try NestedPair.launch()
        let client = pair.nestedClient
        let heard = try TabletSeatLog(of: client)
        let window = try client.toplevel(width: 300, height: 200, at: (100, 50))
        try client.roundtrip()
        try pair.parentClient.inject { input in
            tactile_test_input_v1_pen_proximity_in(input, 4, f(150.5), f(60.25))
            tactile_test_input_v1_pen_tip(input, 4, 1)
            tactile_test_input_v1_pen_motion(input, 4, f(160), f(70), f(0.5), f(20), f(-10))
            tactile_test_input_v1_pen_tip(input, 4, 0)
            tactile_test_input_v1_pen_proximity_out(input, 4)
            tactile_test_input_v1_pad_button(input, 1, 0, 1)
        }
        _ = try pair.eventually {
            try client.roundtrip()
            return heard.lines.contains("proximity_out")
        }
        #expect(heard.lines == [
            "tablet Tactile pen input", "tablet done",
            "type 0x140", "capability 1", "capability 2", "done",
            "proximity_in", "motion 50.5 10.25", "pressure 0", "tilt 0.0 0.0", "frame",
            "down", "frame",
            "motion 60.0 20.0", "pressure 32768", "tilt 20.0 -10.0", "frame",
            "up", "frame",
            "proximity_out", "frame",
        ])
        #expect(heard.surfaces == [window.surface])
    }

    /// The parent's presentation times reach the nested server's clients: a frame the
    /// parent showed while the nested server was held was presented then.
    @Test func aNestedClientsFrameIsPresentedWhenTheParentShowedIt() throws {
        let pair = try NestedPair.launch()
        let client = pair.nestedClient
        let window = try client.toplevel(width: 300, height: 200, at: (0, 0))
        // No frame in flight on the nested output when the measured one is committed.
        let settled = RequestedFrame(window.surface)
        try client.commitBuffer(window.surface, width: 300, height: 200, colour: 0xff20_c020)
        _ = try pair.eventually { settled.done }
        // The parent may show the frame before the hold begins (it composes at once, and a
        // slow build, ASan's, can lose the race): then the time proves nothing, and the
        // measurement is made again, up to three times.
        for attempt in 1...3 {
            let record = PresentationRecord(client, surface: window.surface)
            try client.commitBuffer(window.surface, width: 300, height: 200, colour: attempt % 2 == 0 ? 0xff20_c020 : 0xffd0_2020)
            try client.roundtrip()  // composed and sent to the parent before the hold
            let hold = Hold(pair.nested)
            _ = try pair.eventually { record.answered && hold.end != nil }
            let presented = try #require(record.presented, "presented, not discarded")
            if presented.nanoseconds < hold.start, attempt < 3 { continue }
            #expect(presented.nanoseconds >= hold.start && presented.nanoseconds < hold.start + 200_000_000,
                    "the parent's time, while the nested server was held: \(presented.nanoseconds) against \(hold.start) (attempt \(attempt))")
            #expect(presented.refresh == 16_666_666)
            break
        }
    }

    @Test func losingTheParentStopsTheNestedServerWithAnError() throws {
        var parent: TestServer? = try TestServer(ServerConfiguration(kioskMode: true))
        let nested = try NestedTestServer(in: parent!)
        parent = nil
        #expect(nested.waitUntilStopped())
        guard case .parentLost = nested.end else {
            Issue.record("ended with \(String(describing: nested.end))")
            return
        }
    }
}

/// The nested server's loop, held for 400 ms from `start`: whatever time it gives an event
/// meanwhile can only be the parent's.
private final class Hold: Sendable {
    private let times = Locked<(start: UInt64?, end: UInt64?)>((nil, nil))

    init(_ nested: NestedTestServer) {
        DispatchQueue.global().async { [self] in
            nested.onServerThread { _, _ in
                self.times.withLock { $0.start = monotonicNanoseconds() }
                usleep(400_000)
                self.times.withLock { $0.end = monotonicNanoseconds() }
            }
        }
        while times.withLock({ $0.start }) == nil { usleep(1_000) }
    }

    var start: UInt64 { times.withLock { $0.start! } }
    var end: UInt64? { times.withLock { $0.end } }
}

/// Counts wl_callback.done.
private final class FrameDone {
    var count = 0

    nonisolated(unsafe) static let listener: UnsafeMutablePointer<wl_callback_listener> = {
        let pointer = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        pointer.initialize(to: wl_callback_listener(done: { data, _, _ in
            Unmanaged<FrameDone>.fromOpaque(data!).takeUnretainedValue().count += 1
        }))
        return pointer
    }()
}
