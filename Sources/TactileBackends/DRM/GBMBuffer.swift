import CDRM
import Glibc
import Responder
import TactileRender
import TactileWayland

/// An output framebuffer allocated by GBM on the card for scanout, which the renderer draws
/// into on the GPU (`RenderedBufferObject`).
final class GBMBuffer: ScanoutBuffer {
    let framebuffer: UInt32
    var history: DamageHistory
    private let object: RenderedBufferObject
    private let card: Int32

    var size: Size { object.size }

    static func make(gbm: GBMDevice, card: Int32, size: Size, renderer: any Renderer) -> Result<GBMBuffer, RenderedBufferObject.Refusal> {
        RenderedBufferObject.make(gbm: gbm, size: size, scanout: true, renderer: renderer).flatMap { object in
            var framebuffer: UInt32 = 0
            let handles: [UInt32] = [object.handle, 0, 0, 0], pitches: [UInt32] = [object.stride, 0, 0, 0], offsets: [UInt32] = [object.offset, 0, 0, 0]
            guard drmModeAddFB2(card, UInt32(size.width), UInt32(size.height), tactile_drm_format_xrgb8888, handles, pitches, offsets, &framebuffer, 0) == 0 else {
                return .failure(.init(description: "the card takes no framebuffer of GBM's buffer (\(String(cString: strerror(errno))))"))
            }
            return .success(GBMBuffer(object: object, card: card, framebuffer: framebuffer))
        }
    }

    private init(object: RenderedBufferObject, card: Int32, framebuffer: UInt32) {
        (self.object, self.card, self.framebuffer) = (object, card, framebuffer)
        history = DamageHistory(size: object.size)
    }

    func draw(_ frame: OutputFrame, _ rects: [Rect], withCursor: Bool) {
        _ = frame.draw(rects, into: object.target, withCursor: withCursor)
    }

    deinit { drmModeRmFB(card, framebuffer) }
}
