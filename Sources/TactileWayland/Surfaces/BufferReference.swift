import CWaylandServer
import Logging
import Responder
import TactileRender

/// A client's wl_buffer, from its attach until Tactile no longer needs it.
///
/// A dmabuf is sampled by the GPU where it lies (`LinuxDmabuf`). A committed wl_shm buffer
/// is not copied either: composition reads the client's memory at each
/// repaint, under the SIGBUS guard (`ShmBuffer`), and `wl_buffer.release` goes out when nothing
/// refers to the buffer any more (the client's next buffer replaced it, the surface went).
/// So a client double-buffers, as it must on weston and wlroots, and a file truncated under
/// a shown buffer gets its client `wl_shm.invalid_fd` at the next repaint, nobody else
/// noticing. A buffer destroyed while still shown is copied once then: the protocol keeps
/// the surface's picture (up to a screen's worth of pixels, `keptCopyLimit`; a larger one
/// shows nothing after), unless its client is leaving, whose surfaces go with it.
final class BufferReference: PixelLender {
    private(set) var buffer: OpaquePointer?
    private var listener: UnsafeMutablePointer<tactile_listener>?
    /// Whose listener it is, to reuse it after (nil when the client was already leaving).
    private let holdings: ClientHoldings?
    /// Set by `commit`: only a buffer Tactile used is released.
    private var committed = false
    /// The picture read from the buffer, while something shows it: the image holds this
    /// reference and clears this one as it goes (`imageGone`).
    private var image: Unmanaged<Image>?
    /// The server's, from the commit: for what happens to the buffer after.
    private var logger: Logger?
    /// The most bytes copied when the buffer is destroyed while shown, from the commit.
    private var keptCopyLimit = 0

    init(_ buffer: OpaquePointer) {
        self.buffer = buffer
        holdings = ClientState.of(wl_resource_get_client(buffer))?.holdings
        let notify: wl_notify_func_t = { listener, _ in
            guard let listener else { return }
            let owner = tactile_listener_context(listener)
            if let owner { Unmanaged<BufferReference>.fromOpaque(owner).takeUnretainedValue().bufferDestroyed() }
        }
        listener = holdings.map { $0.listener(context: nil, notify: notify) } ?? tactile_listener_create(nil, notify)
        listener!.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        wl_resource_add_destroy_listener(buffer, &listener!.pointee.listener)
    }

    deinit {
        if committed, let buffer { wl_buffer_send_release(buffer) }
        forget()
    }

    /// The buffer's size and pixels, as the commit that makes them the surface's gives them.
    /// Nil for a buffer destroyed before the commit.
    func commit(logger: Logger, keptCopyLimit: Int) -> BufferAttachment? {
        guard let buffer else { return nil }
        committed = true
        self.logger = logger
        self.keptCopyLimit = keptCopyLimit
        guard let shm = ShmBuffer.of(buffer) else {
            if let image = DmabufBuffer.of(buffer)?.image {
                return BufferAttachment(width: image.size.width, height: image.size.height, image: image, reference: self)
            }
            guard let image = SinglePixelBuffer.of(buffer)?.image else {
                return BufferAttachment(width: 0, height: 0, image: nil, reference: self)
            }
            return BufferAttachment(width: 1, height: 1, image: image, reference: self)
        }
        let size = shm.size
        // Read once here, for where the pixels lie now; each repaint asks again.
        let memory = shm.beginAccess()
        shm.endAccess()
        let image = Image(borrowing: memory, from: self, size: size, format: shm.format, stride: shm.stride)
        if image == nil, !Image.isReadable(stride: shm.stride) {
            logger.warning("a \(size.width)x\(size.height) buffer's stride of \(shm.stride) bytes is not a multiple of 4, which Tactile cannot read: its surface shows nothing")
        } else if image == nil {
            logger.warning("a \(size.width)x\(size.height) buffer is beyond what Tactile composes (\(Image.maximumSide) px a side): its surface shows nothing")
        }
        self.image = image.map(Unmanaged.passUnretained)
        return BufferAttachment(width: size.width, height: size.height, image: image, reference: self)
    }

    func imageGone(_ gone: Image) {
        if image?.toOpaque() == Unmanaged.passUnretained(gone).toOpaque() { image = nil }
    }

    /// The longer side of a wl_shm buffer, in pixels (nil for other buffers, which are 1×1).
    var longestSide: Int? {
        shmBuffer.map { max($0.size.width, $0.size.height) }
    }

    /// The shm buffer, while the client has not destroyed it.
    var shmBuffer: ShmBuffer? { ShmBuffer.of(buffer) }

    func beginReading() -> UnsafeMutableRawPointer? {
        shmBuffer?.beginAccess()
    }

    func endReading() {
        // Posts wl_shm.invalid_fd to the client when its file was shorter than it claimed.
        shmBuffer?.endAccess()
    }

    /// The most bytes kept of a buffer destroyed while shown: as many pixels as the largest
    /// screen has, and at least a 1080p screen's. A copy costs every client the time it
    /// takes, so none may make Tactile copy more than a screen.
    static func keptCopyLimit(largestScreen: Size?) -> Int {
        max(largestScreen.map { $0.width * $0.height } ?? 0, 1920 * 1080) * 4
    }

    private func bufferDestroyed() {
        // A departing client's objects go after its own destroy signal, the surfaces too:
        // nothing will show the copy.
        let departing = buffer.map { ClientState.of(wl_resource_get_client($0)) == nil } ?? true
        if !departing, let image = image?.takeUnretainedValue(), !image.keepCopy(upTo: keptCopyLimit) {
            logger?.notice("a \(image.size.width)x\(image.size.height) buffer destroyed while shown is larger than Tactile keeps (a screen's worth, \(keptCopyLimit >> 20) MiB): its surface shows nothing until its next commit")
        }
        forget()
    }

    private func forget() {
        if let listener {
            if let holdings { holdings.recycle(listener) } else { tactile_listener_destroy(listener) }
        }
        listener = nil
        buffer = nil
        image = nil
    }
}
