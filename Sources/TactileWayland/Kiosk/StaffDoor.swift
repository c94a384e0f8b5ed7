import Logging
import Responder

/// The door staff leave the app by (the configuration file's `staff`): the gesture with
/// `action: staff-door` (by default a long press in a corner), then `taps` taps where it
/// was (`StaffKnock`), then the PIN pad (`PinPad`). The right PIN opens what the
/// configuration says (`onOpen`); five wrong ones in a row lock the pad for a minute. The
/// log and the metrics count attempts; no log line, trace or inspector shows a digit (the
/// pad's touches never reach routing).
final class StaffDoor: ServerPart {
    let settings: StaffSettings?
    private let overlays: Overlays
    private let outputs: Outputs
    private let grabs: InputGrabs
    private let logger: Logger
    private let now: () -> Instant
    private let pad = PinPad()
    private var knock: StaffKnock?
    private var timer: EventSource?
    /// Wrong PINs in a row, and until when the pad is locked after too many.
    private var wrongInARow = 0
    private var lockedUntil: Instant?
    /// When the pad or the knock was last touched: each gives up when left alone.
    private var lastTouched: Instant
    /// PINs tried, by result (`right`, `wrong`, `locked`), for the metrics.
    private(set) var attempts: [String: Int] = [:]
    /// The right PIN was given: the host opens what is behind the door.
    var onOpen: (StaffDoorOpens) -> Void = { _ in }

    static let wrongLimit = 5
    static let lockout = Duration.seconds(60)
    /// How long the knock's taps and the pad wait for a touch.
    static let knockTime = Duration.seconds(6)
    static let padTime = Duration.seconds(30)

    init(settings: StaffSettings?, loop: OpaquePointer, overlays: Overlays, outputs: Outputs, grabs: InputGrabs, logger: Logger,
         now: @escaping () -> Instant) {
        self.settings = settings
        self.overlays = overlays
        self.outputs = outputs
        self.grabs = grabs
        self.logger = logger
        self.now = now
        lastTouched = now()
        guard settings != nil else { return }
        timer = EventSource.timer(on: loop, loopOwner: nil) { [unowned self] in tick() }
        pad.layout = { [unowned outputs] in outputs.layout }
        pad.submitted = { [unowned self] in submitted($0) }
        pad.cancelled = { [unowned self] in close("cancelled") }
        pad.touched = { [unowned self] in lastTouched = self.now() }
    }

    var isOpen: Bool { overlays.isShown(pad) }

    /// The door's gesture was recognized at `point`: its taps are listened for, or (with none
    /// configured) the pad opens.
    func knocked(at point: Point) {
        guard let settings, !isOpen, knock == nil else { return }
        guard settings.taps > 0 else { return openPad() }
        let knock = StaffKnock(around: point, taps: settings.taps) { [unowned self] knock, complete in
            guard knock === self.knock else { return }
            grabs.end(knock)
            self.knock = nil
            if complete { openPad() } else { logger.info("staff door: the knock's taps did not come; nothing opens") }
        }
        self.knock = knock
        grabs.begin(knock)
        lastTouched = now()
        logger.info("staff door: knocked; listening for \(settings.taps) taps")
        timer?.arm(milliseconds: Int32(Self.knockTime.milliseconds))
    }

    private func openPad() {
        pad.clear()
        if let lockedUntil, now() < lockedUntil { pad.message = lockedMessage(until: lockedUntil) }
        overlays.show(pad)
        lastTouched = now()
        logger.notice("staff door: the PIN pad is shown")
        timer?.arm(milliseconds: 1000)
    }

    private func close(_ why: String) {
        guard isOpen else { return }
        overlays.hide(pad)
        pad.clear()
        logger.notice("staff door: the PIN pad is closed (\(why))")
    }

    private func submitted(_ digits: [UInt8]) {
        guard let settings else { return }
        let now = now()
        if let lockedUntil, now < lockedUntil {
            count("locked")
            pad.message = lockedMessage(until: lockedUntil)
            logger.warning("staff door: a PIN was tried while locked")
            return overlays.changed()
        }
        lockedUntil = nil
        let pin = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        if StaffPin.matches(pin, hash: settings.pinHash) {
            count("right")
            wrongInARow = 0
            close("the right PIN")
            logger.notice("staff door: opened")
            return onOpen(settings.opens)
        }
        count("wrong")
        wrongInARow += 1
        if wrongInARow >= Self.wrongLimit {
            wrongInARow = 0
            let until = now.advanced(by: Self.lockout)
            lockedUntil = until
            pad.message = lockedMessage(until: until)
            logger.warning("staff door: \(Self.wrongLimit) wrong PINs in a row; the pad is locked for \(Self.lockout.milliseconds / 1000) s")
        } else {
            let left = Self.wrongLimit - wrongInARow
            pad.message = "Wrong PIN: \(left) \(left == 1 ? "try" : "tries") left"
            logger.warning("staff door: a wrong PIN (\(wrongInARow) in a row)")
        }
        overlays.changed()
    }

    private func lockedMessage(until: Instant) -> String {
        "Locked: try again in \((until - now()).milliseconds / 1000 + 1) s"
    }

    private func count(_ result: String) { attempts[result, default: 0] += 1 }

    /// Once a second while the pad shows (its lockout's countdown, its timeout); once when
    /// the knock's time is up.
    private func tick() {
        let now = now()
        if let knock, now - lastTouched >= Self.knockTime {
            grabs.end(knock)
            self.knock = nil
            logger.info("staff door: the knock's taps did not come in time; nothing opens")
        }
        guard isOpen else { return }
        guard now - lastTouched < Self.padTime else { return close("no touch for \(Self.padTime.milliseconds / 1000) s") }
        if let lockedUntil {
            if now < lockedUntil { pad.message = lockedMessage(until: lockedUntil) } else {
                self.lockedUntil = nil
                pad.message = ""
            }
            overlays.changed()
        }
        timer?.arm(milliseconds: 1000)
    }

    func stop() { timer = nil }
}
