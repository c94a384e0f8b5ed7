import Foundation
import Glibc
import Logging
import Synchronization
import TactileBackends
import TactileServer
import TactileWayland

/// A `WaylandServer` with headless outputs on a thread of its own, listening on a fresh
/// socket in a private XDG_RUNTIME_DIR, stopped when the value is released.
final class TestServer: Sendable {
    let socket: String
    private let handle: ServerHandle
    private let finished = DispatchSemaphore(value: 0)
    /// Work for the server's thread (`onServerThread`), and the pipe that wakes it.
    private let work = ServerJobs<HeadlessBackend>()
    private let wake: (read: Int32, write: Int32)

    /// One runtime directory for the whole test process: libwayland finds sockets through the
    /// environment, which is process-wide.
    static let runtimeDirectory: String = {
        let path = NSTemporaryDirectory() + "tactile-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        setenv("XDG_RUNTIME_DIR", path, 1)
        return path
    }()

    /// `actions`: the configured gestures' actions run (`GestureActions`), as `tactile serve` has them.
    init(_ configuration: ServerConfiguration = ServerConfiguration(),
         headless: HeadlessBackend.Options = HeadlessBackend.Options(testInput: true), actions: Bool = false) throws {
        _ = Self.runtimeDirectory
        let socket = "tactile-test-\(UUID().uuidString.prefix(8))"
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ClientError.connectFailed("pipe: \(errno)") }
        wake = (fds[0], fds[1])
        let started = Mutex<Result<ServerHandle, Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let (finished, work, wakeRead) = (self.finished, self.work, fds[0])
        let thread = Thread {
            do {
                let server = try WaylandServer(configuration: configuration)
                try server.addSocket(named: socket)
                let backend = HeadlessBackend(host: server, options: headless)
                let gestureActions = actions ? GestureActions(server: server, socketName: socket, logger: Logger(label: "tactile")) : nil
                let waker = server.watch(fileDescriptor: wakeRead) {
                    var byte: UInt8 = 0
                    _ = read(wakeRead, &byte, 1)
                    for job in work.take() { job(server, backend) }
                }
                started.withLock { $0 = .success(server.handle) }
                ready.signal()
                withExtendedLifetime((backend, gestureActions, waker)) { server.run() }
            } catch {
                started.withLock { $0 = .failure(error) }
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        handle = try started.withLock { $0! }.get()
        self.socket = socket
    }

    /// Runs `job` on the server's thread, between client requests, and waits for it.
    func onServerThread(_ job: @escaping @Sendable (WaylandServer, HeadlessBackend) -> Void) {
        let done = DispatchSemaphore(value: 0)
        work.add { server, backend in
            job(server, backend)
            done.signal()
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        done.wait()
    }

    deinit {
        handle.terminate()
        finished.wait()
        close(wake.read)
        close(wake.write)
    }
}

/// Jobs waiting for a test server's thread, handed the server and its backend there.
final class ServerJobs<Backend>: Sendable {
    typealias Job = @Sendable (WaylandServer, Backend) -> Void
    private let jobs = Mutex<[Job]>([])

    func add(_ job: @escaping Job) { jobs.withLock { $0.append(job) } }

    func take() -> [Job] {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }
}
