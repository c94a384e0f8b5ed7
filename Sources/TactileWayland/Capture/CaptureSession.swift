import CWaylandServer
import Responder
import TactileRender
import WaylandProtocols

/// ext_image_copy_capture_session_v1: copies of one target (an output, a window, or the
/// cursor over one). It tells the buffers it fills (XRGB8888 or ARGB8888 shm of the target's
/// size; and XRGB8888 dmabufs on the renderer's device, which it draws into on the GPU, for
/// outputs and windows where the renderer imports dmabufs) when made and whenever the size
/// changes, keeps what changed since its previous frame, and stops when the target goes.
final class CaptureSession: ResourceObject {
    private unowned(unsafe) let part: ImageCopyCapture
    let target: CaptureTarget
    let paintsCursors: Bool
    /// What changed since the previous frame, in buffer pixels; nil until the first frame
    /// (then everything is new).
    private var unseen: [Rect]?
    /// The buffer size last told; nil before.
    private(set) var size: Size?
    private(set) var isStopped = false
    /// The session's one frame, while it lives.
    weak var frame: CaptureFrame?

    static let formats: [PixelFormat] = [.xrgb8888, .argb8888]

    init(part: ImageCopyCapture, target: CaptureTarget, paintsCursors: Bool) {
        self.part = part
        self.target = target
        self.paintsCursors = paintsCursors
    }

    /// Whether a frame now has something to copy: the first, or a change since the last.
    var hasNews: Bool { unseen.map { !$0.isEmpty } ?? true }

    /// Says the buffer constraints when they are new; stops once the target is gone.
    func describe() {
        guard let resource, !isStopped else { return }
        guard !target.isGone else { return stop() }
        // No cursor shown now: a cursor session keeps what it said.
        guard let now = part.size(of: target), now.width > 0, now.height > 0 else { return target.isCursor ? () : stop() }
        guard now != size else { return }
        size = now
        for format in Self.formats { ext_image_copy_capture_session_v1_send_shm_format(resource, format.shm) }
        if let dmabuf = dmabufModifiers {
            withArray([dmabuf.device]) { ext_image_copy_capture_session_v1_send_dmabuf_device(resource, $0) }
            withArray(dmabuf.modifiers) { ext_image_copy_capture_session_v1_send_dmabuf_format(resource, Self.dmabufFormat, $0) }
        }
        ext_image_copy_capture_session_v1_send_buffer_size(resource, UInt32(now.width), UInt32(now.height))
        ext_image_copy_capture_session_v1_send_done(resource)
    }

    /// The one dmabuf format frames are drawn into: what the renderer's copy to a scanout
    /// buffer writes.
    static let dmabufFormat = PixelFormat.fourcc("XR24")

    /// The device and XRGB8888 modifiers of dmabufs this session's frames may be, where the
    /// renderer draws into dmabufs; nil for cursor sessions (their image is copied by the CPU).
    var dmabufModifiers: (device: UInt64, modifiers: [UInt64])? {
        guard !target.isCursor, let support = part.dmabuf else { return nil }
        let modifiers = support.formats.filter { $0.format == Self.dmabufFormat }.map(\.modifier)
        return modifiers.isEmpty ? nil : (support.device, modifiers)
    }

    /// The target changed where `damage` says (buffer pixels within `bounds`).
    func changed(_ damage: [Rect], within bounds: Size) {
        guard unseen != nil, !damage.isEmpty else { return }
        unseen! += damage
        // Past a few dozen rectangles, the whole buffer says it as well.
        if unseen!.count > 32 { unseen = [Rect(size: bounds)] }
    }

    /// What a frame reports and the session forgets: everything the first time.
    func takeDamage() -> [Rect] {
        defer { unseen = [] }
        return unseen ?? [Rect(size: size ?? .zero)]
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        frame?.sessionStopped()
        if let resource { ext_image_copy_capture_session_v1_send_stopped(resource) }
    }

    fileprivate func makeFrame(_ client: OpaquePointer, id: UInt32) {
        guard frame?.resource == nil else {
            return postError(EXT_IMAGE_COPY_CAPTURE_SESSION_V1_ERROR_DUPLICATE_FRAME.rawValue, "a frame of this session still exists")
        }
        let made = CaptureFrame(session: self, part: part)
        guard made.bind(client: client, interface: tactile_ext_image_copy_capture_frame_v1_interface(), version: version, id: id,
                        implementation: CaptureFrame.requests) else { return }
        frame = made
    }

    static let requests = RequestTable(ext_image_copy_capture_session_v1_interface(
        create_frame: { client, resource, id in
            guard let client else { return }
            CaptureSession.from(resource)?.makeFrame(client, id: id)
        },
        destroy: destroyResource
    ))
}

