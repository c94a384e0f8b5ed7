import Responder
import TactileRender

/// The countdowns of the touch accommodations (a hold that will count) and of the secondary
/// click (a long press that will right-click), drawn by the server over everything, centred
/// under the finger: a faint ring that fills clockwise from the top as the wait runs, as iOS
/// draws Hold Duration's. While one shows, every frame redraws it a step fuller. Always
/// shown among the overlays (drawing nothing while no finger waits), and never modal.
final class TouchRings: Overlay {
    var isModal: Bool { false }
    private var rings: [TouchRing] = []
    /// Global rectangles to repaint: where rings were or now are.
    private(set) var damage: [Rect] = []

    /// The rings to draw from now on; the places of those that came, went or moved repaint.
    func show(_ new: [TouchRing]) {
        guard new != rings else { return }
        for ring in rings + new { damage(at: ring.at) }
        rings = new
    }

    var isEmpty: Bool { rings.isEmpty }

    /// Takes the damage for the next repaint: every ring's place while one shows, as each
    /// frame draws it fuller.
    func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect] {
        for ring in rings { damage(at: ring.at) }
        defer { damage.removeAll(keepingCapacity: true) }
        return damage
    }

    /// The rings over `output`, as full as they are at `now`.
    func items(on output: Output, at now: Instant) -> [DrawItem] {
        guard !rings.isEmpty else { return [] }
        return rings.compactMap { ring in
            let step = Int((ring.progress(at: now) * Double(Self.steps)).rounded(.down))
            return output.overlayItem(MarkImages.shared.countdown(Self.colour, step: step, of: Self.steps), centredAt: ring.at)
        }
    }

    /// How many fills the ring is drawn in: one a frame at 60 Hz for a 400 ms hold.
    static let steps = 24
    static let colour: UInt32 = 0xffffffff

    private func damage(at point: Point) {
        let r = MarkImages.countdownRadius + 1, pixel = point.overlayPixel
        damage.append(Rect(x: pixel.x - r, y: pixel.y - r, width: 2 * r + 1, height: 2 * r + 1))
    }
}
