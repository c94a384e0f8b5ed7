import Glibc
import Logging
import TactileWayland

/// The command of `tactile serve -- COMMAND [ARGS…]`, run the way cage runs its application:
/// started once Tactile's socket is ready, with WAYLAND_DISPLAY naming it, and Tactile stops
/// when it exits, with its status. A kiosk's app and the desktop demo both start this way.
public final class SessionCommand {
    public let arguments: [String]
    /// The command's status once it ended: its exit code, or 128 + the signal that ended it
    /// (as shells report it).
    public private(set) var status: Int32?
    /// The command ended by itself, and so stopped the server (rather than being stopped).
    public private(set) var endedTheServer = false
    private let pid: pid_t
    private let server: WaylandServer
    private let logger: Logger
    private var poll: EventSource?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `arguments` (the first found on PATH), or throws when it cannot start.
    public init(_ arguments: [String], server: WaylandServer, socketName: String, logger: Logger) throws(Failure) {
        self.arguments = arguments
        self.server = server
        self.logger = logger
        guard let pid = spawn(arguments, environment: connecting(currentEnvironment(), to: socketName)) else {
            throw Failure(description: "could not start \(arguments.first ?? "nothing"): \(String(cString: strerror(errno)))")
        }
        self.pid = pid
        server.port.processStarted(pid)
        logger.info("started \(arguments.joined(separator: " ")) (pid \(pid))")
        poll = server.port.makeTimer { [unowned self] in check() }
        poll?.arm(milliseconds: Self.period)
    }

    /// How often the server's loop looks whether the command ended (a SIGCHLD handler would
    /// race with the gesture commands' reaping).
    private static let period: Int32 = 50

    private func check() {
        guard let status = reap(blocking: false) else {
            poll?.arm(milliseconds: Self.period)
            return
        }
        self.status = status
        endedTheServer = true
        logger.info("\(arguments.first ?? "the command") exited with status \(status): stopping")
        server.handle.terminate()
    }

    /// Ends the command if Tactile stopped first (a signal, the parent closing its window):
    /// SIGTERM, then SIGKILL if it is still there after two seconds.
    public func stop() {
        guard status == nil else { return }
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if let status = reap(blocking: false) {
                self.status = status
                return
            }
            usleep(10_000)
        }
        logger.warning("\(arguments.first ?? "the command") did not end within 2 s of SIGTERM: killing it")
        kill(pid, SIGKILL)
        status = reap(blocking: true)
    }

    private func reap(blocking: Bool) -> Int32? {
        var raw: Int32 = 0
        guard waitpid(pid, &raw, blocking ? 0 : WNOHANG) == pid else { return nil }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}
