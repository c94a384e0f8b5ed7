import GestureConfiguration
import Glibc
import Logging
import Responder
import TactileWayland

/// What the configured gestures do (`GestureBinding.action`): run a command, focus the next
/// window, close the focused one. The server publishes gesture events; acting on them is
/// the host's, so process spawning and its environment live here, not in the protocol layer
/// (and Tactile's own helper commands start here too).
public final class GestureActions: GestureDelegate {
    /// Strong: the reaper's timer lives on the server's loop, which must outlive it (the
    /// server holds its delegate weakly, so there is no cycle).
    private let server: ServerPort
    private let logger: Logger
    /// The socket a started command connects to, as WAYLAND_DISPLAY.
    private let socketName: String?
    /// The X display a started command's X clients connect to, as DISPLAY.
    private let x11Display: String?
    /// Commands started and not reaped yet.
    private var commands: [pid_t] = []
    /// Reaps exited commands while any runs, so none lingers as a zombie.
    private var reaper: EventSource?

    /// Acts on `server`'s gestures for as long as it is kept.
    public init(server: WaylandServer, socketName: String?, x11Display: String? = nil, logger: Logger) {
        self.server = server.port
        self.socketName = socketName
        self.x11Display = x11Display
        self.logger = logger
        self.server.gestureDelegate = self
    }

    public func gesture(_ event: GestureEvent, of binding: GestureBinding) {
        let acts = switch event.state {
        case .recognized: true
        case .began: binding.actsWhen == .recognized
        case .ended: binding.actsWhen == .ended
        default: false
        }
        guard acts else { return }
        let d = event.detail
        switch binding.action {
        case .none: break
        case .run(let command): run(command, for: binding, event)
        case .focusNext: server.focusNextWindow()
        case .closeFocused: server.closeFocusedWindow()
        case .cleanScreen: server.startCleaning()
        case .staffDoor: server.staffKnocked(at: d.location)
        }
    }

    private func run(_ command: String, for binding: GestureBinding, _ event: GestureEvent) {
        let d = event.detail
        var environment = connecting(currentEnvironment().filter { !$0.hasPrefix("TACTILE_GESTURE") }, to: socketName, x11Display: x11Display)
        environment += [
            "TACTILE_GESTURE=\(binding.name)", "TACTILE_GESTURE_STATE=\(event.state)",
            "TACTILE_GESTURE_X=\(d.location.x)", "TACTILE_GESTURE_Y=\(d.location.y)",
            "TACTILE_GESTURE_DX=\(d.translation.x)", "TACTILE_GESTURE_DY=\(d.translation.y)",
            "TACTILE_GESTURE_SCALE=\(d.scale)", "TACTILE_GESTURE_COUNT=\(d.count)",
        ]
        start(["/bin/sh", "-c", command], environment: environment, what: "gesture '\(binding.name)'", shown: "`\(command)`")
    }

    /// Starts one of Tactile's own commands beside the app (`touch.map: ask`'s questions):
    /// connected to the server, counted as started, and reaped, as a gesture's command is.
    public func start(_ arguments: [String], what: String) {
        start(arguments, environment: connecting(currentEnvironment(), to: socketName, x11Display: x11Display), what: what,
              shown: arguments.joined(separator: " "))
    }

    private func start(_ arguments: [String], environment: [String], what: String, shown: String) {
        guard let pid = spawn(arguments, environment: environment) else {
            return logger.error("\(what): could not start \(shown): \(String(cString: strerror(errno)))")
        }
        logger.info("\(what): started \(shown) (pid \(pid))")
        server.processStarted(pid)
        commands.append(pid)
        if reaper == nil { reaper = server.makeTimer { [unowned self] in reap() } }
        reaper?.arm(milliseconds: Self.reapPeriod)
    }

    private static let reapPeriod: Int32 = 100

    private func reap() {
        commands.removeAll { pid in
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) != 0 else { return false }
            server.processEnded(pid)
            return true
        }
        if !commands.isEmpty { reaper?.arm(milliseconds: Self.reapPeriod) }
    }
}
