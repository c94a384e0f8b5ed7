import CWaylandClient
import Glibc
import WaylandProtocols

/// A client of the compositor's ext-image-copy-capture: its outputs by name (wl_output
/// version 4), its windows by app_id (ext_foreign_toplevel_list_v1), and one frame of either
/// copied into shared memory. The capture globals are privileged: a client not granted them
/// is never shown them, so a missing global names the privilege.
final class CaptureClient {
    private let connection: ClientConnection
    private var display: OpaquePointer { connection.display }
    fileprivate var windows: [(handle: OpaquePointer, appID: String?)] = []
    /// What the session said of the buffers it fills, once done; or that it stopped.
    fileprivate var size = (width: Int32(0), height: Int32(0))
    fileprivate var formats: [UInt32] = []
    fileprivate var described = false
    fileprivate var stopped = false
    /// How the frame ended: nil while it waits; ready, or the failure reason.
    fileprivate var outcome: Result<Void, Failure>?

    typealias Failure = GlobalConnection.Failure

    init(socket: String?) throws {
        connection = try ClientConnection(socket: socket)
    }

    /// A source of the output named `name`.
    func outputSource(named name: String) throws -> OpaquePointer {
        guard let output = connection.outputs.first(where: { $0.name == name }) else {
            throw Failure(description: "no output named \(name); the outputs: \(connection.outputs.compactMap(\.name).joined(separator: ", "))")
        }
        let manager = try bind(tactile_ext_output_image_capture_source_manager_v1_interface(), Self.screenCapture)
        return ext_output_image_capture_source_manager_v1_create_source(manager, output.proxy)
    }

    /// A source of the first window listed whose app_id is `appID`.
    func windowSource(appID: String) throws -> OpaquePointer {
        let list = try bind(tactile_ext_foreign_toplevel_list_v1_interface(), "privileges.window-management")
        ext_foreign_toplevel_list_v1_add_listener(list, listListener, Unmanaged.passUnretained(self).toOpaque())
        wl_display_roundtrip(display)
        guard let window = windows.first(where: { $0.appID == appID }) else {
            let appIDs = windows.compactMap(\.appID)
            throw Failure(description: "no window with app_id \(appID); " + (appIDs.isEmpty ? "there are no windows" : "the app_ids: \(appIDs.joined(separator: ", "))"))
        }
        let manager = try bind(tactile_ext_foreign_toplevel_image_capture_source_manager_v1_interface(), Self.screenCapture)
        return ext_foreign_toplevel_image_capture_source_manager_v1_create_source(manager, window.handle)
    }

