import Logging
import Responder
import TactileRender

/// A screen that can be wiped (`action: clean-screen`): for `cleaning.duration` seconds every
/// touch goes nowhere, not to an app and not to a gesture, while "Cleaning" counts down over
/// everything; then the screen is as it was. A finger held still `cleaning.end-hold` seconds
/// in a corner ends it early: a cloth moves, a finger meaning it does not.
final class Cleaning: ServerPart, Overlay {
    let settings: CleaningSettings
    private let overlays: Overlays
    private let outputs: Outputs
    private let logger: Logger
    private let now: () -> Instant
    private var timer: DeadlineTimer?
    private var card = ScreenCard()
    /// When it ends, while it runs.
    private var endsAt: Instant?
    private var shownSeconds = 0
    /// A finger that came down in a corner and has stayed still: it ends cleaning at `at`.
    private var corner: (id: Int32, start: Point, at: Instant)?
    /// Touches that went nowhere this time, for the log.
    private var swallowed = 0
    /// Cleanings started, for the metrics.
    private(set) var started = 0

    /// How far a finger ending it may wander, and the side of each corner's square.
    static let slop = 20.0
    static let cornerSide = 100.0

    init(settings: CleaningSettings, loop: OpaquePointer, overlays: Overlays, outputs: Outputs, logger: Logger, now: @escaping () -> Instant) {
        self.settings = settings
        self.overlays = overlays
        self.outputs = outputs
        self.logger = logger
        self.now = now
        timer = DeadlineTimer(EventSource.timer(on: loop, loopOwner: nil) { [unowned self] in
            timer?.fired()
            tick()
        })
    }

    var isRunning: Bool { endsAt != nil }

    /// Starts cleaning for `seconds` (the configuration's when nil), or starts its time again.
    func start(seconds: Int? = nil) {
        let seconds = min(max(seconds ?? settings.duration, CleaningSettings.durations.lowerBound), CleaningSettings.durations.upperBound)
        if !isRunning {
            started += 1
            swallowed = 0
            corner = nil
        }
        endsAt = now().advanced(by: .seconds(seconds))
        overlays.show(self)
        logger.notice("cleaning: every touch goes nowhere for \(seconds) s\(settings.endHold > 0 ? " (a finger held \(settings.endHold) s in a corner ends it)" : "")")
        tick()
    }

    private func end(_ why: String) {
        guard isRunning else { return }
        endsAt = nil
        corner = nil
        timer?.arm(for: nil, now: now())
        overlays.hide(self)
        logger.notice("cleaning: over (\(why)); \(swallowed) touch\(swallowed == 1 ? "" : "es") went nowhere")
    }

    private func tick() {
        guard let endsAt else { return }
        let now = now()
        if let corner, now >= corner.at { return end("ended early by a finger held in a corner") }
        guard now < endsAt else { return end("its time ran out") }
        let left = Int(((endsAt - now).milliseconds + 999) / 1000)
        if left != shownSeconds {
            shownSeconds = left
            card.changed = true
            overlays.changed()
        }
        // The next second shown, or the corner's hold, whichever comes first.
        var next = endsAt.advanced(by: .seconds(1 - left))
        if let corner { next = min(next, corner.at) }
        timer?.arm(for: next, now: now)
    }

    // MARK: Overlay

    var isModal: Bool { true }

    func items(on output: Output, at now: Instant) -> [DrawItem] {
        card.countdown(settings.text, settings.countdown, seconds: shownSeconds, on: output)
    }

    func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect] { card.takeDamage(in: layout) }

    func touch(_ event: InputEvent) {
        switch event {
        case .touchDown(let id, let global, _):
            swallowed += 1
            guard settings.endHold > 0, corner == nil, inCorner(global) else { return }
            corner = (id, global, now().advanced(by: .seconds(settings.endHold)))
            tick()
        case .touchMotion(let id, let global, _):
            if let corner, corner.id == id, !global.isWithin(Self.slop, of: corner.start) { self.corner = nil }
        case .touchUp(let id, _), .touchCancel(let id, _):
            if corner?.id == id { corner = nil }
        default:
            break
        }
    }

    private func inCorner(_ point: Point) -> Bool {
        outputs.layout.contains { output in Corner.allCases.contains { $0.square(Self.cornerSide, of: output.rect).contains(point) } }
    }

    func stop() { timer = nil }
}
