import Responder
import TactileRender

/// Something the compositor draws itself over everything, the session lock included: a
/// countdown ring under a finger, a kiosk's "Still there?" warning, its cleaning screen, the
/// staff PIN pad. `Overlays` draws every shown one in the order shown and, for a modal one,
/// puts a compositor node over the scene so the hit test finds it before any client: its
/// touches come to it, and nothing under it (an app, a gesture) hears them.
///
/// A new overlay is a class conforming to this, shown and hidden through `Overlays`.
protocol Overlay: AnyObject {
    /// Takes every touch that comes down while it shows; a drawing only (a ring) takes none.
    var isModal: Bool { get }
    /// What it draws over `output` at `now`, in the output's canvas pixels.
    func items(on output: Output, at now: Instant) -> [DrawItem]
    /// Global rectangles to repaint since last asked: where it was or now is, or what
    /// changed in it (a countdown's second). `layout` is made only when called (a steady
    /// frame allocates nothing).
    func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect]
    /// A touch it took (down, motion, up, cancel), in layout coordinates; only modal ones
    /// are told.
    func touch(_ event: InputEvent)
}

extension Overlay {
    func touch(_ event: InputEvent) {}
}
