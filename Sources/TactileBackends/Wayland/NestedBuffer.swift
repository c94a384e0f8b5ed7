import CWaylandClient
import Responder
import TactileRender
import TactileWayland

/// One of a nested window's buffers, which the parent shows: wl_shm memory the frame is
/// written into (`ShmBuffer`), or a dmabuf the renderer draws into on the GPU
/// (`DmabufNestedBuffer`, where the parent offers linux-dmabuf on a device the renderer
/// imports from).
protocol NestedBuffer: AnyObject {
    var size: Size { get }
    /// The parent's wl_buffer.
    var proxy: OpaquePointer? { get }
    /// The parent has it (attached and committed, no wl_buffer.release yet): not to be drawn into.
    var busy: Bool { get set }
    /// Output pixels this buffer has not been drawn with since they changed. A new buffer
    /// has missed everything.
    var history: DamageHistory { get set }
    /// Writes `rects` of `frame` into the buffer, the cursor with them.
    func draw(_ frame: OutputFrame, _ rects: [Rect])
}

/// A GBM buffer object of the parent's main device, drawn into by the renderer and handed
/// to the parent through its linux-dmabuf.
final class DmabufNestedBuffer: NestedBuffer {
    let proxy: OpaquePointer?
    var busy = false
    var history: DamageHistory
    private let object: RenderedBufferObject

    var size: Size { object.size }

    init(object: RenderedBufferObject, proxy: OpaquePointer) {
        (self.object, self.proxy) = (object, proxy)
        history = DamageHistory(size: object.size)
    }

    func draw(_ frame: OutputFrame, _ rects: [Rect]) {
        _ = frame.draw(rects, into: object.target)
    }

    deinit { if let proxy { wl_buffer_destroy(proxy) } }
}
