import CDRM
import CGBM
import Glibc
import Responder
import TactileRender
import TactileWayland

/// An XRGB8888 framebuffer allocated by GBM on the card for scanout and rendering, which the
/// renderer draws into through its dmabuf (`Renderer.makeTarget`): frames go from the GPU's
/// canvas to the screen without a readback. The dmabuf's importer may be another device's
/// EGL display (a GPU's render node, or llvmpipe on vgem in the QEMU guest), as for a
/// client's buffer.
final class GBMBuffer: ScanoutBuffer {
    let size: Size
    let framebuffer: UInt32
    var history: DamageHistory
    private let bo: OpaquePointer
    /// Kept while the buffer object is: it is the device's.
    private let gbm: GBMDevice
    private let card: Int32
    private let target: any RenderTarget

    /// Why a GBM framebuffer could not be made, for the log.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    static func make(gbm: GBMDevice, card: Int32, size: Size, renderer: any Renderer) -> Result<GBMBuffer, Refusal> {
        guard let bo = gbm_bo_create(gbm.device, UInt32(size.width), UInt32(size.height), tactile_drm_format_xrgb8888,
                                     UInt32(GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_RENDERING.rawValue)) else {
            return .failure(Refusal(description: "GBM allocates no \(size.width)x\(size.height) scanout buffer (\(String(cString: strerror(errno))))"))
        }
        guard gbm_bo_get_plane_count(bo) == 1 else {
            gbm_bo_destroy(bo)
            return .failure(Refusal(description: "GBM's scanout buffer has \(gbm_bo_get_plane_count(bo)) planes"))
        }
        let handle = gbm_bo_get_handle(bo).u32, stride = gbm_bo_get_stride(bo), offset = gbm_bo_get_offset(bo, 0)
        var framebuffer: UInt32 = 0
        let handles: [UInt32] = [handle, 0, 0, 0], pitches: [UInt32] = [stride, 0, 0, 0], offsets: [UInt32] = [offset, 0, 0, 0]
        guard drmModeAddFB2(card, UInt32(size.width), UInt32(size.height), tactile_drm_format_xrgb8888, handles, pitches, offsets, &framebuffer, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            gbm_bo_destroy(bo)
            return .failure(Refusal(description: "the card takes no framebuffer of GBM's buffer (\(reason))"))
        }
        let fd = gbm_bo_get_fd(bo)
        // Created without a modifier list: the buffer's layout is the driver's implied one.
        let attributes = DmabufAttributes(width: Int32(size.width), height: Int32(size.height), format: tactile_drm_format_xrgb8888,
                                          modifier: DmabufFormat.implicitModifier, planes: [.init(fd: fd, offset: offset, stride: stride)])
        let target = fd >= 0 ? renderer.makeTarget(attributes) : nil
        if fd >= 0 { close(fd) }
        guard let target else {
            drmModeRmFB(card, framebuffer)
            gbm_bo_destroy(bo)
            return .failure(Refusal(description: fd < 0 ? "GBM's buffer cannot be exported as a dmabuf (\(String(cString: strerror(errno))))"
                : "the renderer (\(renderer.name)) cannot draw into the card's buffers (they do not import as its EGL images)"))
        }
        return .success(GBMBuffer(bo: bo, gbm: gbm, card: card, size: size, framebuffer: framebuffer, target: target))
    }

    private init(bo: OpaquePointer, gbm: GBMDevice, card: Int32, size: Size, framebuffer: UInt32, target: any RenderTarget) {
        (self.bo, self.gbm, self.card, self.size, self.framebuffer, self.target) = (bo, gbm, card, size, framebuffer, target)
        history = DamageHistory(size: size)
    }

    func draw(_ frame: OutputFrame, _ rects: [Rect], withCursor: Bool) {
        _ = frame.draw(rects, into: target, withCursor: withCursor)
    }

    deinit {
        drmModeRmFB(card, framebuffer)
        gbm_bo_destroy(bo)
    }
}

/// GBM on a card's fd, made only where the renderer can draw into dmabufs (GBM loads the
/// card's Mesa driver, which pixman's kiosk has no use for).
final class GBMDevice {
    let device: OpaquePointer

    init?(card fd: Int32) {
        guard let device = gbm_create_device(fd) else { return nil }
        self.device = device
    }

    deinit { gbm_device_destroy(device) }
}
