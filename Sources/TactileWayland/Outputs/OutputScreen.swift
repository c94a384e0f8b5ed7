import Responder
import TactileRender

/// What one output shows: its canvas, the surfaces it drew there last time, and what changed
/// since.
final class OutputScreen {
    private(set) var canvas: Canvas?
    /// The surfaces drawn by the last repaint, bottom to top, with the canvas rectangles they
    /// covered: the next repaint compares with it to find what moved, came, went or restacked.
    var shown: [(surface: ObjectIdentifier, bounds: Rect)] = []
    /// Content changed inside surfaces since the last repaint, in canvas pixels.
    var damage: [Rect] = []
    /// Where the cursor was drawn in the last frame presented.
    var cursorShown: Rect?
    /// Frame callbacks waiting for the frame in flight on this output.
    var inFlight: [FrameCallback] = []

    /// The canvas at `size`; a new one (everything damaged) when the size changed.
    func canvas(size: Size) -> Canvas? {
        if let canvas, canvas.size == size { return canvas }
        canvas = Canvas(size: size)
        shown = []
        damage = [Rect(size: size)]
        return canvas
    }

    /// Canvas rectangles that differ between what was shown and what will be.
    func geometryDamage(_ next: [(surface: ObjectIdentifier, bounds: Rect)]) -> [Rect] {
        var rects: [Rect] = []
        for index in 0..<max(shown.count, next.count) {
            let old = index < shown.count ? shown[index] : nil
            let new = index < next.count ? next[index] : nil
            guard old?.surface != new?.surface || old?.bounds != new?.bounds else { continue }
            if let old { rects.append(old.bounds) }
            if let new { rects.append(new.bounds) }
        }
        return rects.filter { !$0.isEmpty }
    }
}