    /// One frame of `source`, in a shm buffer of the size and a format the session offers.
    /// `keepsAlpha` false: the picture is opaque whatever the buffer's alpha bytes say.
    func picture(of source: OpaquePointer, keepsAlpha: Bool) throws -> Picture {
        let session = try describedSession(of: source)
        guard let format = [WL_SHM_FORMAT_ARGB8888, WL_SHM_FORMAT_XRGB8888].first(where: { formats.contains($0.rawValue) }) else {
            throw Failure(description: "the compositor copies into no shm format this reads (ARGB8888, XRGB8888)")
        }
        let (width, height) = size
        let bytes = Int(width) * Int(height) * 4
        let (fd, memory) = try sharedMemory(bytes)
        defer {
            munmap(memory, bytes)
            close(fd)
        }
        let shm = try bind(tactile_client_wl_shm_interface(), "the copy's buffer is shared memory")
        let pool = wl_shm_create_pool(shm, fd, Int32(bytes))
        try copyFrame(of: session, into: wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, format.rawValue))
        return Picture(copying: memory, width: Int(width), height: Int(height), opaque: !keepsAlpha || format == WL_SHM_FORMAT_XRGB8888)
    }

    /// A capture session on `source`, once it said its buffer size and formats.
    private func describedSession(of source: OpaquePointer) throws -> OpaquePointer? {
        let manager = try bind(tactile_ext_image_copy_capture_manager_v1_interface(), Self.screenCapture)
        let session = ext_image_copy_capture_manager_v1_create_session(manager, source, 0)
        ext_image_copy_capture_session_v1_add_listener(session, sessionListener, Unmanaged.passUnretained(self).toOpaque())
        try dispatch { self.described || self.stopped }
        guard !stopped else { throw Failure(description: "the window or output went before it was copied") }
        return session
    }

    /// A memfd of `bytes`, mapped.
    private func sharedMemory(_ bytes: Int) throws -> (fd: Int32, memory: UnsafeMutableRawPointer) {
        let fd = tactile_client_memfd_create("tactile-capture")
        guard fd >= 0 else { throw Failure(description: "cannot make shared memory: \(String(cString: strerror(errno)))") }
        guard ftruncate(fd, off_t(bytes)) == 0, let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot map \(bytes) bytes of shared memory: \(reason)")
        }
        return (fd, memory)
    }

    /// One frame of `session` copied into `buffer`, whole; its failure is an error.
    private func copyFrame(of session: OpaquePointer?, into buffer: OpaquePointer?) throws {
        let frame = ext_image_copy_capture_session_v1_create_frame(session)
        ext_image_copy_capture_frame_v1_add_listener(frame, frameListener, Unmanaged.passUnretained(self).toOpaque())
        ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer)
        ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, size.width, size.height)
        ext_image_copy_capture_frame_v1_capture(frame)
        try dispatch { self.outcome != nil }
        try outcome!.get()
    }

    private static let screenCapture = "privileges.screen-capture"

    private func bind(_ interface: UnsafePointer<wl_interface>, _ why: String) throws -> OpaquePointer {
        try connection.bind(interface, why)
    }

    private func dispatch(until done: () -> Bool) throws {
        try connection.dispatch(until: done)
    }

    fileprivate static func failure(_ reason: UInt32) -> Failure {
        let why = switch ext_image_copy_capture_frame_v1_failure_reason(reason) {
        case EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_STOPPED: "the window or output went away"
        case EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS: "its size changed meanwhile"
        default: "the compositor could not copy it"
        }
        return Failure(description: "the capture failed: \(why) (reason \(reason))")
    }
}

private func client(_ data: UnsafeMutableRawPointer?) -> CaptureClient { Unmanaged<CaptureClient>.fromOpaque(data!).takeUnretainedValue() }


nonisolated(unsafe) private let listListener: UnsafeMutablePointer<ext_foreign_toplevel_list_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_foreign_toplevel_list_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_foreign_toplevel_list_v1_listener(
        toplevel: { data, _, handle in
            client(data).windows.append((handle!, nil))
            ext_foreign_toplevel_handle_v1_add_listener(handle, handleListener, data)
        },
        finished: { _, _ in }
    ))
    return listener
}()

nonisolated(unsafe) private let handleListener: UnsafeMutablePointer<ext_foreign_toplevel_handle_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_foreign_toplevel_handle_v1_listener(
        closed: { _, _ in },
        done: { _, _ in },
        title: { _, _, _ in },
        app_id: { data, handle, appID in
            let capture = client(data)
            guard let index = capture.windows.firstIndex(where: { $0.handle == handle }) else { return }
            capture.windows[index].appID = String(cString: appID!)
        },
        identifier: { _, _, _ in }
    ))
    return listener
}()

nonisolated(unsafe) private let sessionListener: UnsafeMutablePointer<ext_image_copy_capture_session_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_image_copy_capture_session_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_image_copy_capture_session_v1_listener(
        buffer_size: { data, _, width, height in client(data).size = (Int32(width), Int32(height)) },
        shm_format: { data, _, format in client(data).formats.append(format) },
        dmabuf_device: { _, _, _ in },
        dmabuf_format: { _, _, _, _ in },
        done: { data, _ in client(data).described = true },
        stopped: { data, _ in client(data).stopped = true }
    ))
    return listener
}()

nonisolated(unsafe) private let frameListener: UnsafeMutablePointer<ext_image_copy_capture_frame_v1_listener> = {
    let listener = UnsafeMutablePointer<ext_image_copy_capture_frame_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: ext_image_copy_capture_frame_v1_listener(
        transform: { _, _, _ in },
        damage: { _, _, _, _, _, _ in },
        presentation_time: { _, _, _, _, _ in },
        ready: { data, _ in client(data).outcome = .success(()) },
        failed: { data, _, reason in client(data).outcome = .failure(CaptureClient.failure(reason)) }
    ))
    return listener
}()
