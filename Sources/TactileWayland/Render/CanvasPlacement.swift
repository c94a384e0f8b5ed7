import Responder
import TactileRender

/// Where surfaces land on a canvas: global logical coordinates to its pixels. An output's
/// canvas (`Output.placement`) is the panel's own frame, in the axes it scans out: global →
/// output-local → scaled to pixels (upright, as a person in front of the screen sees them) →
/// turned by the output's transform. A client that pre-rotates its buffer as its output is
/// turned maps 1:1 and is copied, not sampled. A window's capture has a placement of its own:
/// the window's rectangle at scale 1, upright.
struct CanvasPlacement {
    /// The global rectangle the canvas shows, in logical pixels.
    var rect: Rect
    var scale: Double
    var transform: OutputTransform
    /// The canvas's size, in its own (turned) axes.
    var pixelSize: Size
    /// Turns a surface's image once per change of its pixels (an output's cache of turned
    /// images, where its renderer pays for sampling through a turn); nil: sampled each time.
    var turn: ((Image, Affine, Rect) -> Image?)?

    /// The canvas's size as a person sees it.
    private var uprightSize: Size { transform.applied(to: pixelSize) }

    /// Canvas pixels to upright canvas pixels.
    private var unturn: Affine {
        Affine(transform.inverse, upright: (Double(pixelSize.width), Double(pixelSize.height)))
    }

    /// A global position in upright canvas pixels, rounded down (unclipped: it may lie off
    /// the canvas; a far one is held a billion pixels out).
    private func uprightPosition(of global: Position) -> Position {
        Position(x: Self.pixel(Double(global.x - rect.x) * scale, .down), y: Self.pixel(Double(global.y - rect.y) * scale, .down))
    }

    private static func pixel(_ value: Double, _ rounding: FloatingPointRoundingRule) -> Int {
        Int(min(max(value, -1e9), 1e9).rounded(rounding))
    }

    /// Canvas pixels to global logical coordinates.
    private var canvasToGlobal: Affine {
        unturn.then(.scale(1 / scale, 1 / scale)).then(.translation(Double(rect.x), Double(rect.y)))
    }

    /// The canvas pixel a global point falls in, unclipped (a point off the canvas gives a
    /// position off it).
    func canvasPosition(of global: Point) -> Position {
        let upright = Rect(x: Self.pixel((global.x - Double(rect.x)) * scale, .down), y: Self.pixel((global.y - Double(rect.y)) * scale, .down),
                           width: 1, height: 1)
        let turned = transform.bufferRect(upright, upright: uprightSize)
        return Position(x: turned.x, y: turned.y)
    }

    /// A global rectangle in canvas pixels, every pixel it touches (a fractional scale puts
    /// its edges inside pixels), clipped to the canvas; nil when off this output.
    func canvasRect(of global: Rect) -> Rect? {
        let (x, y) = (Double(global.x - rect.x), Double(global.y - rect.y))
        let x0 = Self.pixel(x * scale, .down), y0 = Self.pixel(y * scale, .down)
        let x1 = Self.pixel((x + Double(global.width)) * scale, .up), y1 = Self.pixel((y + Double(global.height)) * scale, .up)
        return canvasRect(upright: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// An upright pixel rectangle, clipped and turned onto the canvas.
    private func canvasRect(upright rect: Rect) -> Rect? {
        let clipped = rect.intersection(Rect(size: uprightSize))
        return clipped.isEmpty ? nil : transform.bufferRect(clipped, upright: uprightSize)
    }

    /// How `content`, whose surface lies at `frame` (global), is drawn on this canvas; nil
    /// when it is not on it or its mapping cannot be represented (absurd scales).
    func drawItem(_ content: SurfaceContent, frame: Rect, opaque: Region, opacity: Double = 1) -> DrawItem? {
        guard let bounds = canvasRect(of: frame) else { return nil }
        var image = content.image
        var sampling: DrawItem.Sampling
        if content.isPlain, scale == 1, transform == .normal {
            sampling = .translated(uprightPosition(of: frame.origin))
        } else {
            // Canvas pixel → global → surface-local → buffer pixel.
            let map = canvasToGlobal.then(.translation(Double(-frame.x), Double(-frame.y))).then(content.surfaceToBuffer)
            guard [map.a, map.b, map.c, map.d, map.e, map.f].allSatisfy({ $0.isFinite && abs($0) < 32767 }) else { return nil }
            sampling = DrawItem.Sampling(map)
            // On a turned output a window is turned once per change of its pixels, then
            // copied: repaints (the cursor, other windows, overlays) cost what they cost
            // unturned.
            if case .transformed = sampling, transform != .normal, let turn, map.isPixelExact, map.covers(bounds, within: image.size),
               let turned = turn(image, map, bounds) {
                image = turned
                sampling = .translated(bounds.origin)
            }
        }
        let covered = image.isOpaque ? RectList(bounds) : RectList(opaque.intersection(Rect(size: frame.size)).rects.compactMap {
            canvasRect(of: $0.offset(by: Position(x: frame.x, y: frame.y)))
        })
        return DrawItem(image: image, bounds: bounds, opaque: covered, sampling: sampling, opacity: opacity)
    }

    /// An overlay picture (a touch mark, an outline) with its top left at a global position,
    /// one image pixel per logical pixel: drawn upright, at the canvas's scale.
    func overlayItem(_ image: Image?, at global: Position) -> DrawItem? {
        guard let image else { return nil }
        let origin = uprightPosition(of: global)
        let size = Size(width: Self.pixel(Double(image.size.width) * scale, .up), height: Self.pixel(Double(image.size.height) * scale, .up))
        guard let bounds = canvasRect(upright: Rect(origin: origin, size: size)) else { return nil }
        // Canvas pixel → upright pixel → image pixel.
        let map = unturn.then(.translation(Double(-origin.x), Double(-origin.y))).then(.scale(1 / scale, 1 / scale))
        return DrawItem(image: image, bounds: bounds, sampling: DrawItem.Sampling(map))
    }
}

extension Output {
    /// Where surfaces land on this output's canvas: its rectangle, or the region zoom by
    /// touch magnifies to fill it.
    var placement: CanvasPlacement {
        let screen = screen
        return CanvasPlacement(rect: magnification?.region ?? placed.rect, scale: placed.description.validScale * (magnification?.scale ?? 1),
                               transform: placed.description.transform, pixelSize: placed.description.pixelSize,
                               turn: screen.turnsImages ? { screen.turned($0, map: $1, bounds: $2) } : nil)
    }

    func canvasRect(of global: Rect) -> Rect? { placement.canvasRect(of: global) }

    func drawItem(_ content: SurfaceContent, frame: Rect, opaque: Region, opacity: Double = 1) -> DrawItem? {
        placement.drawItem(content, frame: frame, opaque: opaque, opacity: opacity)
    }

    func overlayItem(_ image: Image?, at global: Position) -> DrawItem? { placement.overlayItem(image, at: global) }
}
