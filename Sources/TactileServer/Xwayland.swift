import ArgumentParser
import Glibc
import Logging
import Responder
import TactileWayland

/// When Tactile runs X11 apps (`--xwayland`, or the configuration file's `xwayland`).
public enum XwaylandMode: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Xwayland starts when the first X client connects (the default): a kiosk without X
    /// apps pays nothing for it.
    case lazy
    /// Xwayland starts with Tactile, so the first X app does not wait for it.
    case eager
    /// No X display.
    case off
}

/// The Xwayland Tactile runs X11 apps through, as sway and cage run theirs: Tactile holds
/// the X display (`XDisplay`: lock file and sockets) and starts Xwayland on them, lazily on
/// the first X connection or at once, rootless, with a Wayland connection of its own and a
/// socket for the window manager (`ServerPort.manageX11`, the X window manager in
/// TactileWayland). When Xwayland dies, Tactile and its Wayland clients go on, the log says
/// why, and the next X client starts a new one.
public final class Xwayland {
    private let display: XDisplay
    private let server: WaylandServer
    private let logger: Logger
    /// The listening sockets watched while no Xwayland runs.
    private var waiting: [EventSource] = []
    private var running: Run?
    /// How often an Xwayland whose connections closed is looked for among ended processes.
    private var reaping: EventSource?

    /// One Xwayland process, from its start until it is reaped. A class, so that a watch is
    /// always removed before its fd is closed (a watch outliving its fd would later remove
    /// whatever reuses the number from the loop).
    private final class Run {
        let pid: pid_t
        let startedAt: Instant
        /// Xwayland writes the display number here when it is ready (`-displayfd`).
        var ready: EventSource?
        private(set) var readyPipe: Int32
        /// What it wrote there so far: the number, then a newline, in two writes (closing
        /// before the second is fatal to it).
        var readyText: [UInt8] = []
        /// Tactile's copy of Xwayland's end of its Wayland connection, kept until the window
        /// manager is connected (the server finds the client by it).
        private(set) var clientSocket: Int32
        /// The window manager's end of `-wm`, until the window manager takes it.
        private(set) var windowManagerSocket: Int32
        var why: String?

        init(pid: pid_t, startedAt: Instant, readyPipe: Int32, clientSocket: Int32, windowManagerSocket: Int32) {
            self.pid = pid
            self.startedAt = startedAt
            self.readyPipe = readyPipe
            self.clientSocket = clientSocket
            self.windowManagerSocket = windowManagerSocket
        }

        deinit { closeAll() }

        func closeReadyPipe() {
            ready = nil
            if readyPipe >= 0 { close(readyPipe) }
            readyPipe = -1
        }

        /// The window manager took its socket (and closes it itself); the client's is ours to close.
        func handedOver() {
            windowManagerSocket = -1
            if clientSocket >= 0 { close(clientSocket) }
            clientSocket = -1
        }

        func closeAll() {
            closeReadyPipe()
            if windowManagerSocket >= 0 { close(windowManagerSocket) }
            handedOver()
        }
    }

    /// The X display name clients connect to (DISPLAY).
    public var displayName: String { display.name }

    public init(mode: XwaylandMode, server: WaylandServer, logger: Logger) throws {
        precondition(mode != .off)
        do {
            display = try XDisplay()
        } catch {
            throw XwaylandFailure(description: error.description)
        }
        self.server = server
        self.logger = logger
        switch mode {
        case .eager: start(because: "--xwayland eager")
        case .lazy, .off: waitForClient()
        }
        logger.info("X11 apps: DISPLAY=\(display.name) (Xwayland \(mode == .eager ? "starting" : "starts with the first X client"))")
    }

    deinit {
        waiting = []
        if let running {
            kill(running.pid, SIGTERM)
            var status: Int32 = 0
            waitpid(running.pid, &status, 0)
        }
    }

    private func waitForClient() {
        waiting = display.sockets.map { socket in
            server.port.watch(fileDescriptor: socket) { [unowned self] in start(because: "an X client connected") }
        }
    }

