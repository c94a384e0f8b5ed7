import Responder
import TactileRender

/// "Still there? Touch to continue": the session's reset coming, with the seconds left. A
/// touch anywhere on it says someone is there: it dismisses the warning and reaches nothing
/// else.
final class ResetWarning: Overlay {
    var isModal: Bool { true }
    private let settings: SessionResetSettings
    private var card = ScreenCard()
    /// Seconds left, as shown.
    var secondsLeft: Int { didSet { if secondsLeft != oldValue { card.changed = true } } }
    /// A touch came down on it.
    var touched: () -> Void = {}

    init(settings: SessionResetSettings) {
        self.settings = settings
        secondsLeft = settings.warning
    }

    func items(on output: Output, at now: Instant) -> [DrawItem] {
        card.countdown(settings.text, settings.countdown, seconds: secondsLeft, on: output)
    }

    func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect] { card.takeDamage(in: layout) }

    func touch(_ event: InputEvent) {
        if case .touchDown = event { touched() }
    }
}
