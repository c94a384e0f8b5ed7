import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileRender
import Testing
import WaylandProtocols

/// Tactile's own wl_shm: version 2 with `release`, every format composition reads, buffers
/// checked as the protocol says (each mistake its own error, on the object the protocol
/// names, and the client beside it unaffected), a pool mapped only as far as its buffers
/// reach, and a pool whose mapping moves while one of its buffers is on screen.
@Suite(.serialized) struct SharedMemoryTests {
    static let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_c020, blue: UInt32 = 0xff20_40d0

    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    /// A client binding version 2 hears every format composition reads, ARGB8888 and
    /// XRGB8888 first; after `release` its pool still makes buffers that show.
    @Test func version2AnnouncesEveryFormatAndReleaseLeavesThePoolWorking() throws {
        let name = try #require(client.registryNames["wl_shm"])
        let shm = try #require(OpaquePointer(wl_registry_bind(client.registry, name, tactile_wl_shm_interface(), 2)))
        let formats = FormatList()
        wl_shm_add_listener(shm, FormatList.listener, Unmanaged.passUnretained(formats).toOpaque())
        try client.roundtrip()
        #expect(wl_proxy_get_version(shm) == 2)
        #expect(formats.seen == PixelFormat.all.map(\.shm), "every format composition reads, ARGB8888 and XRGB8888 first")

        let file = try File(bytes: 100 * 100 * 4, colour: Self.green)
        let pool = wl_shm_create_pool(shm, file.fd, Int32(file.bytes))
        tactile_client_shm_release(shm)
        try client.roundtrip()
        let buffer = wl_shm_pool_create_buffer(pool, 0, 100, 100, 400, WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.show(buffer, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.green & 0xff_ffff, "the released wl_shm's pool's buffer shows")
    }

    /// What the protocol calls each mistake: the error, on the object it names.
    enum Mistake: String, CaseIterable, CustomTestStringConvertible {
        case formatNotAnnounced, negativeOffset, emptyWidth, emptyHeight, strideOfPixelsNotBytes, strideShortOfA16BitRow,
             bufferPastThePoolsEnd, poolShrunk, poolOfNoBytes, fileThatCannotBeMapped

        var testDescription: String { rawValue }
    }

    @Test(arguments: Mistake.allCases)
    func eachMistakeIsItsProtocolErrorAndTheClientBesideGoesOn(_ mistake: Mistake) throws {
        let bystanderWindow = try client.toplevel(width: 50, height: 50, at: (200, 0))
        let hostile = try TestClient(socket: server.socket)
        let file = try File(bytes: 4096, colour: nil)
        let pool = try #require(wl_shm_create_pool(hostile.shm, file.fd, 4096))
        let argb = WL_SHM_FORMAT_ARGB8888.rawValue, rgb565 = WL_SHM_FORMAT_RGB565.rawValue
        var culprit: OpaquePointer? = pool
        switch mistake {
        case .formatNotAnnounced: _ = wl_shm_pool_create_buffer(pool, 0, 16, 16, 64, WL_SHM_FORMAT_NV12.rawValue)
        case .negativeOffset: _ = wl_shm_pool_create_buffer(pool, -4, 16, 16, 64, argb)
        case .emptyWidth: _ = wl_shm_pool_create_buffer(pool, 0, 0, 16, 64, argb)
        case .emptyHeight: _ = wl_shm_pool_create_buffer(pool, 0, 16, -1, 64, argb)
        case .strideOfPixelsNotBytes: _ = wl_shm_pool_create_buffer(pool, 0, 16, 16, 16, argb)
        case .strideShortOfA16BitRow: _ = wl_shm_pool_create_buffer(pool, 0, 16, 16, 31, rgb565)
        case .bufferPastThePoolsEnd: _ = wl_shm_pool_create_buffer(pool, 4, 32, 32, 128, argb)
        case .poolShrunk: wl_shm_pool_resize(pool, 4095)
        case .poolOfNoBytes:
            _ = wl_shm_create_pool(hostile.shm, file.fd, 0)
            culprit = hostile.shm
        case .fileThatCannotBeMapped:
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]); close(ends[1]) }
            _ = wl_shm_create_pool(hostile.shm, ends[0], 4096)
            culprit = hostile.shm
        }
        #expect(throws: ClientError.self) { try hostile.roundtrip() }
        let interface = culprit == hostile.shm ? "wl_shm" : "wl_shm_pool"
        let code = switch mistake {
        case .formatNotAnnounced: WL_SHM_ERROR_INVALID_FORMAT.rawValue
        case .fileThatCannotBeMapped: WL_SHM_ERROR_INVALID_FD.rawValue
        default: WL_SHM_ERROR_INVALID_STRIDE.rawValue
        }
        #expect(hostile.lastError == "\(interface)#\(hostile.id(culprit)): \(code)")
        try client.commitBuffer(bystanderWindow.surface, width: 50, height: 50, colour: Self.blue)
        try client.roundtrip()
        #expect(try client.surfaceHit(at: 225, 25) == client.id(bystanderWindow.surface), "the other client is served")
    }

    /// The limits themselves are not mistakes: a stride of exactly a row, and a buffer that
    /// ends at the pool's last byte, show.
    @Test func aBufferExactlyAtTheLimitsShows() throws {
        let file = try File(bytes: 4096, colour: Self.red)
        let pool = wl_shm_create_pool(client.shm, file.fd, 4096)
        defer { wl_shm_pool_destroy(pool) }
        let buffer = wl_shm_pool_create_buffer(pool, 0, 32, 32, 128, WL_SHM_FORMAT_ARGB8888.rawValue)
        let window = try client.toplevel(width: 32, height: 32, at: (0, 0))
        try client.show(buffer, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 16, 16) == Self.red & 0xff_ffff)
    }

    /// A 24-bit buffer whose stride the protocol allows but pixman cannot read (not a
    /// multiple of 4 bytes) is no error: its surface shows nothing (the log says why). The
    /// same pixels with a stride of 32 show.
    @Test(arguments: [(Int32(30), false), (32, true)])
    func aStrideNotAMultipleOfFourShowsNothingAndIsNoError(_ stride: Int32, _ shows: Bool) throws {
        let file = try File(bytes: 4096, colour: 0xffff_ffff)
        let pool = wl_shm_create_pool(client.shm, file.fd, 4096)
        defer { wl_shm_pool_destroy(pool) }
        let buffer = wl_shm_pool_create_buffer(pool, 0, 10, 10, stride, WL_SHM_FORMAT_RGB888.rawValue)
        let window = try client.toplevel(width: 10, height: 10, at: (0, 0))
        try client.show(buffer, on: window.surface)
        try client.roundtrip()
        let colour = try Screenshot(socket: server.socket).colour(at: 5, 5)
        #expect(colour == (shows ? 0xff_ffff : CompositionTests.background), "stride \(stride): \(String(colour, radix: 16))")
    }

    /// A pool declared at 2 GiB over a 64 KiB file maps the page its first buffer reaches,
    /// then only as far as a later buffer reaches: never the pool's declared size.
    @Test func aHugePoolIsMappedOnlyAsFarAsItsBuffersReach() throws {
        let name = "tactile-test-huge-pool"
        let file = try File(bytes: 65536, colour: Self.red, name: name)
        let pool = wl_shm_create_pool(client.shm, file.fd, Int32.max)
        defer { wl_shm_pool_destroy(pool) }
        _ = wl_shm_pool_create_buffer(pool, 0, 16, 16, 64, WL_SHM_FORMAT_ARGB8888.rawValue)
        try client.roundtrip()
        #expect(Self.mappedBytes(of: name) == 4096, "one page for a 1 KiB buffer")
        _ = wl_shm_pool_create_buffer(pool, 60000, 16, 16, 64, WL_SHM_FORMAT_ARGB8888.rawValue)
        try client.roundtrip()
        #expect(Self.mappedBytes(of: name) == 61440, "up to the page the second buffer ends in (byte 61024)")
    }

    /// A buffer on screen while its pool grows and a later buffer's reach moves the pool's
    /// mapping: the shown buffer is read where it lies now, with what the client writes into
    /// it after, and the later buffer shows too.
    @Test func aPoolResizedWhileItsBufferIsOnScreenKeepsShowingIt() throws {
        let small = 100 * 100 * 4, large = 64 << 20
        let file = try File(bytes: small, colour: Self.red)
        let pool = wl_shm_create_pool(client.shm, file.fd, Int32(small))
        defer { wl_shm_pool_destroy(pool) }
        let first = wl_shm_pool_create_buffer(pool, 0, 100, 100, 400, WL_SHM_FORMAT_ARGB8888.rawValue)
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.show(first, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.red & 0xff_ffff)

        try file.grow(to: large)
        wl_shm_pool_resize(pool, Int32(large))
        let second = wl_shm_pool_create_buffer(pool, Int32(large - small), 100, 100, 400, WL_SHM_FORMAT_ARGB8888.rawValue)
        try client.roundtrip()
        file.fill(Self.green, at: 0, count: 100 * 100)
        try client.show(first, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.green & 0xff_ffff, "the first buffer, read where the pool lies now")

        file.fill(Self.blue, at: (large - small) / 4, count: 100 * 100)
        try client.show(second, on: window.surface)
        #expect(try Screenshot(socket: server.socket).colour(at: 50, 50) == Self.blue & 0xff_ffff, "the buffer at the grown pool's end")
    }

    /// A screen copy into a buffer whose file the client shrank: the write past its end is
    /// `invalid_fd` on that buffer, and the server and the client beside go on.
    @Test func aCopyIntoAShrunkFileIsTheClientsProtocolError() throws {
        let window = try client.toplevel(width: 50, height: 50, at: (0, 0))
        try client.show(client.buffer(width: 50, height: 50, colour: Self.blue), on: window.surface)
        let hostile = try TestClient(socket: server.socket)
        let capture = try ScreencopyCapture(client: hostile)
        try capture.copyWithDamage(client: hostile, waitingForDamage: false, shrunkTo: 4096)
        var posted: String?
        let deadline = Date().addingTimeInterval(5)
        while posted == nil, Date() < deadline {
            do { try hostile.roundtrip() } catch { posted = hostile.lastError }
        }
        #expect(posted?.hasPrefix("wl_buffer#") == true && posted?.hasSuffix(": 2") == true, "wl_shm.invalid_fd on the buffer: \(posted ?? "none")")
        #expect(try Screenshot(socket: server.socket).colour(at: 25, 25) == Self.blue & 0xff_ffff, "the screen is intact")
    }

    /// The bytes this process maps of memfds named `name`: the server's mappings (the test
    /// client maps none).
    private static func mappedBytes(of name: String) -> Int {
        // Read to the end: a file of /proc says its size is 0.
        guard let data = try? FileHandle(forReadingAtPath: "/proc/self/maps")?.readToEnd(), let maps = String(data: data, encoding: .utf8) else { return -1 }
        return maps.split(separator: "\n").filter { $0.contains("/memfd:\(name) ") }.reduce(0) { total, line in
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { Int($0, radix: 16) }
            return total + (range.count == 2 ? range[1] - range[0] : 0)
        }
    }
}

