import CWaylandServer
import Logging
import Responder

/// Screens that sleep when nobody is there (the configuration file's `idle`): after
/// `timeout` seconds with no input from any device, every output's panel powers off; the
/// next input wakes them all, and with `wake: swallow` that input goes nowhere
/// (`WakeGrab`). A finger held on the screen, or an idle inhibitor on a window someone can
/// see, keeps them on. Idle notifications (swayidle) hear every input through it too.
///
/// Input costs one stored time: the timer is not moved at each event, but when it fires
/// it looks at when the last input came and waits the rest.
final class Idle: ServerPart {
    let settings: IdleSettings
    private let outputs: Outputs
    private let grabs: InputGrabs
    private let notifier: IdleNotifier
    private let inhibitors: IdleInhibitors
    private let logger: Logger
    private let now: () -> Instant
    private var timer: EventSource?
    /// The screens were put to sleep for idleness, and no input has woken them yet.
    private(set) var asleep = false
    /// Touches down now: a held finger is someone there.
    private var touches: Set<Int32> = []

    init(settings: IdleSettings, loop: OpaquePointer, outputs: Outputs, grabs: InputGrabs, notifier: IdleNotifier, inhibitors: IdleInhibitors,
         logger: Logger, now: @escaping () -> Instant) {
        self.settings = settings
        self.outputs = outputs
        self.grabs = grabs
        self.notifier = notifier
        self.inhibitors = inhibitors
        self.logger = logger
        self.now = now
        // Through `self` only: the parameters would be captured strongly, and the inhibitors
        // would keep themselves (and the server's parts) alive.
        inhibitors.changed = { [unowned self] in
            // An inhibitor let go: the waits start again from now, as if someone had touched
            // (idle notifications' too, whether or not the screens ever sleep).
            guard !self.inhibitors.inhibited else { return }
            self.notifier.inhibitionEnded(at: self.now())
        }
        guard let seconds = settings.timeout else { return }
        timer = EventSource.timer(on: loop, loopOwner: nil) { [unowned self] in timedOut() }
        timer?.arm(milliseconds: Int32(seconds * 1000))
        logger.info("idle: the screens sleep after \(seconds) s without input; the input that wakes them is \(settings.wake == .swallow ? "swallowed" : "delivered")")
    }

    /// Every input event from a device, before anything else sees it: the screens wake if
    /// they sleep (the event then goes to `WakeGrab` when it is to be swallowed).
    func sees(_ event: InputEvent) {
        notifier.activity(at: now())
        switch event {
        case .touchDown(let id, _, _): touches.insert(id)
        case .touchUp(let id, _), .touchCancel(let id, _): touches.remove(id)
        default: break
        }
        guard asleep else { return }
        asleep = false
        logger.info("idle: woken by \(Self.name(of: event))\(settings.wake == .swallow ? "; it goes no further" : "")")
        if settings.wake == .swallow { grabs.begin(WakeGrab { [unowned grabs] grab in grabs.end(grab) }) }
        for output in outputs.live { outputs.setPower(true, of: output) }
        if let seconds = settings.timeout { timer?.arm(milliseconds: Int32(seconds * 1000)) }
    }

    /// The timeout ran out since the timer was set: sleep if it ran out since the last
    /// input too, and nothing keeps the screens on; else wait again.
    private func timedOut() {
        guard let seconds = settings.timeout, !asleep else { return }
        let timeout = Duration.seconds(seconds)
        let quiet = now() - notifier.lastActivity
        guard quiet >= timeout else { return timer!.arm(milliseconds: Self.milliseconds(timeout - quiet)) }
        // Kept on: checked again a timeout later (an inhibitor's end starts the wait anew).
        guard touches.isEmpty, !inhibitors.inhibited else { return timer!.arm(milliseconds: Self.milliseconds(timeout)) }
        asleep = true
        logger.info("idle: no input for \(seconds) s; the screens sleep")
        for output in outputs.live { outputs.setPower(false, of: output) }
    }

    /// Removes the timer; the server calls this before its loop goes.
    func stop() {
        timer = nil
    }

    /// A screen plugged in while the others sleep sleeps too.
    func layoutChanged() {
        guard asleep else { return }
        for output in outputs.live { outputs.setPower(false, of: output) }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: max(1, duration.milliseconds))
    }

    private static func name(of event: InputEvent) -> String {
        switch event {
        case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchFrame: "a touch"
        case .pointerMotion: "pointer motion"
        case .pointerButton: "a button"
        case .pointerAxis: "a scroll"
        case .key: "a key"
        case .touchpadGestureBegin, .touchpadGestureUpdate, .touchpadGestureEnd: "a touchpad gesture"
        case .penProximity, .penTip, .penMotion, .penButton: "a pen"
        case .pad: "a tablet pad"
        }
    }
}
