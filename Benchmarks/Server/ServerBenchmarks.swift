import Benchmark
import CWaylandClient
import Foundation
import Glibc
import TactileBackends
import TactileServer
import TactileWayland
import WaylandProtocols

/// What a wl_surface.commit costs the server, in time and mallocs per commit: a headless
/// server (one output) on a thread of its own, and a libwayland client on the benchmark's
/// thread committing one role-less 64x64 wl_shm surface (a role-less surface applies its
/// commits as any other; it is in no scene, so no repaint follows). And what a whole frame
/// costs (`FrameClient`): a window's commit, its composition, the headless output showing
/// it at its next vblank and the frame callback released, in mallocs per frame (its
/// wall-clock time is the 60 Hz refresh; scripts/peer-bench measures its CPU time).
///
/// Per-surface state that protocols own (wp_viewport, wp_alpha_modifier_v1,
/// wp_content_type_v1, wp_tearing_control_v1, wp_fifo_v1, wp_commit_timer_v1) is copied,
/// reset and applied at each commit; these measure a commit with none of it set, with the
/// persistent state changed at every commit, and with the per-commit requests of fifo and
/// commit timing (a barrier set, and a target time already past, so that the update applies
/// at once; never wait_barrier, which would hold it for a refresh).
///
/// Each iteration is the requests, the commit and a wl_display_roundtrip, so that the server
/// has handled the commit before the next one. The figures therefore include the roundtrip:
/// its callback (a malloc on each side), the socket and the two threads waking. That part
/// is the same whatever the server does with the commit, so comparing two versions of the
/// server compares their commits.
let benchmarks: @Sendable () -> Void = {
    let configuration = { (session: ServerSession<CommitClient>) in
        Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2),
            setup: { try session.start() }, teardown: { session.stop() }
        )
    }

    let frames = ServerSession(FrameClient.init(socket:))
    Benchmark("frame, 64x64 damage, through the whole server", configuration: Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3),
        setup: { try frames.start() }, teardown: { frames.stop() }
    )) { benchmark in
        let client = frames.client!
        for _ in benchmark.scaledIterations {
            client.frame()
        }
    }

    let damageOnly = ServerSession(CommitClient.init(socket:))
    Benchmark("commit, damage only", configuration: configuration(damageOnly)) { benchmark in
        let client = damageOnly.client!
        for _ in benchmark.scaledIterations {
            client.commit()
        }
    }

    let persistent = ServerSession(CommitClient.init(socket:))
    Benchmark("commit with viewport, alpha, content type and tearing set", configuration: configuration(persistent)) { benchmark in
        let client = persistent.client!
        for iteration in benchmark.scaledIterations {
            let odd = iteration & 1 == 1
            wp_viewport_set_destination(client.viewport, odd ? 32 : 64, odd ? 32 : 64)
            wp_alpha_modifier_surface_v1_set_multiplier(client.alphaModifier, odd ? UInt32.max / 2 : UInt32.max)
            wp_content_type_v1_set_content_type(client.contentType, odd ? WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue : WP_CONTENT_TYPE_V1_TYPE_PHOTO.rawValue)
            wp_tearing_control_v1_set_presentation_hint(
                client.tearingControl, odd ? WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC.rawValue : WP_TEARING_CONTROL_V1_PRESENTATION_HINT_VSYNC.rawValue)
            client.commit()
        }
    }

    let paced = ServerSession(CommitClient.init(socket:))
    Benchmark("commit with fifo set_barrier and a past commit target", configuration: configuration(paced)) { benchmark in
        let client = paced.client!
        for _ in benchmark.scaledIterations {
            wp_fifo_v1_set_barrier(client.fifo)
            wp_commit_timer_v1_set_timestamp(client.commitTimer, 0, 0, 0)
            client.commit()
        }
    }
}

/// libwayland finds sockets through XDG_RUNTIME_DIR: a private one for this process.
private let runtimeDirectory: Void = {
    let path = NSTemporaryDirectory() + "tactile-benchmarks-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    setenv("XDG_RUNTIME_DIR", path, 1)
}()

/// A server started by a benchmark's setup and stopped by its teardown, with its client.
final class ServerSession<Client>: @unchecked Sendable {
    private(set) var client: Client?
    private var server: (handle: ServerHandle, finished: DispatchSemaphore)?
    private let connect: (String) throws -> Client

    init(_ connect: @escaping (String) throws -> Client) {
        self.connect = connect
    }

