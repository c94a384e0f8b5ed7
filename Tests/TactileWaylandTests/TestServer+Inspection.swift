@testable import TactileTestSupport
@testable import TactileWayland

extension TestServer {
    /// What `tactile inspect` prints, read on the server's thread: the outputs, each client
    /// with what it holds, then the scene, a node per line.
    func inspected() -> [String] {
        let lines = Locked<[String]>([])
        onServerThread { server, _ in lines.withLock { $0 = server.sceneDescription() } }
        return lines.withLock { $0 }
    }
}
