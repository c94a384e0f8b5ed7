import CDRM
import Glibc
import Responder
import TactileRender
import TactileWayland

/// One XRGB8888 framebuffer a CRTC scans out: a dumb buffer (plain memory the CPU writes,
/// which every KMS driver offers), mapped here, with its framebuffer id.
///
/// `history` is what it missed while the other buffer was drawn: two buffers alternate,
/// and each catches up before it is shown again.
final class DumbBuffer: ScanoutBuffer {
    let size: Size
    let stride: Int
    let pixels: UnsafeMutableRawPointer
    let framebuffer: UInt32
    /// The buffer's GEM handle, which a legacy cursor plane takes.
    let handle: UInt32
    private let byteCount: Int
    private let fd: Int32
    var history: DamageHistory

    /// A cleared buffer of `size` on the card `fd`; nil (with errno) when the driver refuses.
    init?(card fd: Int32, size: Size) {
        self.fd = fd
        self.size = size
        var handle: UInt32 = 0, pitch: UInt32 = 0, bytes: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(size.width), UInt32(size.height), 32, 0, &handle, &pitch, &bytes) == 0 else { return nil }
        self.handle = handle
        stride = Int(pitch)
        byteCount = Int(bytes)
        var framebuffer: UInt32 = 0
        let handles: [UInt32] = [handle, 0, 0, 0], pitches: [UInt32] = [pitch, 0, 0, 0], offsets: [UInt32] = [0, 0, 0, 0]
        guard drmModeAddFB2(fd, UInt32(size.width), UInt32(size.height), tactile_drm_format_xrgb8888, handles, pitches, offsets, &framebuffer, 0) == 0 else {
            drmModeDestroyDumbBuffer(fd, handle)
            return nil
        }
        self.framebuffer = framebuffer
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
              let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) /* MAP_FAILED */ else {
            drmModeRmFB(fd, framebuffer)
            drmModeDestroyDumbBuffer(fd, handle)
            return nil
        }
        pixels = mapped
        memset(pixels, 0, byteCount)
        history = DamageHistory(size: size)
    }

    func draw(_ frame: OutputFrame, _ rects: [Rect], withCursor: Bool) {
        frame.copy(rects, into: pixels, stride: stride, withCursor: withCursor)
    }

    deinit {
        munmap(pixels, byteCount)
        drmModeRmFB(fd, framebuffer)
        drmModeDestroyDumbBuffer(fd, handle)
    }
}
