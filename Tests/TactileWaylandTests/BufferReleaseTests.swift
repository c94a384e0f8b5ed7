import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Client buffers are read where they lie, at each repaint, and handed back only when the
/// client's next buffer replaced them: what a client writes into a buffer it got back never
/// reaches the screen, and a file it truncates is its own protocol error.
@Suite(.serialized) struct BufferReleaseTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020, blue: UInt32 = 0xff20_40d0

    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    @Test func aBufferIsReleasedWhenTheNextOneReplacesItAndNotBefore() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let a = try SharedBuffer(client, width: 100, height: 100, colour: Self.red)
        let b = try SharedBuffer(client, width: 100, height: 100, colour: Self.green)
        try client.show(a.buffer, on: window.surface)
        #expect(!a.released, "the buffer on screen is still Tactile's")
        try client.show(b.buffer, on: window.surface)
        try waitUntil { a.released }
        #expect(a.released, "replaced: handed back")
        #expect(!b.released)
        // The same buffer committed again, with new pixels, stays Tactile's.
        try client.show(b.buffer, on: window.surface)
        #expect(!b.released, "committed again, still shown")
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.green & 0xff_ffff)
    }

    /// A client that scribbles into a buffer once it got it back: the screen keeps what the
    /// buffer held while it was shown, through a repaint of the whole window.
    @Test func pixelsWrittenIntoAReleasedBufferNeverReachTheScreen() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let a = try SharedBuffer(client, width: 100, height: 100, colour: Self.red)
        let b = try SharedBuffer(client, width: 100, height: 100, colour: Self.green)
        try client.show(a.buffer, on: window.surface)
        try client.show(b.buffer, on: window.surface)
        try waitUntil { a.released }
        a.fill(Self.blue)
        // Every pixel of the window repainted: from b, never from a.
        try client.show(b.buffer, on: window.surface)
        let shot = try Screenshot(socket: server.socket, region: "0,0 100x100")
        #expect(shot.colours(every: 9) == [Self.green & 0xff_ffff], "only the shown buffer's green")
    }

    /// The protocol keeps a surface's picture when its client destroys the buffer shown
    /// (without writing into it): Tactile keeps a copy then.
    @Test func aBufferDestroyedWhileShownKeepsItsPicture() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let a = try SharedBuffer(client, width: 100, height: 100, colour: Self.red)
        try client.show(a.buffer, on: window.surface)
        let shot = try destroyAndRepaint(a, window)
        #expect(shot.colours(every: 9) == [Self.red & 0xff_ffff])
    }

    /// A buffer past what Tactile keeps (more pixels than the largest screen, and than a
    /// 1080p one), destroyed while shown: a client whose sparse file costs it nothing cannot
    /// make Tactile copy it. Its surface
    /// shows nothing until its next commit, and keeps taking touches.
    @Test func aHugeBufferDestroyedWhileShownIsNotCopied() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let huge = try SharedBuffer(client, width: 2000, height: 1200, colour: nil)
        huge.fill(Self.red, rows: 100, columns: 100, stride: 2000)
        try client.show(huge.buffer, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.red & 0xff_ffff, "shown while the client has it")
        let shot = try destroyAndRepaint(huge, window)
        #expect(shot.colours(every: 9) == [CompositionTests.background], "nothing drawn: the background shows")
        #expect(try client.surfaceHit(at: 50, 50) == client.id(window.surface), "still the window's for touches")
    }

    /// A pool larger than its file, or a file shrunk under a shown buffer: the repaint that
    /// reads past the end posts `wl_shm.invalid_fd` to that client; the server and every
    /// other client go on.
    @Test(arguments: [false, true])
    func readingPastTheEndOfAClientsFileIsItsProtocolError(shrunkAfterShowing: Bool) throws {
        let bystander = try client.toplevel(width: 50, height: 50, at: (200, 0))
        try client.commitBuffer(bystander.surface, width: 50, height: 50, colour: Self.blue)
        let hostile = try TestClient(socket: server.socket)
        let window = try hostile.toplevel(width: 100, height: 100, at: (0, 0))
        let a = try SharedBuffer(hostile, width: 100, height: 100, colour: Self.red)
        if shrunkAfterShowing {
            try hostile.show(a.buffer, on: window.surface)
            ftruncate(a.fd, 0)
            wl_surface_damage_buffer(window.surface, 0, 0, 100, 100)
            wl_surface_commit(window.surface)
        } else {
            ftruncate(a.fd, 4096)
            wl_surface_attach(window.surface, a.buffer, 0, 0)
            wl_surface_damage_buffer(window.surface, 0, 0, 100, 100)
            wl_surface_commit(window.surface)
        }
        var posted: String?
        let deadline = Date().addingTimeInterval(5)
        while posted == nil, Date() < deadline {
            do { try hostile.roundtrip() } catch { posted = hostile.lastError }
            usleep(5_000)
        }
        #expect(posted?.hasPrefix("wl_buffer#") == true && posted?.hasSuffix(": 2") == true, "wl_shm.invalid_fd on the buffer: \(posted ?? "none")")
        try client.roundtrip()
        #expect(try Screenshot(socket: server.socket).colour(at: 225, 25) == Self.blue & 0xff_ffff, "the other client's window is intact")
    }

    /// Destroys the buffer `window` shows, then repaints all of the window (a commit that only
    /// damages it) and returns grim's image of it.
    private func destroyAndRepaint(_ buffer: SharedBuffer, _ window: Window) throws -> Screenshot {
        wl_buffer_destroy(buffer.buffer)
        wl_surface_damage_buffer(window.surface, 0, 0, 100, 100)
        let frame = RequestedFrame(window.surface)
        wl_surface_commit(window.surface)
        try waitUntil { frame.done }
        return try Screenshot(socket: server.socket, region: "0,0 100x100")
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(3)
        while !condition(), Date() < deadline {
            try client.roundtrip()
            usleep(2_000)
        }
    }
}

/// An ARGB8888 buffer whose memory the test keeps mapped: to write into after the server
/// handed it back, or to truncate under it.
private final class SharedBuffer {
    let buffer: OpaquePointer
    let fd: Int32
    private let pixels: UnsafeMutablePointer<UInt32>
    private let count: Int
    private(set) var released = false

    /// `colour` nil leaves the memory untouched: a sparse file, which costs the client nothing.
    init(_ client: TestClient, width: Int32, height: Int32, colour: UInt32?) throws {
        count = Int(width * height)
        fd = tactile_client_memfd_create("tactile-test-shared-buffer")
        guard fd >= 0, ftruncate(fd, off_t(count * 4)) == 0,
              let memory = mmap(nil, count * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED
        else { throw ClientError.noMemory }
        pixels = memory.bindMemory(to: UInt32.self, capacity: count)
        let pool = wl_shm_create_pool(client.shm, fd, Int32(count * 4))
        buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_ARGB8888.rawValue)!
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(buffer, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        if let colour { fill(colour) }
    }

    deinit {
        munmap(pixels, count * 4)
        close(fd)
    }

    func fill(_ colour: UInt32) { pixels.update(repeating: colour, count: count) }

    /// Only the top-left corner, the rest of the file left untouched (and unpaid for).
    func fill(_ colour: UInt32, rows: Int, columns: Int, stride: Int) {
        for row in 0..<rows { (pixels + row * stride).update(repeating: colour, count: columns) }
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<wl_buffer_listener> = {
        let l = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
        l.initialize(to: wl_buffer_listener(release: { data, _ in Unmanaged<SharedBuffer>.fromOpaque(data!).takeUnretainedValue().released = true }))
        return l
    }()
}
