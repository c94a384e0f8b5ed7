import Glibc
import Logging
import Responder
import TactileWayland

/// The command of `tactile serve -- COMMAND [ARGS…]`, run the way cage runs its application:
/// started once Tactile's socket is ready, with WAYLAND_DISPLAY naming it, and Tactile stops
/// when it exits, with its status. A kiosk's app and the desktop demo both start this way.
/// With `app.restart: on-failure`, an app that fails (a non-zero status, a signal) is
/// started again instead, after 1 s, doubling to 30 s while it keeps failing within a
/// minute of its start; one that exits with 0 still ends Tactile.
public final class SessionCommand {
    public enum Restart: String, CaseIterable, Sendable {
        case never
        case onFailure = "on-failure"
    }

    public let arguments: [String]
    /// The command's status once it ended: its exit code, or 128 + the signal that ended it
    /// (as shells report it).
    public private(set) var status: Int32?
    /// The command ended by itself, and so stopped the server (rather than being stopped).
    public private(set) var endedTheServer = false
    /// Times it was started again after failing (`app.restart: on-failure`).
    public private(set) var restarts = 0
    private var pid: pid_t
    private let server: WaylandServer
    private let logger: Logger
    private let restart: Restart
    private let environment: [String]
    private var poll: EventSource?
    /// When the running command started, and the wait before the next restart.
    private var startedAt: Instant
    private var backoff = SessionCommand.firstBackoff
    private var waiting: EventSource?
    /// Ended on purpose to start over (`startOver`): its end is no failure and no exit, and
    /// SIGKILL follows SIGTERM if it lingers.
    private var endingToStartOver: EventSource?

    static let firstBackoff: Int32 = 1000
    static let longestBackoff: Int32 = 30_000
    /// A command that ran this long before failing starts again after the first back-off.
    static let steadyRun = Duration.seconds(60)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `arguments` (the first found on PATH), or throws when it cannot start.
    public init(_ arguments: [String], server: WaylandServer, socketName: String, x11Display: String? = nil, restart: Restart = .never,
                logger: Logger) throws(Failure) {
        self.arguments = arguments
        self.server = server
        self.logger = logger
        self.restart = restart
        environment = connecting(currentEnvironment(), to: socketName, x11Display: x11Display)
        guard let pid = spawn(arguments, environment: environment) else {
            throw Failure(description: "could not start \(arguments.first ?? "nothing"): \(String(cString: strerror(errno)))")
        }
        self.pid = pid
        startedAt = server.port.currentTime
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
        if endingToStartOver != nil {
            endingToStartOver = nil
            logger.info("\(arguments.first ?? "the command") ended (status \(status)); starting it again")
            return startAgain()
        }
        guard status != 0, restart == .onFailure else {
            self.status = status
            endedTheServer = true
            logger.info("\(arguments.first ?? "the command") exited with status \(status): stopping")
            return server.handle.terminate()
        }
        if server.port.currentTime - startedAt >= Self.steadyRun { backoff = Self.firstBackoff }
        logger.warning("\(arguments.first ?? "the command") exited with status \(status): starting it again in \(backoff) ms")
        waiting = server.port.makeTimer { [unowned self] in startAgain() }
        waiting?.arm(milliseconds: backoff)
        backoff = min(backoff * 2, Self.longestBackoff)
    }

    private func startAgain() {
        waiting = nil
        guard let pid = spawn(arguments, environment: environment) else {
            logger.error("could not start \(arguments.first ?? "nothing") again: \(String(cString: strerror(errno))); trying in \(backoff) ms")
            waiting = server.port.makeTimer { [unowned self] in startAgain() }
            waiting?.arm(milliseconds: backoff)
            backoff = min(backoff * 2, Self.longestBackoff)
            return
        }
        self.pid = pid
        restarts += 1
        startedAt = server.port.currentTime
        server.port.processStarted(pid)
        logger.info("started \(arguments.joined(separator: " ")) again (pid \(pid))")
        poll?.arm(milliseconds: Self.period)
    }

    /// Starts the session over (a kiosk's idle reset, the staff door's restart): the command
    /// gets SIGTERM (SIGKILL 2 s later if still there) and, once it ended, starts again at once.
    public func startOver() {
        guard status == nil, endingToStartOver == nil else { return }
        // Between a failure and its restart, nothing runs: it starts now.
        if waiting != nil {
            waiting = nil
            return startAgain()
        }
        kill(pid, SIGTERM)
        let pid = pid
        endingToStartOver = server.port.makeTimer { [unowned self] in
            guard self.pid == pid, endingToStartOver != nil else { return }
            logger.warning("\(arguments.first ?? "the command") did not end within 2 s of SIGTERM: killing it to start over")
            kill(pid, SIGKILL)
        }
        endingToStartOver?.arm(milliseconds: 2000)
    }

    /// Ends the command if Tactile stopped first (a signal, the parent closing its window):
    /// SIGTERM, then SIGKILL if it is still there after two seconds.
    public func stop() {
        // Between a failure and its restart, nothing runs.
        guard waiting == nil else { return waiting = nil }
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
        server.port.processEnded(pid)
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}
