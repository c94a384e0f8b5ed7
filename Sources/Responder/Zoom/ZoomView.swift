/// What the zoom shows: a region of one output, magnified to fill it. The region's top left
/// is in whole layout pixels, so that what is drawn and where input lands agree to the pixel.
public struct ZoomView: Hashable, Sendable {
    /// The output being magnified, in layout pixels.
    public var output: Rect
    /// How many times bigger the region is shown: 1 (nothing) or more.
    public var scale: Double
    /// The region's top left, in layout pixels, on `output`.
    public var origin: Position

    public init(output: Rect, scale: Double, origin: Position) {
        self.output = output
        self.scale = scale
        self.origin = origin
    }

    /// The region shown, in layout pixels (its size rounded up).
    public var region: Rect {
        Rect(x: origin.x, y: origin.y, width: Int((Double(output.width) / scale).rounded(.up)), height: Int((Double(output.height) / scale).rounded(.up)))
    }

    /// Where a point of the screen (as the panel or the pointer reports it) is in the layout
    /// the apps are in: what is under it on the magnified screen. Points off the output are
    /// not moved.
    public func map(_ screen: Point) -> Point {
        guard output.contains(screen) else { return screen }
        return Point(x: Double(origin.x) + (screen.x - Double(output.x)) / scale, y: Double(origin.y) + (screen.y - Double(output.y)) / scale)
    }

    /// The event with its points (touch, pointer, pen) where they are in the layout.
    public func map(_ event: InputEvent) -> InputEvent {
        switch event {
        case .touchDown(let id, let p, let t): .touchDown(id: id, global: map(p), time: t)
        case .touchMotion(let id, let p, let t): .touchMotion(id: id, global: map(p), time: t)
        case .pointerMotion(let p, let t): .pointerMotion(global: map(p), time: t)
        case .penProximity(let pen, let entering, let p, let axes, let t): .penProximity(pen: pen, entering: entering, global: map(p), axes: axes, time: t)
        case .penMotion(let pen, let p, let axes, let t): .penMotion(pen: pen, global: map(p), axes: axes, time: t)
        default: event
        }
    }

    /// The view at `scale` with the screen point `anchor` still over the same layout point.
    func rescaled(to scale: Double, keeping anchor: Point, at layout: Point) -> ZoomView {
        var view = self
        view.scale = scale
        view.origin = Position(x: Self.whole(layout.x - (anchor.x - Double(output.x)) / scale),
                               y: Self.whole(layout.y - (anchor.y - Double(output.y)) / scale))
        return view.clamped()
    }

    /// The nearest whole pixel, held within a billion of the origin: `Int` of a value past
    /// its range would trap, and no screen is that far.
    static func whole(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, -1e9), 1e9).rounded())
    }

    /// The view with its region inside the output.
    func clamped() -> ZoomView {
        var view = self
        let shown = region
        view.origin.x = min(max(origin.x, output.x), output.x + output.width - shown.width)
        view.origin.y = min(max(origin.y, output.y), output.y + output.height - shown.height)
        return view
    }

    /// The view moved so that `rect` (layout pixels) is in it: centred on it, when it was not.
    func showing(_ rect: Rect) -> ZoomView {
        let shown = region
        guard shown.intersection(rect) != rect else { return self }
        var view = self
        view.origin = Position(x: rect.x + rect.width / 2 - shown.width / 2, y: rect.y + rect.height / 2 - shown.height / 2)
        return view.clamped()
    }
}

/// How the zoom magnifies (`TouchZoom`).
public struct ZoomSettings: Hashable, Sendable {
    /// The scale a three-finger double tap zooms to.
    public var scale: Double
    /// The most a three-finger double tap and drag may zoom to.
    public var maximum: Double

    public static let defaultScale = 2.0
    public static let defaultMaximum = 5.0
    /// What the configuration accepts for either.
    public static let scales = 1.2...10.0

    public init(scale: Double = Self.defaultScale, maximum: Double = Self.defaultMaximum) {
        self.scale = scale
        self.maximum = max(scale, maximum)
    }
}