/// ext_image_copy_capture_frame_v1: one copy into one buffer.
final class CaptureFrame: ResourceObject {
    /// Where a frame's pixels go: a shm buffer's memory, or a dmabuf the renderer draws into.
    enum Destination {
        case memory(UnsafeMutableRawPointer, format: PixelFormat, size: Size, stride: Int)
        case gpu(any RenderTarget)
    }

    let session: CaptureSession
    private unowned(unsafe) let part: ImageCopyCapture
    private var buffer: BufferReference?
    private var captured = false

    init(session: CaptureSession, part: ImageCopyCapture) {
        self.session = session
        self.part = part
    }

    private func attach(_ resource: OpaquePointer?) {
        guard !captured else { return alreadyCaptured() }
        buffer = resource.map(BufferReference.init)
    }

    private func damage(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        guard !captured else { return alreadyCaptured() }
        guard x >= 0, y >= 0, width > 0, height > 0 else {
            return postError(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_INVALID_BUFFER_DAMAGE.rawValue,
                             "damage \(x),\(y) \(width)x\(height): the origin must not be negative, the size must be positive")
        }
        // Every frame is copied whole: the client's damage asks for no less.
    }

    private func capture() {
        guard !captured else { return alreadyCaptured() }
        guard buffer != nil else {
            return postError(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_NO_BUFFER.rawValue, "capture with no buffer attached")
        }
        captured = true
        session.describe()
        guard !session.isStopped else { return fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_STOPPED) }
        guard fitsConstraints else { return fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS) }
        part.wait(self)
    }

    /// The attached buffer is one the session said it fills: a shm buffer of its size in one
    /// of its formats, or a dmabuf of its size in its dmabuf format and modifiers.
    private var fitsConstraints: Bool {
        guard let buffer = buffer?.buffer, let size = session.size else { return false }
        if let shm = ShmBuffer.of(buffer) {
            return CaptureSession.formats.contains(shm.format) && shm.size == size && shm.stride >= size.width * 4
        }
        guard let attributes = dmabufAttributes, let allowed = session.dmabufModifiers else { return false }
        return attributes.format == CaptureSession.dmabufFormat && allowed.modifiers.contains(attributes.modifier)
            && Int(attributes.width) == size.width && Int(attributes.height) == size.height
    }

    /// The attached buffer's planes, when it is a dmabuf.
    private var dmabufAttributes: DmabufAttributes? {
        buffer?.buffer.flatMap(DmabufBuffer.of)?.image.dmabuf?.attributes
    }

    private func alreadyCaptured() {
        postError(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_ALREADY_CAPTURED.rawValue, "the frame was already captured")
    }

    /// Copies into the buffer with `write`: a shm buffer's memory under its guard, or
    /// a dmabuf made the renderer's target for this copy (false from `write`: it could not
    /// draw there). Then sends transform, damage, the time, and ready. A buffer no longer of
    /// the session's size (the window was resized meanwhile), or a dmabuf the GPU will not
    /// draw into, fails.
    func fulfil(transform: OutputTransform, time: Instant, _ write: (Destination) -> Bool) {
        guard let resource else { return }
        guard fitsConstraints, let size = session.size else { return fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS) }
        if let shm = buffer?.shmBuffer {
            _ = write(.memory(shm.beginAccess(), format: shm.format, size: size, stride: shm.stride))
            shm.endAccess()
        } else {
            guard let attributes = dmabufAttributes, let target = part.renderTarget(attributes) else {
                return fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS)
            }
            guard write(.gpu(target)) else { return fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_UNKNOWN) }
        }
        buffer = nil
        ext_image_copy_capture_frame_v1_send_transform(resource, UInt32(transform.rawValue))
        for rect in session.takeDamage() {
            let r = rect.intersection(Rect(size: size))
            guard !r.isEmpty else { continue }
            ext_image_copy_capture_frame_v1_send_damage(resource, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
        let seconds = time.microseconds / 1_000_000
        ext_image_copy_capture_frame_v1_send_presentation_time(resource, UInt32(truncatingIfNeeded: seconds >> 32), UInt32(truncatingIfNeeded: seconds),
                                                               UInt32((time.microseconds % 1_000_000) * 1000))
        ext_image_copy_capture_frame_v1_send_ready(resource)
    }

    /// A frame captured and waiting fails when its session stops.
    func sessionStopped() {
        if captured, buffer != nil { fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_STOPPED) }
    }

    func fail(_ reason: ext_image_copy_capture_frame_v1_failure_reason) {
        buffer = nil
        if let resource { ext_image_copy_capture_frame_v1_send_failed(resource, reason.rawValue) }
    }

    static let requests = RequestTable(ext_image_copy_capture_frame_v1_interface(
        destroy: destroyResource,
        attach_buffer: { _, resource, buffer in CaptureFrame.from(resource)?.attach(buffer) },
        damage_buffer: { _, resource, x, y, width, height in CaptureFrame.from(resource)?.damage(x, y, width, height) },
        capture: { _, resource in CaptureFrame.from(resource)?.capture() }
    ))
}