    private func start(because reason: String) {
        waiting = []
        guard running == nil else { return }
        var wm: [Int32] = [-1, -1], pipe: [Int32] = [-1, -1]
        guard let clientSocket = server.port.connectClientSocket() else { return failedToStart("no socket for its Wayland connection") }
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &wm) == 0 else {
            close(clientSocket)
            return failedToStart("no socket for its window manager: \(String(cString: strerror(errno)))")
        }
        // A socket pair rather than a pipe: made close-on-exec at once.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipe) == 0 else {
            close(clientSocket)
            close(wm[0])
            close(wm[1])
            return failedToStart("no pipe: \(String(cString: strerror(errno)))")
        }
        // In the child: the X sockets, then Xwayland's Wayland connection, -displayfd and -wm.
        let passed = display.sockets + [clientSocket, pipe[1], wm[1]]
        let child = passed.indices.map(passedFD)
        let arguments = ["Xwayland", display.name, "-rootless", "-core", "-noreset"]
            + child.prefix(display.sockets.count).flatMap { ["-listenfd", "\($0)"] } + ["-displayfd", "\(child[child.count - 2])", "-wm", "\(child[child.count - 1])"]
        let environment = currentEnvironment().filter { !$0.hasPrefix("WAYLAND_DISPLAY=") && !$0.hasPrefix("DISPLAY=") && !$0.hasPrefix("WAYLAND_SOCKET=") }
            + ["WAYLAND_SOCKET=\(child[child.count - 3])"]
        let pid = spawn(arguments, environment: environment, passing: passed)
        let error = errno
        close(pipe[1])
        close(wm[1])
        guard let pid else {
            close(pipe[0])
            close(wm[0])
            close(clientSocket)
            return failedToStart("\(String(cString: strerror(error))) (is the xwayland package installed?)")
        }
        server.port.processStarted(pid)
        logger.info("starting Xwayland on \(display.name) (pid \(pid)): \(reason)")
        let run = Run(pid: pid, startedAt: server.port.currentTime, readyPipe: pipe[0], clientSocket: clientSocket, windowManagerSocket: wm[0])
        run.ready = server.port.watch(fileDescriptor: pipe[0]) { [unowned self] in readyPipeReadable() }
        running = run
    }

    private func failedToStart(_ why: String) {
        logger.error("could not start Xwayland: \(why); X clients wait for the next try")
        waitForClient()
    }

    /// `-displayfd`: a line when Xwayland is ready, an end of file when it died first.
    private func readyPipeReadable() {
        guard let run = running else { return }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(run.readyPipe, &buffer, buffer.count)
        guard count > 0 else { return ended("it exited before it was ready") }
        run.readyText += buffer.prefix(count)
        guard run.readyText.contains(UInt8(ascii: "\n")) || run.readyText.count > 64 else { return }
        run.closeReadyPipe()
        let took = server.port.currentTime - run.startedAt
        logger.info("Xwayland ready on \(display.name) in \(took.milliseconds) ms")
        let connected = server.port.manageX11(windowManagerSocket: run.windowManagerSocket, clientSocket: run.clientSocket) { [weak self] why in
            self?.ended(why)
        }
        run.handedOver()
        if !connected { ended("its Wayland connection closed before it was ready") }
    }

    /// Xwayland's connections ended: its process is reaped, and the next X client starts a new one.
    private func ended(_ why: String) {
        guard let run = running, run.why == nil else { return }
        run.why = why
        run.closeAll()
        reaping = server.port.makeTimer { [unowned self] in reap() }
        reap()
    }

    private func reap() {
        guard let run = running else { return }
        var status: Int32 = 0
        guard waitpid(run.pid, &status, WNOHANG) == run.pid else {
            reaping?.arm(milliseconds: 50)
            return
        }
        reaping = nil
        running = nil
        server.port.processEnded(run.pid)
        let how = status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
        logger.warning("Xwayland (pid \(run.pid)) \(how) (\(run.why ?? "")); Wayland clients go on, and the next X client starts a new one")
        waitForClient()
    }
}

public struct XwaylandFailure: Error, CustomStringConvertible {
    public let description: String
}
