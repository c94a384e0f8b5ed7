import CWaylandServer
import Responder
import TactileRender
import WaylandProtocols

/// zwlr_screencopy_frame_v1: one copy of a rectangle of an output into a client's buffer.
final class ScreencopyFrame: ResourceObject {
    private unowned(unsafe) let screencopy: Screencopy
    let owner: ClientID
    /// Nil for an output that was gone when the frame was made; the frame then fails.
    private(set) weak var output: Output?
    /// In canvas (output) pixels.
    let rect: Rect
    let overlaysCursor: Bool
    private(set) var withDamage = false
    private var used = false
    /// The buffer to fill, with a listener that forgets it if the client destroys it first.
    private var buffer: BufferReference?

    init(screencopy: Screencopy, owner: ClientID, output: Output?, rect: Rect, overlaysCursor: Bool) {
        self.screencopy = screencopy
        self.owner = owner
        self.output = output
        self.rect = rect
        self.overlaysCursor = overlaysCursor
    }

    /// The one buffer layout Tactile fills: XRGB8888, the rectangle's size, packed rows.
    func describe() {
        guard let resource else { return }
        guard output != nil, !rect.isEmpty else { return fail() }
        zwlr_screencopy_frame_v1_send_buffer(resource, PixelFormat.xrgb8888.shm, UInt32(rect.width), UInt32(rect.height), UInt32(rect.width * 4))
        if version >= 3 { zwlr_screencopy_frame_v1_send_buffer_done(resource) }
    }

    private func copy(_ buffer: OpaquePointer?, withDamage: Bool) {
        guard !used else { return postError(ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED.rawValue, "the frame was already copied") }
        used = true
        guard let buffer, let shm = ShmBuffer.of(buffer), shm.format == .xrgb8888, shm.size == rect.size, shm.stride >= rect.width * 4 else {
            return postError(ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER.rawValue,
                             "the buffer must be XRGB8888 shm of \(rect.width)x\(rect.height) with a stride of at least \(rect.width * 4)")
        }
        guard output != nil else { return fail() }
        self.withDamage = withDamage
        self.buffer = BufferReference(buffer)
        screencopy.wait(self)
    }

    /// Copies the frame into the client's buffer, reports `damage` (canvas pixels) when asked
    /// to, and says it is ready.
    func fulfil(canvas: any Canvas, damage: [Rect], cursor: DrawItem?, time: Instant) {
        guard let resource else { return }
        guard let shm = buffer?.shmBuffer else { return fail() }
        canvas.write(rect, into: shm.beginAccess(), format: .xrgb8888, size: rect.size, stride: shm.stride, at: .zero,
                     overlay: overlaysCursor ? cursor : nil)
        shm.endAccess()
        buffer = nil
        zwlr_screencopy_frame_v1_send_flags(resource, 0)
        if withDamage {
            for changed in damage {
                let r = changed.intersection(rect)
                guard !r.isEmpty else { continue }
                zwlr_screencopy_frame_v1_send_damage(resource, UInt32(r.x - rect.x), UInt32(r.y - rect.y), UInt32(r.width), UInt32(r.height))
            }
        }
        let seconds = time.microseconds / 1_000_000
        zwlr_screencopy_frame_v1_send_ready(resource, UInt32(truncatingIfNeeded: seconds >> 32), UInt32(truncatingIfNeeded: seconds),
                                            UInt32((time.microseconds % 1_000_000) * 1000))
    }

    func fail() {
        buffer = nil
        if let resource { zwlr_screencopy_frame_v1_send_failed(resource) }
    }

    static let requests = RequestTable(zwlr_screencopy_frame_v1_interface(
        copy: { _, resource, buffer in ScreencopyFrame.from(resource)?.copy(buffer, withDamage: false) },
        destroy: destroyResource,
        copy_with_damage: { _, resource, buffer in ScreencopyFrame.from(resource)?.copy(buffer, withDamage: true) }
    ))
}
