import Foundation
import Glibc
import Logging
import TactileBackends
import TactileServer
import TactileWayland

/// A `WaylandServer` nested in a `TestServer` (its "parent"): the wayland backend's window
/// is a client of the parent, and the parent's seat is its input. On a thread of its own,
/// listening on a fresh socket in the same runtime directory; stopped when released, or when
/// the backend ends (`end` then says why).
final class NestedTestServer: Sendable {
    let socket: String
    private let handle: ServerHandle
    private let finished = DispatchSemaphore(value: 0)
    /// The server (and so its display, which `handle` names) is kept until deinit, even once
    /// it stopped by itself.
    private let released = DispatchSemaphore(value: 0)
    /// The thread let go of everything.
    private let gone = DispatchSemaphore(value: 0)
    private let ending = Ending()
    /// Work for the server's thread (`onServerThread`).
    private let work: ServerJobs<WaylandBackend>

    /// `options`: the backend's, given the socket's name (`parentDisplay` is set to the parent's).
    /// `testInput`: offer tactile_test_input_v1 (its test clients place windows with it).
    init(in parent: TestServer, configuration: ServerConfiguration = ServerConfiguration(), testInput: Bool = true,
         options: @escaping @Sendable (String) -> WaylandBackend.Options = { WaylandBackend.Options(socketName: $0) }) throws {
        _ = SynchronizationMetadata.made
        let socket = "tactile-nested-\(UUID().uuidString.prefix(8))"
        let started = Locked<Result<ServerHandle, Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let work = try ServerJobs<WaylandBackend>()
        self.work = work
        let (finished, released, gone, ending) = (self.finished, self.released, self.gone, self.ending)
        let parentSocket = parent.socket
        var withTestInput = configuration
        withTestInput.offersTestInput = testInput
        let configured = withTestInput
        let thread = Thread {
            do {
                var backendOptions = options(socket)
                backendOptions.parentDisplay = parentSocket
                let tactile = try Assembly(configuration: configured, backend: .wayland(backendOptions) { end in ending.value.withLock { $0 = end } },
                                           socket: .named(socket), actions: false, logger: Logger(label: "tactile-nested"))
                let waker = work.watch(tactile.server, tactile.nested!)
                started.withLock { $0 = .success(tactile.server.handle) }
                ready.signal()
                withExtendedLifetime((tactile, waker)) {
                    tactile.run()
                    finished.signal()
                    released.wait()
                }
            } catch {
                started.withLock { $0 = .failure(error) }
                ready.signal()
            }
            gone.signal()
        }
        thread.start()
        ready.wait()
        do {
            handle = try started.withLock { $0! }.get()
        } catch {
            gone.wait()
            throw error
        }
        self.socket = socket
    }

    /// Runs `job` on the server's thread, between its clients' requests and the parent's
    /// events, and waits for it.
    func onServerThread(_ job: @escaping ServerJobs<WaylandBackend>.Job) {
        work.run(job)
    }

    /// Why the backend ended, once it has (the parent closed its window or went away).
    var end: WaylandBackend.End? { ending.value.withLock { $0 } }

    /// Waits up to `seconds` for the server to stop by itself; true when it did.
    func waitUntilStopped(seconds: Double = 5) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        // deinit waits for it again.
        finished.signal()
        return true
    }

    deinit {
        handle.terminate()
        finished.wait()
        released.signal()
        gone.wait()
    }
}

/// Set on the nested server's thread, read on the test's.
private final class Ending: Sendable {
    let value = Locked<WaylandBackend.End?>(nil)
}

/// Tactile nested in Tactile, as the nested tests (and a screenshot test of the parent) use
/// it: a headless parent with test input, in kiosk mode by default so the nested window fills
/// the parent's output at (0, 0); the nested server inside it; and a client of each, the
/// parent's to inject input with, the nested one's to map windows and see what arrives.
struct NestedPair {
    let parent: TestServer
    let nested: NestedTestServer
    /// A client of the parent, with tactile_test_input_v1 (`inject`).
    let parentClient: TestClient
    /// A client of the nested server, with its test input too (`toplevel(at:)` places windows).
    let nestedClient: TestClient

    static func launch(
        parent configuration: ServerConfiguration = ServerConfiguration(kioskMode: true),
        parentOutputs: HeadlessBackend.Options = HeadlessBackend.Options(),
        nested nestedConfiguration: ServerConfiguration = ServerConfiguration(),
        options: @escaping @Sendable (String) -> WaylandBackend.Options = { WaylandBackend.Options(socketName: $0) }
    ) throws -> NestedPair {
        let parent = try TestServer(configuration, headless: parentOutputs)
        let nested = try NestedTestServer(in: parent, configuration: nestedConfiguration, options: options)
        return NestedPair(parent: parent, nested: nested, parentClient: try TestClient(socket: parent.socket), nestedClient: try TestClient(socket: nested.socket))
    }

    /// Round trips with the nested server until `condition` holds or `seconds` pass: what
    /// the parent sends reaches the nested server on its own thread, a moment later.
    func eventually(seconds: Double = 5, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            try nestedClient.roundtrip()
            if try condition() { return true }
            usleep(2000)
        }
        return try condition()
    }
}
