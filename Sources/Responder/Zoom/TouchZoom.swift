/// Zoom by touch, as iOS's Zoom has it: a three-finger double tap magnifies the output under
/// the fingers to `ZoomSettings.scale` (and a second one restores it), a three-finger double
/// tap whose second tap stays and drags up or down zooms in or out continuously (up to
/// `ZoomSettings.maximum`), and three fingers dragged while zoomed move the region shown.
///
/// ```
///  TouchFilters ─▶ TouchZoom ─▶ TouchAccommodations ─▶ map (ZoomView) ─▶ InputRouter
///                 (screen coordinates)                  (layout coordinates)
/// ```
///
/// Three fingers that land within `together` of each other are the zoom's, whatever they
/// do: the app that had the first two gets `wl_touch.cancel` (the stage passes a cancel for
/// each), and nothing of the three goes further. It sees touches before the accommodations,
/// so that a hold duration does not hold the zoom's taps back, and in the panel's own
/// coordinates, as the person's fingers move on the glass. While zoomed, `map` takes every
/// point of the screen (touch, pointer, pen) to the layout point shown under it.
public struct TouchZoom {
    public private(set) var settings: ZoomSettings?
    /// What is shown now; nil: nothing is magnified.
    public private(set) var view: ZoomView?
    /// The outputs the zoom may magnify, in layout pixels.
    private var outputs: [Rect] = []

    private struct Finger {
        var id: Int32
        var at: Point
        var time: Instant
    }
    /// Fingers down that went on (not the zoom's).
    private var fingers: [Finger] = []

    private enum Mode: Equatable {
        case undecided
        case pan(from: Position)
        case scale(from: Double, anchor: Point, layout: Point)
    }
    private struct Group {
        var fingers: [Finger]
        var live: [Int32]
        var start: Point
        var time: Instant
        var farthest = 0.0
        var isSecondTap: Bool
        var mode = Mode.undecided
    }
    /// The three fingers the zoom took, while any is down.
    private var group: Group?
    /// The last three-finger tap: when it ended, and where.
    private var lastTap: (time: Instant, at: Point)?

    /// How close together in time three downs must be to be the zoom's.
    public static let together = Duration.milliseconds(250)
    /// A tap lasts this long at most, and moves this far at most.
    public static let tapDuration = Duration.milliseconds(350)
    public static let tapSlop = 30.0
    /// The second tap of a double tap starts this soon after the first ends.
    public static let doubleTapGap = Duration.milliseconds(400)
    /// How far fingers move before a drag pans or zooms.
    public static let dragSlop = 20.0
    /// Pixels dragged (up) to double the scale.
    public static let doublingDrag = 150.0

    public init(settings: ZoomSettings? = nil) {
        self.settings = settings
        fingers.reserveCapacity(8)
    }

    /// Zoom on (these settings) or off (nil): turned off, what is magnified is restored.
    public mutating func setSettings(_ settings: ZoomSettings?, into output: inout some ZoomOutput) {
        self.settings = settings
        if settings == nil, view != nil { change(to: nil, &output) }
    }

    /// The outputs' layout rectangles; a view whose output changed or went is restored.
    public mutating func setOutputs(_ rects: [Rect], into output: inout some ZoomOutput) {
        outputs = rects
        if let view, !rects.contains(view.output) { change(to: nil, &output) }
    }

    /// Whether any touch must pass through here.
    public var isActive: Bool { settings != nil || group != nil || view != nil }

    /// Runs one touch event (screen coordinates) through the zoom's gestures.
    public mutating func process(_ event: InputEvent, into output: inout some ZoomOutput) {
        guard settings != nil || group != nil else { return output.pass(event) }
        switch event {
        case .touchDown(_, let global, _) where !global.isRoutable, .touchMotion(_, let global, _) where !global.isRoutable:
            // Not a place on any screen: the router says so.
            output.pass(event)
        case .touchDown(let id, let global, let time):
            if group != nil { return claim(Finger(id: id, at: global, time: time)) }
            fingers.append(Finger(id: id, at: global, time: time))
            let recent = fingers.suffix(3)
            guard recent.count == 3, let first = recent.first, time.since(first.time) <= Self.together else { return output.pass(event) }
            fingers.removeLast(3)
            for finger in recent.dropLast() { output.pass(.touchCancel(id: finger.id, time: time)) }
            let start = Self.centroid(recent.map(\.at))
            let second = lastTap.map { first.time >= $0.time && first.time.since($0.time) <= Self.doubleTapGap } ?? false
            group = Group(fingers: Array(recent), live: recent.map(\.id), start: start, time: time, isSecondTap: second)
            lastTap = nil
        case .touchMotion(let id, let global, _):
            if var g = group, let k = g.fingers.firstIndex(where: { $0.id == id }) {
                g.fingers[k].at = global
                group = g
                return moved(&output)
            }
            if let k = fingers.firstIndex(where: { $0.id == id }) { fingers[k].at = global }
            output.pass(event)
        case .touchUp(let id, let time), .touchCancel(let id, let time):
            if var g = group, g.fingers.contains(where: { $0.id == id }) {
                g.live.removeAll { $0 == id }
                group = g
                if g.live.isEmpty { ended(g, at: time, cancelled: event.isCancel, &output) }
                return
            }
            fingers.removeAll { $0.id == id }
            output.pass(event)
        default:
            output.pass(event)
        }
    }

