import Responder
import TactileRender

/// What one output shows: its canvas, the surfaces it drew there last time, and what changed
/// since.
final class OutputScreen {
    private let renderer: any Renderer
    private(set) var canvas: (any Canvas)?
    /// The surfaces drawn by the last repaint, bottom to top, with the canvas rectangles they
    /// covered: the next repaint compares with it to find what moved, came, went or restacked.
    var shown: [(surface: ObjectIdentifier, bounds: Rect)] = []
    /// Content changed inside surfaces since the last repaint, in canvas pixels.
    var damage: [Rect] = []
    /// Where the cursor was drawn in the last frame presented.
    var cursorShown: Rect?
    /// Frame callbacks waiting for the frame in flight on this output.
    var inFlight: [FrameCallback] = []
    /// Presentation feedback for the content in the frame in flight.
    var feedbackInFlight: [PresentationFeedback] = []
    /// The oldest touch the frame in flight shows `touch.feedback`'s mark for first.
    var touchFeedbackSince: Instant?
    /// The oldest touch that a client's new buffer in the frame in flight answers.
    var appTouchSince: Instant?
    /// Surface images turned for this output's transform, by image: made when the image
    /// changes (a commit), so a repaint of a turned output copies rather than turns.
    private var turned: [ObjectIdentifier: (generation: Int, map: Affine, image: Image)] = [:]
    /// The images turned or reused during the repaint under way; the others are dropped after.
    private var turnedNow: Set<ObjectIdentifier> = []

    init(renderer: any Renderer) {
        self.renderer = renderer
    }

    /// Whether a window on a turned output is drawn from a turned copy of its image: with
    /// pixman, whose turns cost more than copies; a GPU samples through the turn.
    var turnsImages: Bool { !renderer.turnsForFree }

    /// `image` turned by `map` (canvas pixel to image pixel) into an image that lands
    /// translated at `bounds`: the cached one while the image is unchanged.
    func turned(_ image: Image, map: Affine, bounds: Rect) -> Image? {
        let key = ObjectIdentifier(image)
        turnedNow.insert(key)
        let local = Affine.translation(Double(bounds.x), Double(bounds.y)).then(map)
        if let cached = turned[key], cached.generation == image.generation, cached.map == local, cached.image.size == bounds.size {
            return cached.image
        }
        guard let made = image.turned(local, size: bounds.size) else { return nil }
        turned[key] = (image.generation, local, made)
        return made
    }

    /// A repaint ended: turned images of surfaces it did not draw go.
    func repaintEnded() {
        if turned.count != turnedNow.count { turned = turned.filter { turnedNow.contains($0.key) } }
        turnedNow.removeAll(keepingCapacity: true)
    }

    /// The canvas at `size`; a new one (everything damaged) when the size changed.
    func canvas(size: Size) -> (any Canvas)? {
        if let canvas, canvas.size == size { return canvas }
        canvas = renderer.makeCanvas(size: size)
        shown = []
        damage = [Rect(size: size)]
        return canvas
    }

    /// Compares `items` (this repaint's surfaces, bottom to top, with what they draw) with
    /// what the last repaint drew: the canvas rectangles of what moved, came, went or
    /// restacked go into `damage`, and `items` become what was drawn. In place, so that a
    /// frame that moves nothing allocates nothing here.
    func redrawn(_ items: [(Surface, DrawItem)], damage: inout [Rect]) {
        for index in 0..<max(shown.count, items.count) {
            let old = index < shown.count ? shown[index] : nil
            let new = index < items.count ? (surface: ObjectIdentifier(items[index].0), bounds: items[index].1.bounds) : nil
            guard old?.surface != new?.surface || old?.bounds != new?.bounds else { continue }
            if let old, !old.bounds.isEmpty { damage.append(old.bounds) }
            if let new, !new.bounds.isEmpty { damage.append(new.bounds) }
        }
        shown.removeAll(keepingCapacity: true)
        for (surface, item) in items { shown.append((ObjectIdentifier(surface), item.bounds)) }
    }
}
