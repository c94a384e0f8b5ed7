import Responder

/// An output as its backend knows it; the server makes it a wl_output and a place in the
/// global layout.
public struct OutputDescription: Sendable, Hashable {
    /// The wl_output name (`HEADLESS-1`, `Virtual-1`), which device settings map touchscreens to.
    public var name: String
    public var description: String
    public var make: String
    public var model: String
    /// The screen's serial number (its EDID's); empty when unknown.
    public var serial = ""
    /// The current mode, in pixels.
    public var pixelSize: Size
    /// Refresh rate in mHz.
    public var refresh: Int32
    /// Output pixels per logical pixel: 1, 2, or fractional (1.25, 1.5), in 120ths as
    /// wp_fractional_scale_v1 speaks them. wl_output tells clients without fractional
    /// scaling the next whole number up, and their buffers are scaled down to fit.
    public var scale: Double
    /// How the panel is mounted: the frame is turned by it, and the layout sees the panel
    /// upright (a portrait kiosk's 1920x1080 panel turned 90 is 1080 wide).
    public var transform: OutputTransform
    /// Every mode the screen offers (a DRM connector's), for output managers to list; empty
    /// when only the current one exists (headless outputs, nested windows).
    public var modes: [OutputMode] = []
    /// In millimetres; zero when unknown.
    public var physicalSize: Size
    /// Where its top-left corner lies in the global layout; nil: right of the others.
    public var position: Position?

    public init(name: String, description: String, make: String, model: String, pixelSize: Size,
                refresh: Int32 = 60_000, scale: Double = 1, transform: OutputTransform = .normal, physicalSize: Size = .zero,
                position: Position? = nil) {
        self.name = name
        self.description = description
        self.make = make
        self.model = model
        self.pixelSize = pixelSize
        self.refresh = refresh
        self.scale = scale
        self.transform = transform
        self.physicalSize = physicalSize
        self.position = position
    }

    /// The mode it is in, as output managers list it.
    var currentMode: OutputMode { OutputMode(size: pixelSize, refresh: refresh) }

    /// The modes it may be switched to, as output managers list them: the screen's, or only
    /// the current one (the preferred, being the only) where the backend lists none.
    var offeredModes: [OutputMode] { modes.isEmpty ? [OutputMode(size: pixelSize, refresh: refresh, preferred: true)] : modes }

    /// The size windows see, in logical pixels: the mode turned upright, then scaled.
    public var logicalSize: Size {
        let upright = transform.applied(to: pixelSize)
        return Size(width: Int((Double(upright.width) / validScale).rounded()), height: Int((Double(upright.height) / validScale).rounded()))
    }

    /// The scale, held to what Tactile composes (1 to 4) whatever a backend said.
    var validScale: Double { scale.isFinite ? min(max(scale, OutputSettings.scales.lowerBound), OutputSettings.scales.upperBound) : 1 }

    /// The whole-number scale wl_output announces: the fractional one rounded up.
    var integerScale: Int32 { Int32(validScale.rounded(.up)) }

    /// The scale in 120ths, as wp_fractional_scale_v1.preferred_scale sends it.
    var scale120: UInt32 { UInt32((validScale * 120).rounded()) }

    /// For the log and wlr-randr: "2", "1.5".
    var scaleText: String {
        validScale == validScale.rounded() ? "\(Int(validScale))" : "\(validScale)"
    }
}

/// A mode a screen offers: its size in pixels and refresh rate in mHz.
public struct OutputMode: Sendable, Hashable {
    public var size: Size
    public var refresh: Int32
    /// The screen's own preference (its EDID's).
    public var preferred: Bool

    public init(size: Size, refresh: Int32, preferred: Bool = false) {
        self.size = size
        self.refresh = refresh
        self.preferred = preferred
    }
}

/// Names an output for as long as it exists; never reused within one server.
public struct OutputID: Hashable, Sendable, CustomStringConvertible {
    let raw: Int
    public var description: String { "output \(raw)" }
}

/// An output and the rectangle of the global layout it shows.
public struct PlacedOutput: Sendable, Hashable {
    public let id: OutputID
    public let description: OutputDescription
    /// In global (layout) coordinates, logical pixels.
    public let rect: Rect
    /// What layer surfaces' exclusive zones leave of `rect` for windows (a panel's strip, an
    /// on-screen keyboard's height); `rect` when there are none.
    public var usableArea: Rect

    public init(id: OutputID, description: OutputDescription, rect: Rect, usableArea: Rect? = nil) {
        self.id = id
        self.description = description
        self.rect = rect
        self.usableArea = usableArea ?? rect
    }

    /// Mode, place, scale and transform, for the log.
    var summary: String {
        let d = description
        return "\(d.pixelSize.width)x\(d.pixelSize.height) at \(rect.x),\(rect.y), scale \(d.scaleText)" + (d.transform == .normal ? "" : ", transform \(d.transform)")
    }

    /// The layout point at a place on the panel, given as fractions (0...1) of its width
    /// and height along its own axes: where an absolute device's reading (a touchscreen
    /// glued to the panel; a nested window's pointer) lands, through the output's transform.
    public func layoutPoint(panelFraction x: Double, _ y: Double) -> Point {
        let panel = description.transform.applied(to: rect.size)
        let (w, h) = (Double(panel.width), Double(panel.height))
        let upright = description.transform.uprightPoint(Point(x: x * w, y: y * h), buffer: (w, h))
        return Point(x: Double(rect.x) + upright.x, y: Double(rect.y) + upright.y)
    }

    /// Where a layout point lies on the panel, as fractions of its width and height along
    /// its own axes: `layoutPoint(panelFraction:)` undone (touch calibration's coordinates).
    public func panelFraction(of point: Point) -> Point {
        let panel = description.transform.applied(to: rect.size)
        let local = Point(x: point.x - Double(rect.x), y: point.y - Double(rect.y))
        let onPanel = description.transform.bufferPoint(local, upright: (Double(rect.width), Double(rect.height)))
        return Point(x: onPanel.x / Double(panel.width), y: onPanel.y / Double(panel.height))
    }

    /// The layout point at a place in `region` of the output (its logical pixels, as the
    /// screen shows them), given as fractions of the region: where a desk tablet kept to part
    /// of the screen lands. Its axes are the user's, not the panel's: no transform applies.
    public func layoutPoint(fraction x: Double, _ y: Double, of region: Rect) -> Point {
        Point(x: Double(rect.x) + Double(region.x) + x * Double(region.width), y: Double(rect.y) + Double(region.y) + y * Double(region.height))
    }
}
