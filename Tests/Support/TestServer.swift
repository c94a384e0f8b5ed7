import GestureConfiguration
import Foundation
import Glibc
import Logging
import TactileBackends
import TactileRender
import TactileServer
import TactileWayland

/// A `WaylandServer` with headless outputs on a thread of its own, listening on a fresh
/// socket in a private XDG_RUNTIME_DIR, stopped when the value is released.
final class TestServer: Sendable {
    let socket: String
    /// DISPLAY for X clients, when the server runs X11 apps (`xwayland`).
    let x11Display: String?
    private let handle: ServerHandle
    private let finished = DispatchSemaphore(value: 0)
    /// Work for the server's thread (`onServerThread`).
    private let work: ServerJobs<HeadlessBackend>

    /// One runtime directory for the whole test process: libwayland finds sockets through the
    /// environment, which is process-wide.
    static let runtimeDirectory: String = {
        let path = NSTemporaryDirectory() + "tactile-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        setenv("XDG_RUNTIME_DIR", path, 1)
        return path
    }()

    /// `testInput`: offer tactile_test_input_v1, which test clients drive the server with.
    /// `actions`: the configured gestures' actions run (`GestureActions`), as `tactile serve` has them.
    /// `xwayland`: X11 apps through an Xwayland of the server's, as `tactile serve` runs them.
    init(_ configuration: ServerConfiguration = ServerConfiguration(),
         headless: HeadlessBackend.Options = HeadlessBackend.Options(), testInput: Bool = true, actions: Bool = false,
         xwayland: XwaylandMode = .off) throws {
        _ = Self.runtimeDirectory
        _ = SynchronizationMetadata.made
        let socket = "tactile-test-\(UUID().uuidString.prefix(8))"
        let work = try ServerJobs<HeadlessBackend>()
        self.work = work
        let started = Locked<Result<(ServerHandle, String?), Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let finished = self.finished
        var withTestInput = configuration
        withTestInput.offersTestInput = testInput
        if let renderer = Self.rendererFromEnvironment { withTestInput.renderer = renderer }
        let configured = withTestInput
        let thread = Thread {
            do {
                let tactile = try Assembly(configuration: configured, backend: .headless(headless), socket: .named(socket), actions: actions,
                                           xwayland: xwayland)
                let waker = work.watch(tactile.server, tactile.headless!)
                started.withLock { $0 = .success((tactile.server.handle, tactile.xwayland?.displayName)) }
                ready.signal()
                withExtendedLifetime(waker) { tactile.run() }
            } catch {
                started.withLock { $0 = .failure(error) }
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        (handle, x11Display) = try started.withLock { $0! }.get()
        self.socket = socket
    }

    /// `TACTILE_TEST_RENDERER=gles` (scripts/test's GLES step): every test server composes
    /// with that renderer, failing to start where it cannot, rather than passing with another.
    static var rendererFromEnvironment: RendererChoice? {
        ProcessInfo.processInfo.environment["TACTILE_TEST_RENDERER"].map { RendererChoice(rawValue: $0) ?? .gles }
    }

    /// Runs `job` on the server's thread, between client requests, and waits for it.
    func onServerThread(_ job: @escaping ServerJobs<HeadlessBackend>.Job) {
        work.run(job)
    }

    deinit {
        handle.terminate()
        finished.wait()
    }
}

/// Work for a test server's thread: jobs queued from a test's thread, and the pipe that wakes
/// the server's loop to run them there with the server and its backend. The pipe lives as
/// long as the last of the test and the server's thread holds this.
final class ServerJobs<Backend>: Sendable {
    typealias Job = @Sendable (WaylandServer, Backend) -> Void
    private let jobs = Locked<[Job]>([])
    private let wake: (read: Int32, write: Int32)

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ClientError.connectFailed("pipe: \(errno)") }
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// On the server's thread: runs the queued jobs each time it is woken, while the source is kept.
    func watch(_ server: WaylandServer, _ backend: Backend) -> EventSource {
        server.port.watch(fileDescriptor: wake.read) { [self] in
            var byte: UInt8 = 0
            _ = read(wake.read, &byte, 1)
            let queued = jobs.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in queued { job(server, backend) }
        }
    }

    /// Runs `job` on the server's thread and waits until it has.
    func run(_ job: @escaping Job) {
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append { server, backend in
                job(server, backend)
                done.signal()
            }
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        done.wait()
    }
}
