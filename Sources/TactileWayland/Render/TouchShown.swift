import Responder

/// What showed a touch, for its touch-to-present time: from the touch event's time to the
/// presentation of the first frame that answers it. Measured only where the server can tell
/// which frame that is, and told to `WaylandServer.onTouchShown` (a fleet's histogram).
public enum TouchShown: String, CaseIterable, Sendable {
    /// The app: the first new buffer its client committed after being sent the touch (down
    /// or motion), shown. A commit is taken to answer every touch sent before it.
    case app
    /// `touch.feedback: ripple`'s mark at the finger, shown.
    case feedback

    /// Longer than this is no touch's latency but a clock the event did not come from.
    static let plausible = Duration.seconds(10)
}
