import CDRM
import CGBM
import Glibc
import Responder
import TactileRender

/// An XRGB8888 GBM buffer object the server's renderer draws frames into through its dmabuf
/// (`Renderer.makeTarget`), so frames leave the GPU without a readback: what the DRM backend
/// scans out (`GBMBuffer`), and what the nested backend hands its parent (`NestedBuffer`).
/// The renderer may be another device's EGL display (a GPU's render node), which imports the
/// buffer as it imports a client's.
final class RenderedBufferObject {
    let size: Size
    let handle: UInt32
    let stride: UInt32
    let offset: UInt32
    let target: any RenderTarget
    private let bo: OpaquePointer
    /// Kept while the buffer object is: it is the device's.
    private let gbm: GBMDevice

    /// Why one could not be made, for the log.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// `scanout`: a CRTC will show it.
    static func make(gbm: GBMDevice, size: Size, scanout: Bool, renderer: any Renderer) -> Result<RenderedBufferObject, Refusal> {
        let usage = GBM_BO_USE_RENDERING.rawValue | (scanout ? GBM_BO_USE_SCANOUT.rawValue : 0)
        guard let bo = gbm_bo_create(gbm.device, UInt32(size.width), UInt32(size.height), tactile_drm_format_xrgb8888, UInt32(usage)) else {
            return .failure(Refusal(description: "GBM allocates no \(size.width)x\(size.height) buffer (\(String(cString: strerror(errno))))"))
        }
        guard gbm_bo_get_plane_count(bo) == 1 else {
            gbm_bo_destroy(bo)
            return .failure(Refusal(description: "GBM's buffer has \(gbm_bo_get_plane_count(bo)) planes"))
        }
        let made = RenderedBufferObject(bo: bo, gbm: gbm, size: size, renderer: renderer)
        guard let made else {
            gbm_bo_destroy(bo)
            return .failure(Refusal(description: errno != 0 ? "GBM's buffer cannot be exported as a dmabuf (\(String(cString: strerror(errno))))"
                : "the renderer (\(renderer.name)) cannot draw into GBM's buffers (they do not import as its EGL images)"))
        }
        return .success(made)
    }

    private init?(bo: OpaquePointer, gbm: GBMDevice, size: Size, renderer: any Renderer) {
        (self.bo, self.gbm, self.size) = (bo, gbm, size)
        handle = gbm_bo_get_handle(bo).u32
        stride = gbm_bo_get_stride(bo)
        offset = gbm_bo_get_offset(bo, 0)
        errno = 0
        let fd = gbm_bo_get_fd(bo)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Created without a modifier list: the buffer's layout is the driver's implied one.
        guard let target = renderer.makeTarget(Self.attributes(size: size, plane: .init(fd: fd, offset: offset, stride: stride))) else {
            errno = 0
            return nil
        }
        self.target = target
    }

    /// The buffer as linux-dmabuf and EGL describe it, its plane `fd`.
    func attributes(fd: Int32) -> DmabufAttributes {
        Self.attributes(size: size, plane: .init(fd: fd, offset: offset, stride: stride))
    }

    private static func attributes(size: Size, plane: DmabufAttributes.Plane) -> DmabufAttributes {
        DmabufAttributes(width: Int32(size.width), height: Int32(size.height), format: tactile_drm_format_xrgb8888,
                         modifier: DmabufFormat.implicitModifier, planes: [plane])
    }

    /// A new dmabuf descriptor of it, the caller's to close; -1 when GBM cannot export it.
    func exportFD() -> Int32 { gbm_bo_get_fd(bo) }

    deinit { gbm_bo_destroy(bo) }
}

/// GBM on a DRM device's fd, made only where the renderer can draw into dmabufs (GBM loads
/// the device's Mesa driver, which pixman's kiosk has no use for).
final class GBMDevice {
    let device: OpaquePointer

    init?(fd: Int32) {
        guard let device = gbm_create_device(fd) else { return nil }
        self.device = device
    }

    deinit { gbm_device_destroy(device) }
}
