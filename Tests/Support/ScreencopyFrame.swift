import CWaylandClient
import Foundation
import WaylandProtocols

/// One zwlr_screencopy_frame_v1 as a screen recorder uses it: told the buffer layout, given
/// a buffer, then told what changed and that the pixels are there.
final class ScreencopyCapture {
    private(set) var layout: (width: UInt32, height: UInt32, stride: UInt32)?
    private(set) var damage: [(x: UInt32, y: UInt32, width: UInt32, height: UInt32)] = []
    private(set) var ready = false
    private(set) var failed = false
    private let frame: OpaquePointer
    /// Kept for the frame's life: the frame is destroyed through its connection, which an
    /// optimized build would otherwise close as soon as the test last names the client.
    private let client: TestClient
    private var memory: UnsafeMutableRawPointer?
    private var size = 0

    /// A frame of the client's first output, described once this returns.
    init(client: TestClient) throws {
        self.client = client
        frame = zwlr_screencopy_manager_v1_capture_output(client.screencopy, 0, client.outputs[0])!
        zwlr_screencopy_frame_v1_add_listener(frame, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        try client.roundtrip()
    }

    deinit {
        zwlr_screencopy_frame_v1_destroy(frame)
        if let memory { munmap(memory, size) }
    }

    /// A whole frame of the client's first output, copied: what the output shows now, in
    /// its own (panel) axes. `waitingForDamage`: copy_with_damage, which waits for a change
    /// the client has not seen; else copy, at the next repaint whatever changed.
    static func copied(client: TestClient, waitingForDamage: Bool = true) throws -> ScreencopyCapture {
        let capture = try ScreencopyCapture(client: client)
        try capture.copyWithDamage(client: client, waitingForDamage: waitingForDamage)
        while !capture.ready && !capture.failed { try client.roundtrip() }
        return capture
    }

    /// Sends copy_with_damage with a buffer of the described layout, its file then shrunk to
    /// `shrunkTo` bytes if given (a hostile client's).
    func copyWithDamage(client: TestClient, waitingForDamage: Bool = true, shrunkTo: Int? = nil) throws {
        guard let layout else { throw ClientError.protocolError("no buffer event") }
        size = Int(layout.stride * layout.height)
        let fd = tactile_client_memfd_create("tactile-test-screencopy")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw ClientError.noMemory }
        defer { close(fd) }
        memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        let pool = wl_shm_create_pool(client.shm, fd, Int32(size))
        defer { wl_shm_pool_destroy(pool) }
        let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(layout.width), Int32(layout.height), Int32(layout.stride), WL_SHM_FORMAT_XRGB8888.rawValue)
        if let shrunkTo { ftruncate(fd, off_t(shrunkTo)) }
        if waitingForDamage {
            zwlr_screencopy_frame_v1_copy_with_damage(frame, buffer)
        } else {
            zwlr_screencopy_frame_v1_copy(frame, buffer)
        }
    }

    /// 0xRRGGBB at (x, y) of the copied pixels.
    func colour(at x: Int, _ y: Int) -> UInt32 {
        guard let memory, let layout else { return 0 }
        return memory.load(fromByteOffset: y * Int(layout.stride) + x * 4, as: UInt32.self) & 0xff_ffff
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<zwlr_screencopy_frame_v1_listener> = {
        let table = UnsafeMutablePointer<zwlr_screencopy_frame_v1_listener>.allocate(capacity: 1)
        table.initialize(to: zwlr_screencopy_frame_v1_listener(
            buffer: { data, _, _, width, height, stride in capture(data).layout = (width, height, stride) },
            flags: { _, _, _ in },
            ready: { data, _, _, _, _ in capture(data).ready = true },
            failed: { data, _ in capture(data).failed = true },
            damage: { data, _, x, y, width, height in capture(data).damage.append((x, y, width, height)) },
            linux_dmabuf: { _, _, _, _, _ in },
            buffer_done: { _, _ in }
        ))
        return table
    }()

    private static func capture(_ data: UnsafeMutableRawPointer?) -> ScreencopyCapture {
        Unmanaged<ScreencopyCapture>.fromOpaque(data!).takeUnretainedValue()
    }
}
