import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// ext_image_copy_capture with its sources and ext_foreign_toplevel_list, as a screen
/// recorder or a window thumbnailer uses them: an output's copy equals grim's picture, a
/// window's copy is its own pixels even under another window, later frames wait for a
/// change and say where, and every wrong use is its protocol error.
@Suite(.serialized) struct ImageCopyCaptureTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020, blue: UInt32 = 0xff20_20d0

    /// A client's capture globals and the window handles it was told of.
    final class Capturer {
        let client: TestClient
        let manager: OpaquePointer
        let outputSources: OpaquePointer
        let windowSources: OpaquePointer
        let list: OpaquePointer
        var handles: [Handle] = []

        final class Handle {
            let proxy: OpaquePointer
            var identifier: String?
            var title: String?
            var appID: String?
            var done = 0
            var closed = false
            init(_ proxy: OpaquePointer) { self.proxy = proxy }
        }

        init(_ client: TestClient) throws {
            self.client = client
            func bind(_ name: String, _ interface: UnsafePointer<wl_interface>) throws -> OpaquePointer {
                OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames[name], "\(name) offered"), interface, 1))
            }
            manager = try bind("ext_image_copy_capture_manager_v1", tactile_ext_image_copy_capture_manager_v1_interface())
            outputSources = try bind("ext_output_image_capture_source_manager_v1", tactile_ext_output_image_capture_source_manager_v1_interface())
            windowSources = try bind("ext_foreign_toplevel_image_capture_source_manager_v1",
                                     tactile_ext_foreign_toplevel_image_capture_source_manager_v1_interface())
            list = try bind("ext_foreign_toplevel_list_v1", tactile_ext_foreign_toplevel_list_v1_interface())
            ext_foreign_toplevel_list_v1_add_listener(list, Self.listListener, Unmanaged.passUnretained(self).toOpaque())
            try client.roundtrip()
        }

        /// The handle of the window titled `title`.
        func handle(titled title: String) throws -> Handle {
            try #require(handles.first { $0.title == title && !$0.closed }, "a handle titled \(title): \(handles.map(\.title))")
        }

        func session(of source: OpaquePointer, options: UInt32 = 0) throws -> Session {
            let session = Session(capturer: self, proxy: ext_image_copy_capture_manager_v1_create_session(manager, source, options)!)
            try client.roundtrip()
            return session
        }

        nonisolated(unsafe) static let listListener: UnsafeMutablePointer<ext_foreign_toplevel_list_v1_listener> = {
            let pointer = UnsafeMutablePointer<ext_foreign_toplevel_list_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: ext_foreign_toplevel_list_v1_listener(
                toplevel: { data, _, proxy in
                    let capturer = Unmanaged<Capturer>.fromOpaque(data!).takeUnretainedValue()
                    let handle = Handle(proxy!)
                    capturer.handles.append(handle)
                    ext_foreign_toplevel_handle_v1_add_listener(proxy, Capturer.handleListener, Unmanaged.passUnretained(handle).toOpaque())
                },
                finished: { _, _ in }
            ))
            return pointer
        }()

        nonisolated(unsafe) static let handleListener: UnsafeMutablePointer<ext_foreign_toplevel_handle_v1_listener> = {
            func handle(_ data: UnsafeMutableRawPointer?) -> Handle { Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue() }
            let pointer = UnsafeMutablePointer<ext_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: ext_foreign_toplevel_handle_v1_listener(
                closed: { data, _ in handle(data).closed = true },
                done: { data, _ in handle(data).done += 1 },
                title: { data, _, title in handle(data).title = String(cString: title!) },
                app_id: { data, _, appID in handle(data).appID = String(cString: appID!) },
                identifier: { data, _, identifier in handle(data).identifier = String(cString: identifier!) }
            ))
            return pointer
        }()
    }

    /// A session, its constraints, and its current frame's outcome.
    final class Session {
        let capturer: Capturer
        let proxy: OpaquePointer
        var size: (width: UInt32, height: UInt32)?
        var formats: [UInt32] = []
        var constraintsDone = 0
        var stopped = false
        var frame: OpaquePointer?
        var ready = false
        var failed: UInt32?
        var damage: [Rect] = []
        var transform: UInt32?
        private var memory: UnsafeMutableRawPointer?
        private var mapped = 0

        init(capturer: Capturer, proxy: OpaquePointer) {
            self.capturer = capturer
            self.proxy = proxy
            ext_image_copy_capture_session_v1_add_listener(proxy, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        }

        /// A new frame into an XRGB8888 buffer of the told size (or `width × height`), captured.
        func capture(width: Int32? = nil, height: Int32? = nil, format: wl_shm_format = WL_SHM_FORMAT_XRGB8888) throws {
            if let frame { ext_image_copy_capture_frame_v1_destroy(frame) }
            (ready, failed, damage, transform) = (false, nil, [], nil)
            let size = try #require(size)
            let (w, h) = (width ?? Int32(size.width), height ?? Int32(size.height))
            if let memory { munmap(memory, mapped) }
            mapped = Int(w * h * 4)
            let fd = tactile_client_memfd_create("tactile-test-capture")
            guard fd >= 0, ftruncate(fd, off_t(mapped)) == 0 else { throw ClientError.noMemory }
            defer { close(fd) }
            memory = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
            let pool = wl_shm_create_pool(capturer.client.shm, fd, Int32(mapped))
            defer { wl_shm_pool_destroy(pool) }
            let buffer = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, format.rawValue)
            let frame = ext_image_copy_capture_session_v1_create_frame(proxy)!
            self.frame = frame
            ext_image_copy_capture_frame_v1_add_listener(frame, Self.frameListener, Unmanaged.passUnretained(self).toOpaque())
            ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer)
            ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, w, h)
            ext_image_copy_capture_frame_v1_capture(frame)
            try settle()
        }

        /// Roundtrips until the frame is ready or failed, for at most `seconds` (a repaint
        /// waits for the output's frame in flight).
        func settle(seconds: Double = 0.5) throws {
            let deadline = Date().addingTimeInterval(seconds)
            repeat { try capturer.client.roundtrip() } while !ready && failed == nil && Date() < deadline
        }

        /// 0xRRGGBB of the copy at (x, y).
        func colour(at x: Int, _ y: Int) -> UInt32 { argb(at: x, y) & 0xff_ffff }

        /// The copy's whole pixel at (x, y), alpha included.
        func argb(at x: Int, _ y: Int) -> UInt32 {
            memory!.load(fromByteOffset: (y * Int(size!.width) + x) * 4, as: UInt32.self)
        }

        deinit {
            if let memory { munmap(memory, mapped) }
        }

        nonisolated(unsafe) static let listener: UnsafeMutablePointer<ext_image_copy_capture_session_v1_listener> = {
            func session(_ data: UnsafeMutableRawPointer?) -> Session { Unmanaged<Session>.fromOpaque(data!).takeUnretainedValue() }
            let pointer = UnsafeMutablePointer<ext_image_copy_capture_session_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: ext_image_copy_capture_session_v1_listener(
                buffer_size: { data, _, width, height in session(data).size = (width, height) },
                shm_format: { data, _, format in session(data).formats.append(format) },
                dmabuf_device: { _, _, _ in },
                dmabuf_format: { _, _, _, _ in },
                done: { data, _ in session(data).constraintsDone += 1 },
                stopped: { data, _ in session(data).stopped = true }
            ))
            return pointer
        }()

        nonisolated(unsafe) static let frameListener: UnsafeMutablePointer<ext_image_copy_capture_frame_v1_listener> = {
            func session(_ data: UnsafeMutableRawPointer?) -> Session { Unmanaged<Session>.fromOpaque(data!).takeUnretainedValue() }
            let pointer = UnsafeMutablePointer<ext_image_copy_capture_frame_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: ext_image_copy_capture_frame_v1_listener(
                transform: { data, _, transform in session(data).transform = transform },
                damage: { data, _, x, y, width, height in
                    session(data).damage.append(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
                },
                presentation_time: { _, _, _, _, _ in },
                ready: { data, _ in session(data).ready = true },
                failed: { data, _, reason in session(data).failed = reason }
            ))
            return pointer
        }()
    }

    static func server() throws -> TestServer {
        try TestServer(headless: .init(outputs: [Size(width: 640, height: 480)]))
    }

    @Test func anOutputsCopyIsWhatGrimSees() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 100, at: (30, 40))
        try client.commitBuffer(window.surface, width: 200, height: 100, colour: Self.red)
        let capturer = try Capturer(client)
        let source = ext_output_image_capture_source_manager_v1_create_source(capturer.outputSources, client.outputs[0])!
        let session = try capturer.session(of: source)
        #expect(session.size! == (640, 480) && session.formats == [WL_SHM_FORMAT_XRGB8888.rawValue, WL_SHM_FORMAT_ARGB8888.rawValue])
        try session.capture()
        #expect(session.ready && session.transform == 0)
        #expect(session.damage == [Rect(x: 0, y: 0, width: 640, height: 480)], "the first frame: everything")
        let grim = try Screenshot(socket: server.socket)
        var differing = 0
        for y in 0..<480 { for x in 0..<640 where session.colour(at: x, y) != grim.colour(at: x, y) { differing += 1 } }
        #expect(differing == 0, "ext-image-copy-capture's copy and grim's picture (wlr-screencopy)")
        #expect(session.colour(at: 30, 40) == Self.red & 0xff_ffff && session.colour(at: 29, 40) != Self.red & 0xff_ffff)

        // Nothing changed: the next frame waits; the window's new colour: it comes, with where.
        try session.capture()
        #expect(!session.ready && session.failed == nil, "no change, no frame")
        try client.commitBuffer(window.surface, width: 200, height: 100, colour: Self.green)
        try session.settle()
        #expect(session.ready && session.colour(at: 100, 80) == Self.green & 0xff_ffff)
        #expect(session.damage.contains(Rect(x: 30, y: 40, width: 200, height: 100)), "\(session.damage)")
    }

    /// The window thumbnailer's case: a window under another is copied as it is, its own
    /// pixels; it changes, and the next frame has the change; it closes, and the session stops.
    @Test func aCoveredWindowsCopyIsItsOwnPixels() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let below = try client.toplevel(width: 150, height: 100, at: (0, 0))
        xdg_toplevel_set_title(below.toplevel, "below")
        xdg_toplevel_set_app_id(below.toplevel, "org.example.below")
        let pattern = try client.buffer(width: 150, height: 100) { x, _ in x < 75 ? Self.red : Self.green }
        wl_surface_attach(below.surface, pattern, 0, 0)
        wl_surface_damage_buffer(below.surface, 0, 0, 150, 100)
        wl_surface_commit(below.surface)
        let cover = try client.toplevel(width: 300, height: 200, at: (0, 0))
        xdg_toplevel_set_title(cover.toplevel, "cover")
        try client.commitBuffer(cover.surface, width: 300, height: 200, colour: Self.blue)
        try client.roundtrip()
        let grim = try Screenshot(socket: server.socket)
        #expect(grim.colour(at: 10, 10) == Self.blue & 0xff_ffff, "the window is covered")

        let capturer = try Capturer(client)
        let handle = try capturer.handle(titled: "below")
        #expect(handle.appID == "org.example.below" && handle.done >= 1)
        #expect(Set(capturer.handles.compactMap(\.identifier)).count == 2, "an identifier each")
        let source = ext_foreign_toplevel_image_capture_source_manager_v1_create_source(capturer.windowSources, handle.proxy)!
        let session = try capturer.session(of: source)
        #expect(session.size! == (150, 100))
        try session.capture()
        #expect(session.ready)
        var wrong = 0
        for y in 0..<100 { for x in 0..<150 where session.colour(at: x, y) != (x < 75 ? Self.red : Self.green) & 0xff_ffff { wrong += 1 } }
        #expect(wrong == 0, "150x100 pixels, each the window's own, though another covers it")

        try session.capture()
        #expect(!session.ready, "unchanged: waits")
        try client.commitBuffer(below.surface, width: 150, height: 100, colour: Self.green)
        try session.settle()
        #expect(session.ready && session.colour(at: 10, 10) == Self.green & 0xff_ffff)

        xdg_toplevel_destroy(below.toplevel)
        try client.roundtrip()
        #expect(session.stopped && handle.closed)
    }

    /// A screen sharer drawing the cursor itself: the cursor session says when the cursor is
    /// over a window and where, and its capture session copies the cursor image, alpha and all.
    @Test func aCursorSessionFollowsTheCursorOverAWindowAndCopiesItsImage() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 100, at: (100, 100))
        xdg_toplevel_set_title(window.toplevel, "shared")
        try client.commitBuffer(window.surface, width: 200, height: 100, colour: Self.red)
        let capturer = try Capturer(client)
        let source = ext_foreign_toplevel_image_capture_source_manager_v1_create_source(capturer.windowSources, try capturer.handle(titled: "shared").proxy)!
        final class Heard { var events: [String] = [] }
        let heard = Heard()
        let cursorSession = ext_image_copy_capture_manager_v1_create_pointer_cursor_session(capturer.manager, source, wl_seat_get_pointer(client.seat))!
        nonisolated(unsafe) let listener = UnsafeMutablePointer<ext_image_copy_capture_cursor_session_v1_listener>.allocate(capacity: 1)
        func events(_ data: UnsafeMutableRawPointer?) -> Heard { Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue() }
        listener.initialize(to: ext_image_copy_capture_cursor_session_v1_listener(
            enter: { data, _ in events(data).events.append("enter") },
            leave: { data, _ in events(data).events.append("leave") },
            position: { data, _, x, y in events(data).events.append("position \(x),\(y)") },
            hotspot: { data, _, x, y in events(data).events.append("hotspot \(x),\(y)") }
        ))
        ext_image_copy_capture_cursor_session_v1_add_listener(cursorSession, listener, Unmanaged.passUnretained(heard).toOpaque())
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(150), f(120)) }
        try client.roundtrip()
        #expect(heard.events == ["enter", "position 50,20", "hotspot 0,0"], "the default arrow's hotspot is its tip")

        let session = Session(capturer: capturer, proxy: ext_image_copy_capture_cursor_session_v1_get_capture_session(cursorSession)!)
        try client.roundtrip()
        let size = try #require(session.size)
        #expect(size.width > 0 && size.height > 0 && session.constraintsDone == 1)
        try session.capture(format: WL_SHM_FORMAT_ARGB8888)
        #expect(session.ready)
        let alphas = Set((0..<Int(size.height)).flatMap { y in (0..<Int(size.width)).map { x in session.argb(at: x, y) >> 24 } })
        #expect(alphas.contains(0xff) && alphas.contains(0), "an arrow's opaque pixels and the transparent ones around it: \(alphas)")
        #expect(session.argb(at: 0, 0) >> 24 == 0xff, "the tip")

        heard.events.removeAll()
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(160), f(130)) }
        try client.roundtrip()
        #expect(heard.events == ["position 60,30"])
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(500), f(400)) }
        try client.roundtrip()
        #expect(heard.events == ["position 60,30", "leave"], "off the window")
        _ = window
    }

    /// Each wrong use: its protocol error, or a failed frame the client can recover from.
    @Test func wrongUsesAreErrorsOrFailedFrames() throws {
        let server = try Self.server()
        func fresh() throws -> (TestClient, Capturer, Session) {
            let client = try TestClient(socket: server.socket)
            let capturer = try Capturer(client)
            let source = ext_output_image_capture_source_manager_v1_create_source(capturer.outputSources, client.outputs[0])!
            return (client, capturer, try capturer.session(of: source))
        }
        do {
            let (client, capturer, _) = try fresh()
            let source = ext_output_image_capture_source_manager_v1_create_source(capturer.outputSources, client.outputs[0])!
            _ = ext_image_copy_capture_manager_v1_create_session(capturer.manager, source, 2)
            #expect(throws: (any Error).self) { try client.roundtrip() }
            #expect(client.lastError == "ext_image_copy_capture_manager_v1#\(client.id(capturer.manager)): 1", "invalid_option")
        }
        do {
            let (client, _, session) = try fresh()
            let frame = ext_image_copy_capture_session_v1_create_frame(session.proxy)
            _ = ext_image_copy_capture_session_v1_create_frame(session.proxy)
            #expect(throws: (any Error).self) { try client.roundtrip() }
            #expect(client.lastError.hasPrefix("ext_image_copy_capture_session_v1#") && client.lastError.hasSuffix(": 1"), "duplicate_frame")
            _ = frame
        }
        do {
            let (client, _, session) = try fresh()
            ext_image_copy_capture_frame_v1_capture(ext_image_copy_capture_session_v1_create_frame(session.proxy))
            #expect(throws: (any Error).self) { try client.roundtrip() }
            #expect(client.lastError.hasSuffix(": 1") && client.lastError.hasPrefix("ext_image_copy_capture_frame_v1"), "no_buffer")
        }
        do {
            let (client, _, session) = try fresh()
            ext_image_copy_capture_frame_v1_damage_buffer(ext_image_copy_capture_session_v1_create_frame(session.proxy), -1, 0, 10, 10)
            #expect(throws: (any Error).self) { try client.roundtrip() }
            #expect(client.lastError.hasSuffix(": 2"), "invalid_buffer_damage: \(client.lastError)")
        }
        do {
            let (client, _, session) = try fresh()
            try session.capture()
            ext_image_copy_capture_frame_v1_capture(session.frame!)
            #expect(throws: (any Error).self) { try client.roundtrip() }
            #expect(client.lastError.hasSuffix(": 3"), "already_captured: \(client.lastError)")
        }
        do {
            let (client, _, session) = try fresh()
            try session.capture(width: 320, height: 240)
            #expect(session.failed == EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS.rawValue, "a buffer of the wrong size")
            try client.roundtrip()
        }
    }
}
