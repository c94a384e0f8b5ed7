import Responder
import TactileRender

/// `--show-touches`: every touch point and its trail drawn over the outputs, in its owner's
/// colour, with a cross where a touch was cancelled (red: its client got wl_touch.cancel) or
/// taken by a gesture before its client saw it (white). A touch that lifted keeps a ring
/// and its trail until the next touch starts on an empty screen, so a screenshot taken after
/// a tap still shows where it landed. `--show-input-regions` outlines the input region of the
/// surface under the pointer.
///
/// Positions come from the input events; owners and claims from the core's trace.
final class TouchMarks {
    struct Mark {
        let id: Int32
        var owner: ClientID?
        var trail: [Point]
        var isDown = true
        /// Where the touch was taken from its client, and whether the client was told
        /// (wl_touch.cancel) or never saw it. The trail goes on: the finger still moves.
        var cross: (at: Point, cancelled: Bool)?

        init(id: Int32, at point: Point) {
            self.id = id
            trail = [point]
        }
    }

    private(set) var marks: [Mark] = []
    /// Global rectangles to repaint: where marks were or now are.
    private(set) var damage: [Rect] = []
    /// The input-region outline shown: which surface, and its rectangles (global).
    private var outlined: (node: NodeID, rects: [Rect])?
    let showsInputRegions: Bool

    /// Points closer than this to the trail's last one are not added; a trail keeps at
    /// most `maximumTrail` points (the oldest go).
    private static let minimumStep = 4.0
    private static let maximumTrail = 96
    private static let maximumOutlinedRects = 16

    init(showsInputRegions: Bool) {
        self.showsInputRegions = showsInputRegions
    }

    func input(_ event: InputEvent) {
        switch event {
        case .touchDown(let id, let global, _):
            guard global.isFinite else { return }
            if marks.allSatisfy({ !$0.isDown }) {
                for mark in marks { damageAll(mark) }
                marks.removeAll()
            }
            for mark in marks where mark.id == id && !mark.isDown { damageAll(mark) }
            marks.removeAll { $0.id == id && !$0.isDown }
            marks.append(Mark(id: id, at: global))
            damage(at: global)
        case .touchMotion(let id, let global, _):
            guard global.isFinite, let k = live(id), let last = marks[k].trail.last,
                  abs(global.x - last.x) + abs(global.y - last.y) >= Self.minimumStep else { return }
            marks[k].trail.append(global)
            if marks[k].trail.count > Self.maximumTrail { damage(at: marks[k].trail.removeFirst()) }
            // The head moves on: where it was becomes a trail dot.
            damage(at: last)
            damage(at: global)
        case .touchUp(let id, _):
            lift(id)
        case .touchCancel(let id, _):
            if let k = live(id) { cross(k, cancelled: true) }
            lift(id)
        default:
            break
        }
    }

    func traced(_ event: TraceEvent) {
        switch event {
        case .touchOwner(let id, let owner):
            guard let k = live(id) else { return }
            switch owner {
            case .surface(_, let client, _), .emulatedPointer(let client): marks[k].owner = client
            case .nobody: marks[k].owner = nil
            }
        case .touchClaimed(let id, _, let outcome):
            switch outcome {
            case .cancelled(let client):
                // wl_touch.cancel ends every touch of the client.
                for k in marks.indices where marks[k].isDown && marks[k].owner == client && marks[k].cross == nil { cross(k, cancelled: true) }
            case .unseen, .pressAbandoned, .unowned:
                if let k = live(id) { cross(k, cancelled: false) }
            }
        default:
            break
        }
    }

    /// The pointer focus and its input region (global rectangles), after each routing step.
    func pointerFocus(_ node: NodeID?, region: [Rect]) {
        guard showsInputRegions else { return }
        let next = node.map { (node: $0, rects: Array(region.prefix(Self.maximumOutlinedRects))) }
        guard next?.node != outlined?.node || next?.rects != outlined?.rects else { return }
        damage += outlined?.rects ?? []
        damage += next?.rects ?? []
        outlined = next
    }

    func takeDamage() -> [Rect] {
        defer { damage.removeAll() }
        return damage
    }

    /// What to draw over `output`'s surfaces, bottom to top.
    func items(on output: Output) -> [DrawItem] {
        var items: [DrawItem] = []
        for rect in outlined?.rects ?? [] {
            for line in Self.outline(rect) {
                if let item = output.overlayItem(MarkImages.shared.solid(line.size, MarkImages.outlineColour), at: line.origin) { items.append(item) }
            }
        }
        for mark in marks {
            let colour = MarkImages.colour(of: mark.owner)
            for point in mark.trail.dropLast() {
                if let item = output.overlayItem(MarkImages.shared.dot(colour), centredAt: point) { items.append(item) }
            }
            guard let point = mark.trail.last else { continue }
            let head = mark.isDown ? MarkImages.shared.disc(colour) : MarkImages.shared.ring(colour)
            if let item = output.overlayItem(head, centredAt: point) { items.append(item) }
            if let cross = mark.cross,
               let item = output.overlayItem(MarkImages.shared.cross(cross.cancelled ? MarkImages.cancelledColour : MarkImages.claimedColour), centredAt: cross.at) {
                items.append(item)
            }
        }
        return items
    }

    private func live(_ id: Int32) -> Int? { marks.lastIndex { $0.id == id && $0.isDown } }

    private func lift(_ id: Int32) {
        guard let k = live(id), let head = marks[k].trail.last else { return }
        marks[k].isDown = false
        damage(at: head)
    }

    private func cross(_ k: Int, cancelled: Bool) {
        guard let point = marks[k].trail.last else { return }
        marks[k].cross = (point, cancelled)
        damage(at: point)
    }

    /// A mark that goes: its whole trail and its cross.
    private func damageAll(_ mark: Mark) {
        for point in mark.trail { damage(at: point) }
        if let cross = mark.cross { damage(at: cross.at) }
    }

    /// The largest picture (disc, ring, cross) centred at `point`, with a pixel to spare.
    private func damage(at point: Point) {
        let r = MarkImages.radius + 1, pixel = point.overlayPixel
        damage.append(Rect(x: pixel.x - r, y: pixel.y - r, width: 2 * r + 1, height: 2 * r + 1))
    }

    /// A rectangle's four sides, 2 pixels wide, inside it.
    private static func outline(_ rect: Rect) -> [Rect] {
        guard rect.width > 0, rect.height > 0 else { return [] }
        let w = min(2, rect.width), h = min(2, rect.height)
        return [Rect(x: rect.x, y: rect.y, width: rect.width, height: h), Rect(x: rect.x, y: rect.maxY - h, width: rect.width, height: h),
                Rect(x: rect.x, y: rect.y, width: w, height: rect.height), Rect(x: rect.maxX - w, y: rect.y, width: w, height: rect.height)]
    }
}

extension Scene {
    /// The input region of `node` in global coordinates, clipped to the surface.
    func inputRegionOutline(of node: NodeID?) -> [Rect] {
        guard let node, let surface = self.node(node), let frame = absoluteFrame(of: node) else { return [] }
        return surface.inputRegion.intersection(Rect(size: frame.size)).rects.map { $0.offset(by: Position(x: frame.x, y: frame.y)) }
    }
}
