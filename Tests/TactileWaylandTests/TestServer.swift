import Foundation
import Synchronization
import TactileWayland

/// A `WaylandServer` on a thread of its own, listening on a fresh socket in a private
/// XDG_RUNTIME_DIR, stopped when the value is released.
final class TestServer: Sendable {
    let socket: String
    private let handle: ServerHandle
    private let finished = DispatchSemaphore(value: 0)

    /// One runtime directory for the whole test process: libwayland finds sockets through the
    /// environment, which is process-wide.
    static let runtimeDirectory: String = {
        let path = NSTemporaryDirectory() + "tactile-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        setenv("XDG_RUNTIME_DIR", path, 1)
        return path
    }()

    init(_ configuration: ServerConfiguration = ServerConfiguration(enablesTestInput: true)) throws {
        _ = Self.runtimeDirectory
        let socket = "tactile-test-\(UUID().uuidString.prefix(8))"
        let started = Mutex<Result<ServerHandle, Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let finished = self.finished
        let thread = Thread {
            do {
                let server = try WaylandServer(configuration: configuration)
                try server.addSocket(named: socket)
                started.withLock { $0 = .success(server.handle) }
                ready.signal()
                server.run()
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

    deinit {
        handle.terminate()
        finished.wait()
    }
}
