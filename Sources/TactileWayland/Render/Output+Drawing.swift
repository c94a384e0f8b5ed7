import Responder
import TactileRender

/// Where surfaces land on an output's canvas: global logical coordinates to output pixels.
extension Output {
    private var scale: Int { Int(max(1, placed.description.scale)) }

    /// A global position in canvas pixels (unclipped: it may lie off the canvas).
    func canvasPosition(of global: Position) -> Position {
        Position(x: (global.x - placed.rect.x).multipliedSaturating(by: scale), y: (global.y - placed.rect.y).multipliedSaturating(by: scale))
    }

    /// A global rectangle in canvas pixels, clipped to the canvas; nil when off this output.
    func canvasRect(of global: Rect) -> Rect? {
        let scaled = Rect(origin: canvasPosition(of: global.origin),
                          size: Size(width: global.width.multipliedSaturating(by: scale), height: global.height.multipliedSaturating(by: scale)))
        let clipped = scaled.intersection(Rect(size: placed.description.pixelSize))
        return clipped.isEmpty ? nil : clipped
    }

    /// How `content`, whose surface lies at `frame` (global), is drawn on this output; nil
    /// when it is not on it or its mapping cannot be represented (absurd scales).
    func drawItem(_ content: SurfaceContent, frame: Rect, opaque: Region) -> DrawItem? {
        guard let bounds = canvasRect(of: frame) else { return nil }
        let origin = canvasPosition(of: frame.origin)
        let sampling: DrawItem.Sampling
        if content.isPlain, scale == 1 {
            sampling = .translated(origin)
        } else {
            // Canvas pixel → global → surface-local → buffer pixel.
            let toSurface = Affine.scale(1 / Double(scale), 1 / Double(scale))
                .then(.translation(Double(placed.rect.x - frame.x), Double(placed.rect.y - frame.y)))
            let map = toSurface.then(content.surfaceToBuffer)
            guard [map.a, map.b, map.c, map.d, map.e, map.f].allSatisfy({ $0.isFinite && abs($0) < 32767 }) else { return nil }
            sampling = .transformed(map)
        }
        let covered = content.image.isOpaque ? [bounds] : opaque.intersection(Rect(size: frame.size)).rects.compactMap {
            canvasRect(of: $0.offset(by: Position(x: frame.x, y: frame.y)))
        }
        return DrawItem(image: content.image, bounds: bounds, opaque: covered, sampling: sampling)
    }
}
