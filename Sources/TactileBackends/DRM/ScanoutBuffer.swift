import Responder
import TactileRender
import TactileWayland

/// One of an output's two framebuffers, shown by page flips in turn: a GBM buffer object the
/// renderer draws into on the GPU (`GBMBuffer`), or a dumb buffer the CPU writes
/// (`DumbBuffer`), for pixman and wherever the renderer cannot draw into the card's buffers.
protocol ScanoutBuffer: AnyObject {
    var size: Size { get }
    /// The framebuffer id a CRTC scans out.
    var framebuffer: UInt32 { get }
    /// What it missed while the other buffer was drawn.
    var history: DamageHistory { get set }
    /// Writes `rects` of `frame` into the buffer, the cursor with them unless a plane shows it.
    func draw(_ frame: OutputFrame, _ rects: [Rect], withCursor: Bool)
}

extension DRMCard {
    /// Two framebuffers of `size`: GBM buffer objects the renderer draws into where it can,
    /// else dumb buffers, with the reason in `why`; nil when the driver gives neither.
    func scanoutBuffers(size: Size) -> (buffers: [any ScanoutBuffer], why: String)? {
        var why = "the renderer (\(host.renderer.name)) imports no dmabufs"
        if let gbm {
            switch (GBMBuffer.make(gbm: gbm, card: fd, size: size, renderer: host.renderer), GBMBuffer.make(gbm: gbm, card: fd, size: size, renderer: host.renderer)) {
            case (.success(let first), .success(let second)):
                return ([first, second], "frames drawn by the GPU into GBM buffer objects and scanned out")
            case (.failure(let error), _), (_, .failure(let error)):
                why = error.description
            }
        }
        guard let first = DumbBuffer(card: fd, size: size), let second = DumbBuffer(card: fd, size: size) else { return nil }
        return ([first, second], "frames written by the CPU into dumb buffers: \(why)")
    }
}
