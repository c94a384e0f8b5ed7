import Logging
import Responder

/// A session that starts over when the customer walks away (the configuration file's
/// `session`): after `reset-after` seconds with no input, `ResetWarning` counts down
/// `warning` seconds over everything; a touch on it (or any other input) says someone is
/// there, and the wait starts again; at zero the host resets the session (`onReset`: the app
/// started again, or `session.reset-run`).
///
/// With screens that sleep (`idle`) both count from the same last input, and a reset is no
/// input: it neither wakes the screens nor starts their wait again. If they sleep when the
/// warning is due, nobody can see it: the session resets at once, in the dark. A session no
/// one has touched since it started (or since its last reset) has nothing to reset.
final class SessionReset: ServerPart {
    let settings: SessionResetSettings
    private let overlays: Overlays
    private let idle: Idle
    private let logger: Logger
    private let now: () -> Instant
    private var timer: DeadlineTimer?
    private var lastInput: Instant
    /// Someone used the session since it started or was reset.
    private var used = false
    /// Touches down now: a held finger is someone there.
    private var touches: Set<Int32> = []
    private let warning: ResetWarning
    /// When the warning began showing, while it does.
    private var warnedAt: Instant?
    /// Resets so far, for the metrics.
    private(set) var resets = 0
    /// The host starts the session over.
    var onReset: () -> Void = {}

    init(settings: SessionResetSettings, loop: OpaquePointer, overlays: Overlays, idle: Idle, logger: Logger, now: @escaping () -> Instant) {
        self.settings = settings
        self.overlays = overlays
        self.idle = idle
        self.logger = logger
        self.now = now
        lastInput = now()
        warning = ResetWarning(settings: settings)
        guard let seconds = settings.resetAfter else { return }
        timer = DeadlineTimer(EventSource.timer(on: loop, loopOwner: nil) { [unowned self] in timedOut() })
        warning.touched = { [unowned self] in dismiss(by: "a touch") }
        logger.info("session: starts over after \(seconds) s without input\(settings.warning > 0 ? ", after a \(settings.warning) s warning" : "")")
    }

    var isWarning: Bool { warnedAt != nil }

    /// Every input event from a device, before the overlays take theirs: someone is there.
    /// A touch on the warning dismisses it through the overlay (and goes nowhere); other input
    /// dismisses it here and goes on.
    func sees(_ event: InputEvent) {
        guard let seconds = settings.resetAfter else { return }
        lastInput = now()
        used = true
        switch event {
        case .touchDown(let id, _, _): touches.insert(id)
        case .touchUp(let id, _), .touchCancel(let id, _): touches.remove(id)
        case .touchMotion, .touchFrame: break
        default: if isWarning { dismiss(by: "input") }
        }
        if !isWarning, timer?.isArmed == false { wait(.seconds(seconds)) }
    }

    private func timedOut() {
        timer?.fired()
        guard let seconds = settings.resetAfter else { return }
        let now = now()
        if let warnedAt {
            let left = settings.warning - Int((now - warnedAt).milliseconds / 1000)
            guard left <= 0 else {
                warning.secondsLeft = left
                overlays.changed()
                return wait(.seconds(settings.warning - left + 1) - (now - warnedAt))
            }
            return reset(quiet: now - lastInput)
        }
        let wait = Duration.seconds(seconds), quiet = now - lastInput
        guard quiet >= wait else { return self.wait(wait - quiet) }
        // Someone holding a finger still is there; a session nobody used has nothing to lose.
        guard touches.isEmpty else { return self.wait(wait) }
        guard used else { return }
        guard settings.warning > 0, !idle.asleep else { return reset(quiet: quiet) }
        warnedAt = now
        warning.secondsLeft = settings.warning
        overlays.show(warning)
        logger.info("session: no input for \(seconds) s; warning for \(settings.warning) s before starting over")
        self.wait(.seconds(1))
    }

    private func dismiss(by cause: String) {
        guard isWarning, let seconds = settings.resetAfter else { return }
        warnedAt = nil
        overlays.hide(warning)
        logger.info("session: \(cause) dismissed the warning; starting over after \(seconds) s without input")
        wait(.seconds(seconds))
    }

    private func reset(quiet: Duration) {
        if warnedAt != nil { overlays.hide(warning) }
        warnedAt = nil
        used = false
        resets += 1
        timer?.arm(for: nil, now: now())
        logger.notice("session: starting over after \(quiet.milliseconds / 1000) s without input (reset \(resets))")
        onReset()
    }

    func stop() { timer = nil }

    private func wait(_ duration: Duration) {
        let now = now()
        timer?.arm(for: now.advanced(by: duration), now: now)
    }
}