    /// The event with its points (touch, pointer, pen) where they are in the layout: what
    /// the magnified screen shows under them. Unchanged while nothing is magnified.
    public func map(_ event: InputEvent) -> InputEvent {
        view.map { $0.map(event) } ?? event
    }

    /// A text field's cursor (layout pixels) moved, as its app reports it: while zoomed, the
    /// region moves to show it, centred on it, when it was out of sight.
    public mutating func follow(_ rect: Rect, into output: inout some ZoomOutput) {
        guard let view, view.region.intersection(rect) != rect, rect.width >= 0, rect.height >= 0 else { return }
        change(to: view.showing(rect), &output)
    }

    private mutating func claim(_ finger: Finger) {
        group?.fingers.append(finger)
        group?.live.append(finger.id)
    }

    private mutating func moved(_ output: inout some ZoomOutput) {
        guard var g = group, let settings else { return }
        let at = Self.centroid(g.fingers.filter { g.live.contains($0.id) }.map(\.at))
        let (dx, dy) = (at.x - g.start.x, at.y - g.start.y)
        g.farthest = max(g.farthest, (dx * dx + dy * dy).squareRoot())
        if g.mode == .undecided, g.farthest > Self.dragSlop {
            if g.isSecondTap, abs(dy) >= abs(dx) {
                let view = self.view ?? outputs.first { $0.contains(g.start) }.map { ZoomView(output: $0, scale: 1, origin: Position(x: $0.x, y: $0.y)) }
                if let view { g.mode = .scale(from: view.scale, anchor: g.start, layout: view.map(g.start)) }
            } else if let view {
                g.mode = .pan(from: view.origin)
            }
        }
        group = g
        switch g.mode {
        case .undecided: break
        case .pan(let from):
            guard var view else { return }
            view.origin = Position(x: from.x - ZoomView.whole(dx / view.scale), y: from.y - ZoomView.whole(dy / view.scale))
            change(to: view.clamped(), &output)
        case .scale(let from, let anchor, let layout):
            let base = view ?? outputs.first { $0.contains(anchor) }.map { ZoomView(output: $0, scale: 1, origin: Position(x: $0.x, y: $0.y)) }
            guard let base else { return }
            let scale = min(max(from * Self.pow2(-dy / Self.doublingDrag), 1), settings.maximum)
            change(to: base.rescaled(to: scale, keeping: anchor, at: layout), &output)
        }
    }

    private mutating func ended(_ g: Group, at time: Instant, cancelled: Bool, _ output: inout some ZoomOutput) {
        group = nil
        switch g.mode {
        case .scale:
            // Let go near 1: nothing magnified.
            if let view, view.scale < 1.05 { change(to: nil, &output) }
        case .pan:
            break
        case .undecided:
            guard !cancelled, time.since(g.time) <= Self.tapDuration, g.farthest <= Self.tapSlop, let settings else { return }
            guard g.isSecondTap else {
                lastTap = (time, g.start)
                return
            }
            if view != nil { return change(to: nil, &output) }
            guard let screen = outputs.first(where: { $0.contains(g.start) }) else { return }
            let unzoomed = ZoomView(output: screen, scale: 1, origin: Position(x: screen.x, y: screen.y))
            change(to: unzoomed.rescaled(to: settings.scale, keeping: g.start, at: g.start), &output)
        }
    }

    private mutating func change(to new: ZoomView?, _ output: inout some ZoomOutput) {
        guard new != view else { return }
        view = new
        output.zoomChanged(new)
    }

    private static func centroid(_ points: [Point]) -> Point {
        guard !points.isEmpty else { return Point(x: 0, y: 0) }
        let n = Double(points.count)
        return Point(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n)
    }

    /// 2^x, without Foundation: the whole part as an exponent, the fraction by its series
    /// in x·ln 2 (ten terms: far finer than a drag's pixel).
    private static func pow2(_ x: Double) -> Double {
        let whole = x.rounded(.down)
        let y = (x - whole) * 0.6931471805599453
        var term = 1.0, sum = 1.0
        for k in 1...10 {
            term *= y / Double(k)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(max(-64, min(64, whole))), significand: 1) * sum
    }
}

/// Where `TouchZoom` puts what comes out of it.
public protocol ZoomOutput {
    /// An event to go on, in order.
    mutating func pass(_ event: InputEvent)
    /// The view changed (nil: nothing magnified any more).
    mutating func zoomChanged(_ view: ZoomView?)
}

/// Keeps everything it is given: the tests' output.
public struct RecordingZoomOutput: ZoomOutput {
    public var events: [InputEvent] = []
    public var views: [ZoomView?] = []
    public init() {}
    public mutating func pass(_ event: InputEvent) { events.append(event) }
    public mutating func zoomChanged(_ view: ZoomView?) { views.append(view) }
}

extension InputEvent {
    var isCancel: Bool { if case .touchCancel = self { true } else { false } }
}
