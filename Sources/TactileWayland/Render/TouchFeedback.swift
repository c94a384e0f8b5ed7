import Responder
import TactileRender

/// `touch.feedback: ripple`: a small mark under each finger that is down, drawn by the
/// server over everything at the finger's latest position in every frame it composes, so a
/// person sees the screen answer their touch within a frame even while the app is slow to
/// draw. The position is latched when the frame is composed (as late before the vblank as
/// the frame clock allows), not when the app last drew.
///
/// How long the mark took to show is logged at debug level for each frame that moved it
/// (`touch feedback: shown N µs after the touch`): the time from the oldest touch event it
/// had not yet shown to the frame's presentation, as the guest's latency benchmark reads it.
public enum TouchFeedbackStyle: String, CaseIterable, Sendable {
    case off
    case ripple
}

final class TouchFeedback {
    /// Each finger that is down, where it is now.
    private var fingers: [(id: Int32, at: Point)] = []
    /// Global rectangles to repaint: where marks were or now are.
    private(set) var damage: [Rect] = []
    /// The oldest touch event whose position no frame has latched yet.
    private var unlatchedSince: Instant?

    func input(_ event: InputEvent) {
        switch event {
        case .touchDown(let id, let global, let time):
            guard global.isFinite, fingers.count < Self.maximumFingers else { return }
            if let k = index(id) { damage(at: fingers[k].at); fingers.remove(at: k) }
            fingers.append((id, global))
            damage(at: global)
            moved(at: time)
        case .touchMotion(let id, let global, let time):
            guard global.isFinite, let k = index(id), fingers[k].at != global else { return }
            damage(at: fingers[k].at)
            fingers[k].at = global
            damage(at: global)
            moved(at: time)
        case .touchUp(let id, _), .touchCancel(let id, _):
            guard let k = index(id) else { return }
            damage(at: fingers[k].at)
            fingers.remove(at: k)
        default:
            break
        }
    }

    /// More fingers than a touchscreen reports are ignored: a hostile or broken device.
    static let maximumFingers = 32

    /// Takes the damage for the next repaint.
    func takeDamage() -> [Rect] {
        defer { damage.removeAll(keepingCapacity: true) }
        return damage
    }

    /// The marks over `output`, and the time of the oldest touch event they show first (nil
    /// when they show nothing new): the frame composed now latches them.
    func latch(on output: Output) -> (items: [DrawItem], since: Instant?) {
        let items = fingers.compactMap { output.overlayItem(MarkImages.shared.disc(Self.colour), centredAt: $0.at) }
        guard !items.isEmpty else { return ([], nil) }
        defer { unlatchedSince = nil }
        return (items, unlatchedSince)
    }

    /// White at the rim, a translucent fill: seen on any app's colours.
    static let colour: UInt32 = 0xffffffff

    private func moved(at time: Instant) {
        if unlatchedSince == nil || time < unlatchedSince! { unlatchedSince = time }
    }

    private func index(_ id: Int32) -> Int? { fingers.firstIndex { $0.id == id } }

    /// The disc centred at `point`, with a pixel to spare.
    private func damage(at point: Point) {
        let r = MarkImages.radius + 1, pixel = point.overlayPixel
        damage.append(Rect(x: pixel.x - r, y: pixel.y - r, width: 2 * r + 1, height: 2 * r + 1))
    }
}
