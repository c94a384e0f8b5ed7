import CWaylandClient
import CWaylandServer
import Glibc
import Responder
import TactileRender
import TactileWayland

/// One XRGB8888 buffer the parent compositor reads our output's pixels from: a memfd of its
/// own (so a buffer the parent still holds after a resize can go on its own, later), mapped
/// here, shared as a wl_shm pool of one wl_buffer.
///
/// `history` is what it missed while other buffers were drawn, which it catches up on the
/// next time it is used.
final class ShmBuffer: NestedBuffer {
    let size: Size
    let stride: Int
    let pixels: UnsafeMutableRawPointer
    private(set) var proxy: OpaquePointer?
    private let fd: Int32
    private var byteCount: Int { stride * size.height }
    var busy = false
    var history: DamageHistory

    /// A buffer of `size` pixels from `shm`; nil when memory or the parent refuse.
    init?(shm: OpaquePointer, size: Size) {
        self.size = size
        stride = size.width * 4
        history = DamageHistory(size: size)
        fd = tactile_client_memfd_create("tactile-nested-output")
        guard fd >= 0 else { return nil }
        let bytes = stride * size.height
        guard ftruncate(fd, off_t(bytes)) == 0, let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) /* MAP_FAILED */ else {
            close(fd)
            return nil
        }
        pixels = mapped
        let pool = wl_shm_create_pool(shm, fd, Int32(bytes))
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(size.width), Int32(size.height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue)
        // The buffer keeps the pool's memory alive on the parent's side.
        wl_shm_pool_destroy(pool)
    }

    func draw(_ frame: OutputFrame, _ rects: [Rect]) {
        frame.copy(rects, into: pixels, stride: stride)
    }

    deinit {
        if let proxy { wl_buffer_destroy(proxy) }
        munmap(pixels, byteCount)
        close(fd)
    }
}
