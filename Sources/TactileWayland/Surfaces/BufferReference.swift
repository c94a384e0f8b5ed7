import CWaylandServer
import Logging
import Responder
import TactileRender

/// A wl_buffer attached and not yet committed. Commit copies its pixels and releases it at
/// once, so a client can reuse the buffer right away and Tactile never reads client memory
/// after the commit: a file truncated later cannot fault a repaint.
final class BufferReference {
    private var buffer: OpaquePointer?
    private var listener: UnsafeMutablePointer<tactile_listener>?

    init(_ buffer: OpaquePointer) {
        self.buffer = buffer
        listener = tactile_listener_create(nil, { listener, _ in
            // The client destroyed the buffer before committing: forget it.
            guard let listener else { return }
            let owner = tactile_listener_context(listener)
            if let owner { Unmanaged<BufferReference>.fromOpaque(owner).takeUnretainedValue().forget() }
        })
        listener!.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        wl_resource_add_destroy_listener(buffer, &listener!.pointee.listener)
    }

    deinit { forget() }

    /// The buffer's size and pixels. `image`, when it has the buffer's size and format
    /// class, is updated in place inside `damage` (nil: everywhere); otherwise a new image
    /// gets every pixel. Reads happen under libwayland's SIGBUS guard: a pool whose file is
    /// shorter than the client claims gets wl_shm.invalid_fd posted to that client, and
    /// nobody else notices. Nil for a buffer destroyed before the commit.
    func read(into image: Image?, damage: [Rect]?, logger: Logger) -> BufferAttachment? {
        guard let buffer else { return nil }
        guard let shm = wl_shm_buffer_get(buffer) else {
            return SinglePixelBuffer.of(buffer)?.attachment ?? BufferAttachment(width: 0, height: 0, image: nil)
        }
        let size = Size(width: Int(wl_shm_buffer_get_width(shm)), height: Int(wl_shm_buffer_get_height(shm)))
        guard let format = PixelFormat(shm: wl_shm_buffer_get_format(shm)) else {
            // libwayland accepts only the formats we advertise; nothing else reaches here.
            return BufferAttachment(width: size.width, height: size.height, image: nil)
        }
        let reusable = image.flatMap { $0.size == size && $0.isOpaque == format.isOpaque ? $0 : nil }
        guard let target = reusable ?? Image(size: size, opaque: format.isOpaque) else {
            logger.warning("a \(size.width)x\(size.height) buffer is beyond what Tactile composes (\(Image.maximumSide) px a side): its surface shows nothing")
            return BufferAttachment(width: size.width, height: size.height, image: nil)
        }
        let rects = reusable == nil ? [target.bounds] : damage ?? [target.bounds]
        wl_shm_buffer_begin_access(shm)
        if let data = wl_shm_buffer_get_data(shm) {
            target.copy(from: data, format: format, stride: Int(wl_shm_buffer_get_stride(shm)), rects: rects)
        }
        wl_shm_buffer_end_access(shm)
        return BufferAttachment(width: size.width, height: size.height, image: target)
    }

    /// The shm buffer, while the client has not destroyed it.
    var shmBuffer: OpaquePointer? { buffer.flatMap(wl_shm_buffer_get) }

    func release() {
        if let buffer { wl_buffer_send_release(buffer) }
    }

    private func forget() {
        if let listener { tactile_listener_destroy(listener) }
        listener = nil
        buffer = nil
    }
}
