import CDRM
import CWaylandClient
import Glibc
import Responder
import TactileRender
import WaylandProtocols

/// The parent's zwp_linux_dmabuf_v1, where the server's renderer can draw into buffers of the
/// parent's main device: the nested windows' frames then reach the parent as dmabufs the GPU
/// drew, instead of wl_shm memory the frames are read back into. The parent's feedback (v4)
/// names the device and whether it takes XRGB8888 in the driver's implied layout; the
/// buffers are GBM buffer objects on that device (`RenderedBufferObject`).
///
/// Each buffer is made with `create` and a round trip on a queue of its own, so a parent that
/// refuses one answers `failed` rather than ending the connection (as `create_immed` may);
/// the first refusal turns dmabufs off for good, and wl_shm goes on.
final class ParentDmabuf {
    /// The device's node, for the log.
    let node: String
    private let manager: OpaquePointer
    private let gbm: GBMDevice
    private let fd: Int32
    private let display: OpaquePointer
    private let queue: OpaquePointer
    /// `manager` on `queue`: params made through it answer there.
    private let wrapper: OpaquePointer

    /// What the parent's default feedback said.
    final class Feedback {
        var device: dev_t?
        var table: [(format: UInt32, modifier: UInt64)] = []
        var done = false
    }

    /// The answer to one buffer's params.
    final class Answer {
        var buffer: OpaquePointer?
        var failed = false
    }

    /// For a renderer that imports dmabufs (the backend binds the global only then).
    static func make(display: OpaquePointer, manager: OpaquePointer, version: UInt32) -> Result<ParentDmabuf, RenderedBufferObject.Refusal> {
        guard version >= 4 else { return .failure(.init(description: "the parent's linux-dmabuf is version \(version); 4 names its device")) }
        guard let queue = wl_display_create_queue(display) else { return .failure(.init(description: "no event queue")) }
        let wrapper = OpaquePointer(wl_proxy_create_wrapper(UnsafeMutableRawPointer(manager)))!
        wl_proxy_set_queue(wrapper, queue)
        let feedback = Feedback()
        let proxy = zwp_linux_dmabuf_v1_get_default_feedback(wrapper)
        zwp_linux_dmabuf_feedback_v1_add_listener(proxy, NestedListeners.dmabufFeedback, Unmanaged.passUnretained(feedback).toOpaque())
        while !feedback.done, wl_display_roundtrip_queue(display, queue) >= 0 {}
        zwp_linux_dmabuf_feedback_v1_destroy(proxy)
        func refuse(_ why: String) -> Result<ParentDmabuf, RenderedBufferObject.Refusal> {
            wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
            wl_event_queue_destroy(queue)
            return .failure(.init(description: why))
        }
        guard feedback.done, let device = feedback.device else { return refuse("the parent's feedback names no main device") }
        guard feedback.table.contains(where: { $0.format == tactile_drm_format_xrgb8888 && $0.modifier == DmabufFormat.implicitModifier }) else {
            return refuse("the parent takes no XRGB8888 in the driver's implied layout")
        }
        guard let node = Self.node(of: device) else { return refuse("the parent's main device (number \(device)) is not in /dev/dri") }
        let fd = open(node, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return refuse("cannot open \(node): \(String(cString: strerror(errno)))") }
        guard let gbm = GBMDevice(fd: fd) else {
            close(fd)
            return refuse("GBM does not open \(node)")
        }
        return .success(ParentDmabuf(node: node, manager: manager, gbm: gbm, fd: fd, display: display, queue: queue, wrapper: wrapper))
    }

    private init(node: String, manager: OpaquePointer, gbm: GBMDevice, fd: Int32, display: OpaquePointer, queue: OpaquePointer, wrapper: OpaquePointer) {
        (self.node, self.manager, self.gbm, self.fd, self.display, self.queue, self.wrapper) = (node, manager, gbm, fd, display, queue, wrapper)
    }

    deinit {
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
        wl_event_queue_destroy(queue)
        zwp_linux_dmabuf_v1_destroy(manager)
        close(fd)
    }

    /// The /dev/dri node whose device number is `device`.
    private static func node(of device: dev_t) -> String? {
        directoryEntries("/dev/dri").lazy.map { "/dev/dri/\($0)" }.first { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR && info.st_rdev == device
        }
    }

    /// A buffer of `size` the renderer draws into, as the parent's wl_buffer; a refusal (GBM's,
    /// the renderer's or the parent's) says why.
    func makeBuffer(size: Size, renderer: any Renderer) -> Result<DmabufNestedBuffer, RenderedBufferObject.Refusal> {
        RenderedBufferObject.make(gbm: gbm, size: size, scanout: true, renderer: renderer).flatMap { object in
            let plane = object.exportFD()
            guard plane >= 0 else { return .failure(.init(description: "GBM's buffer cannot be exported (\(String(cString: strerror(errno))))")) }
            let answer = Answer()
            let params = zwp_linux_dmabuf_v1_create_params(wrapper)
            zwp_linux_buffer_params_v1_add_listener(params, NestedListeners.dmabufParams, Unmanaged.passUnretained(answer).toOpaque())
            let modifier = DmabufFormat.implicitModifier
            // libwayland duplicates the descriptor as it queues the request.
            zwp_linux_buffer_params_v1_add(params, plane, 0, object.offset, object.stride, UInt32(modifier >> 32), UInt32(truncatingIfNeeded: modifier))
            close(plane)
            zwp_linux_buffer_params_v1_create(params, Int32(size.width), Int32(size.height), tactile_drm_format_xrgb8888, 0)
            while answer.buffer == nil, !answer.failed, wl_display_roundtrip_queue(display, queue) >= 0 {}
            zwp_linux_buffer_params_v1_destroy(params)
            guard let buffer = answer.buffer else { return .failure(.init(description: "the parent refused a \(size.width)x\(size.height) dmabuf (`failed`)")) }
            // Its release comes with the rest of the window's events.
            wl_proxy_set_queue(buffer, nil)
            return .success(DmabufNestedBuffer(object: object, proxy: buffer))
        }
    }
}