/// The format events a wl_shm sent, in order.
private final class FormatList {
    var seen: [UInt32] = []

    nonisolated(unsafe) static let listener: UnsafeMutablePointer<wl_shm_listener> = {
        let l = UnsafeMutablePointer<wl_shm_listener>.allocate(capacity: 1)
        l.initialize(to: wl_shm_listener(format: { data, _, format in
            Unmanaged<FormatList>.fromOpaque(data!).takeUnretainedValue().seen.append(format)
        }))
        return l
    }()
}

/// A memfd the test writes ARGB pixels into while the server maps it.
private final class File {
    let fd: Int32
    private(set) var bytes: Int

    /// `colour` nil leaves the file sparse.
    init(bytes: Int, colour: UInt32?, name: String = "tactile-test-shm") throws {
        fd = tactile_client_memfd_create(name)
        self.bytes = bytes
        guard fd >= 0, ftruncate(fd, off_t(bytes)) == 0 else { throw ClientError.noMemory }
        if let colour { fill(colour, at: 0, count: bytes / 4) }
    }

    deinit { close(fd) }

    func grow(to bytes: Int) throws {
        guard ftruncate(fd, off_t(bytes)) == 0 else { throw ClientError.noMemory }
        self.bytes = bytes
    }

    /// Writes `count` pixels of `colour` from pixel `first`.
    func fill(_ colour: UInt32, at first: Int, count: Int) {
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else { return }
        (memory + first * 4).initializeMemory(as: UInt32.self, repeating: colour, count: count)
        munmap(memory, bytes)
    }
}
