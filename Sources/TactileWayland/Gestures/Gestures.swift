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
final class Gestures {
    private let configured: [GestureBinding]
    private var bindings: [GestureID: GestureBinding] = [:]
    private var timer: EventSource?
    private var armedDeadline: Instant?
    weak var delegate: (any GestureDelegate)?

    init(bindings: [GestureBinding]) {
        configured = bindings
    }

    func install(on server: WaylandServer) {
        var ids: [String: GestureID] = [:]
        for binding in configured {
            let id = server.router.addGesture(binding.recognizer, on: server.router.scene.root, options: binding.options, device: binding.device)
            bindings[id] = binding
            ids[binding.name] = id
        }
        for binding in configured {
            guard let id = ids[binding.name] else { continue }
            for other in binding.simultaneousWith {
                if let o = ids[other] { server.router.recognizeSimultaneously(id, o) } else { server.logger.error("gesture '\(binding.name)': no gesture '\(other)' to recognize with") }
            }
            for other in binding.requiresFailureOf {
                if let o = ids[other] { server.router.require(id, toFail: o) } else { server.logger.error("gesture '\(binding.name)': no gesture '\(other)' to wait for") }
            }
        }
        guard !configured.isEmpty else { return }
        // Not `makeTimer`: that one keeps the server alive, and the server owns this.
        timer = EventSource.timer(on: server.loop, loopOwner: nil) { [unowned server, unowned self] in
            armedDeadline = nil
            server.route { router, sink in router.fireGestureDeadlines(at: server.currentTime, sink: &sink) }
        }
    }

    /// The configured name of a recognizer, for traces.
    func name(of id: GestureID) -> String? { bindings[id]?.name }

    /// Removes the deadline timer; the server calls this before its loop goes.
    func stop() {
        timer = nil
    }

    /// Logs and publishes what the recognizers did during a routing step, then arms the
    /// timer for the next deadline (only when it moved: arming is a system call).
    func publish(_ events: [GestureEvent], server: WaylandServer) {
        for event in events {
            guard let binding = bindings[event.gesture] else { continue }
            let d = event.detail
            let line = "gesture '\(binding.name)' \(event.state) at \(d.location), moved \(d.translation), scale \(d.scale), count \(d.count)"
            switch event.state {
            case .changed, .failed, .possible: server.logger.debug("\(line)")
            default: server.logger.info("\(line)")
            }
            delegate?.gesture(event, of: binding)
        }
        let deadline = server.router.nextGestureDeadline
        guard deadline != armedDeadline, let timer else { return }
        armedDeadline = deadline
        guard let deadline else { return timer.arm(milliseconds: 0) }
        let now = server.currentTime
        let wait = deadline > now ? (deadline.microseconds - now.microseconds + 999) / 1000 : 1
        timer.arm(milliseconds: Int32(clamping: max(1, wait)))
    }
}

extension WaylandServer {
    /// Who hears of the configured gestures' events (weak: the host owns it).
    public var gestureDelegate: (any GestureDelegate)? {
        get { parts.gestures.delegate }
        set { parts.gestures.delegate = newValue }
    }
}