    func start() throws {
        _ = runtimeDirectory
        let socket = "tactile-bench-\(UUID().uuidString.prefix(8))"
        let ready = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var started: Result<ServerHandle, any Error>?
        let thread = Thread {
            do {
                let assembly = try Assembly(configuration: ServerConfiguration(), backend: .headless(HeadlessBackend.Options()),
                                            socket: .named(socket), actions: false, xwayland: .off)
                started = .success(assembly.server.handle)
                ready.signal()
                assembly.run()
            } catch {
                started = .failure(error)
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        server = (try started!.get(), finished)
        client = try connect(socket)
    }

    func stop() {
        client = nil
        guard let server else { return }
        server.handle.terminate()
        server.finished.wait()
        self.server = nil
    }
}

enum CommitClientError: Error {
    case connectFailed(String)
    case notOffered(String)
    case noMemory
    case protocolError
}

/// A libwayland client with one role-less surface holding a 64x64 ARGB8888 shm buffer, and
/// the surface's objects of the protocols measured.
final class CommitClient {
    let display: OpaquePointer
    let surface: OpaquePointer
    let viewport: OpaquePointer
    let alphaModifier: OpaquePointer
    let contentType: OpaquePointer
    let tearingControl: OpaquePointer
    let fifo: OpaquePointer
    let commitTimer: OpaquePointer

    init(socket: String) throws {
        let connection = try Connection(socket: socket)
        display = connection.display
        let compositor = try connection.bind("wl_compositor", tactile_client_wl_compositor_interface(), version: 6)
        let shm = try connection.bind("wl_shm", tactile_client_wl_shm_interface(), version: 1)
        surface = wl_compositor_create_surface(compositor)!
        viewport = wp_viewporter_get_viewport(try connection.bind("wp_viewporter", tactile_wp_viewporter_interface(), version: 1), surface)!
        alphaModifier = wp_alpha_modifier_v1_get_surface(try connection.bind("wp_alpha_modifier_v1", tactile_wp_alpha_modifier_v1_interface(), version: 1), surface)!
        contentType = wp_content_type_manager_v1_get_surface_content_type(
            try connection.bind("wp_content_type_manager_v1", tactile_wp_content_type_manager_v1_interface(), version: 1), surface)!
        tearingControl = wp_tearing_control_manager_v1_get_tearing_control(
            try connection.bind("wp_tearing_control_manager_v1", tactile_wp_tearing_control_manager_v1_interface(), version: 1), surface)!
        fifo = wp_fifo_manager_v1_get_fifo(try connection.bind("wp_fifo_manager_v1", tactile_wp_fifo_manager_v1_interface(), version: 1), surface)!
        commitTimer = wp_commit_timing_manager_v1_get_timer(
            try connection.bind("wp_commit_timing_manager_v1", tactile_wp_commit_timing_manager_v1_interface(), version: 1), surface)!
        let (width, height): (Int32, Int32) = (64, 64)
        wl_surface_attach(surface, try shmBuffer(shm, width: width, height: height, format: WL_SHM_FORMAT_ARGB8888), 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        guard wl_display_roundtrip(display) >= 0 else { throw CommitClientError.protocolError }
    }

    deinit { wl_display_disconnect(display) }

    /// Damages an 8x8 square, commits, and waits until the server has handled it.
    func commit() {
        wl_surface_damage_buffer(surface, 0, 0, 8, 8)
        wl_surface_commit(surface)
        precondition(wl_display_roundtrip(display) >= 0, "the server posted a protocol error (\(wl_display_get_error(display)))")
    }
}

/// A connection to the server and the globals it offers, bound by interface name.
struct Connection {
    let display: OpaquePointer
    private let registry: OpaquePointer
    /// Kept as long as the registry: its listener writes into it.
    private let globals = Globals()

    init(socket: String) throws {
        guard let display = wl_display_connect(socket) else { throw CommitClientError.connectFailed(socket) }
        self.display = display
        registry = wl_display_get_registry(display)!
        wl_registry_add_listener(registry, Globals.listener, Unmanaged.passUnretained(globals).toOpaque())
        guard wl_display_roundtrip(display) >= 0 else { throw CommitClientError.protocolError }
    }

    /// No newer than this libwayland-client knows (Debian 12's wl_compositor is 5): it could
    /// not read the events of a newer one.
    func bind(_ name: String, _ interface: UnsafePointer<wl_interface>, version: UInt32) throws -> OpaquePointer {
        guard let global = globals.offered[name] else { throw CommitClientError.notOffered(name) }
        return OpaquePointer(wl_registry_bind(registry, global.name, interface, min(version, global.version, UInt32(interface.pointee.version))))
    }
}

/// A wl_shm buffer of its own pool, its pixels left as the kernel zeroed them.
func shmBuffer(_ shm: OpaquePointer, width: Int32, height: Int32, format: wl_shm_format) throws -> OpaquePointer {
    let fd = tactile_client_memfd_create("tactile-benchmark-buffer")
    guard fd >= 0, ftruncate(fd, off_t(width * 4 * height)) == 0 else { throw CommitClientError.noMemory }
    defer { close(fd) }
    let pool = wl_shm_create_pool(shm, fd, width * 4 * height)
    defer { wl_shm_pool_destroy(pool) }
    return wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, format.rawValue)
}

/// The globals the server offers: each one's registry name and version, by interface name.
private final class Globals {
    var offered: [String: (name: UInt32, version: UInt32)] = [:]

    nonisolated(unsafe) static let listener: UnsafeMutablePointer<wl_registry_listener> = {
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, version in
                Unmanaged<Globals>.fromOpaque(data!).takeUnretainedValue().offered[String(cString: interface!)] = (name, version)
            },
            global_remove: { _, _, _ in }
        ))
        return listener
    }()
}
