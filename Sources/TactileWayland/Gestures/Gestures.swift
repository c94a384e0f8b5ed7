import GestureConfiguration
import Logging
import Responder

/// Told what the configured gestures do, once the routing step that decided it is over (so
/// it may move focus or windows, which the core cannot take mid-event). The server only
/// logs them; acting on them (`GestureBinding.action`) is the host's (TactileServer's
/// `GestureActions`).
public protocol GestureDelegate: AnyObject {
    func gesture(_ event: GestureEvent, of binding: GestureBinding)
}

/// The configured system gestures: installed on the scene's root (touchpad ones read
/// touchpad gestures instead of touches), woken by a timer when a
/// recognizer has a deadline, logged and published after each routing step.
final class Gestures: ServerPart {
    private let configured: [GestureBinding]
    private var bindings: [GestureID: GestureBinding] = [:]
    /// How many times each gesture (by name) was recognized: began, or recognized at once.
    private(set) var recognized: [String: Int] = [:]
    private var timer: DeadlineTimer?
    weak var delegate: (any GestureDelegate)?
    /// No configured gesture begins (the session is locked): touches go to the lock alone.
    var suspended = false

    private let logger: Logger

    init(bindings: [GestureBinding], logger: Logger) {
        configured = bindings
        self.logger = logger
        // Every configured gesture is counted from zero, so a rate can be taken of one never seen.
        for binding in bindings { recognized[binding.name] = 0 }
    }

    /// Installs the recognizers on the scene's root, related as configured. `deadlines` makes
    /// the timer that fires the router's deadlines (recognizers', and a long press's secondary
    /// click, which a reload may turn on without gestures): it calls `deadlineFired` and
    /// then routes the deadlines.
    func install(in router: inout InputRouter, deadlines: () -> EventSource) {
        let (ids, unknown) = router.install(configured) { [unowned self] _ in !suspended }
        for (binding, id) in zip(configured, ids) { bindings[id] = binding }
        for u in unknown {
            logger.error("gesture '\(u.gesture)': no gesture '\(u.name)' to \(u.waitsForIt ? "wait for" : "recognize with")")
        }
        timer = DeadlineTimer(deadlines())
    }

    /// The deadline timer fired: it is not armed any more.
    func deadlineFired() {
        timer?.fired()
    }

    /// The configured name of a recognizer, for traces.
    func name(of id: GestureID) -> String? { bindings[id]?.name }

    /// Removes the deadline timer; the server calls this before its loop goes.
    func stop() {
        timer = nil
    }

    /// Logs and publishes what the recognizers did during a routing step, then arms the
    /// timer for the next deadline.
    func publish(_ events: [GestureEvent], nextDeadline: () -> Instant?, now: () -> Instant) {
        for event in events {
            guard let binding = bindings[event.gesture] else { continue }
            let d = event.detail
            let line = "gesture '\(binding.name)' \(event.state) at \(d.location), moved \(d.translation), scale \(d.scale), count \(d.count)"
            switch event.state {
            case .changed, .failed, .possible: logger.debug("\(line)")
            default: logger.info("\(line)")
            }
            if event.state == .began || event.state == .recognized { recognized[binding.name, default: 0] += 1 }
            delegate?.gesture(event, of: binding)
        }
        // Read after the delegate acted: its actions route too.
        timer?.arm(for: nextDeadline(), now: now())
    }
}
