import Foundation
import TactileWayland
import Testing

/// Stopping the loop from another thread, as WLCS, `tactile serve`'s command watcher and
/// every test server do.
@Suite struct ServerStopTests {
    /// A server dropped as soon as it was made (a test's, WLCS's) asks to stop before its
    /// thread reached the loop; the loop must not then run for ever (CI once waited 90
    /// minutes on one).
    @Test func aStopAskedForBeforeTheLoopRunsEndsItAtOnce() {
        let returned = DispatchSemaphore(value: 0)
        Thread {
            guard let server = try? WaylandServer() else { return }
            server.handle.terminate()
            server.run()
            returned.signal()
        }.start()
        #expect(returned.wait(timeout: .now() + 10) == .success, "run() returned within 10 s of a stop asked for before it began")
    }
}
