import Responder
import TactileRender

/// Damage a client reported since its last commit. A client may send any number of
/// rectangles; past a few dozen they are worth less than the whole surface, so they collapse.
struct SurfaceDamage {
    private(set) var surface = RectList()
    private(set) var buffer = RectList()
    /// Too many rectangles: everything is damaged.
    private(set) var isEverything = false

    static let limit = 32

    mutating func add(_ rect: Rect, inBuffer: Bool) {
        guard !isEverything, !rect.isEmpty else { return }
        if inBuffer { buffer.append(rect) } else { surface.append(rect) }
        if surface.count + buffer.count > Self.limit { everything() }
    }

    mutating func everything() {
        (surface, buffer, isEverything) = ([], [], true)
    }

    func merged(with later: SurfaceDamage) -> SurfaceDamage {
        var result = self
        if later.isEverything { result.everything() }
        for rect in later.surface { result.add(rect, inBuffer: false) }
        for rect in later.buffer { result.add(rect, inBuffer: true) }
        return result
    }

    var isEmpty: Bool { !isEverything && surface.isEmpty && buffer.isEmpty }
}

extension SurfaceState {
    /// The buffer's size once transformed and scaled, in surface units: what a viewport's
    /// source rectangle must lie within.
    func transformedSize(buffer: BufferAttachment) -> (width: Double, height: Double) {
        let scale = Double(max(1, bufferScale))
        let turned = bufferTransform.applied(to: Size(width: buffer.width, height: buffer.height))
        return (Double(turned.width) / scale, Double(turned.height) / scale)
    }

    /// The surface's size: the viewport's destination, else its source's size, else the
    /// buffer's, transformed and scaled.
    func surfaceSize(buffer: BufferAttachment) -> Size {
        let viewport = self[Viewport.self]
        if let destination = viewport.destination { return destination }
        if let source = viewport.source { return Size(width: Int(source.width), height: Int(source.height)) }
        let (w, h) = transformedSize(buffer: buffer)
        return Size(width: Int(w), height: Int(h))
    }
}

/// What a mapped surface shows: its last buffer's pixels and how buffer pixels map
/// onto the surface (buffer scale and transform, viewport).
struct SurfaceContent {
    let image: Image
    let state: SurfaceState
    /// In surface-local logical pixels.
    let size: Size

    /// The map from surface-local coordinates to the image's pixels, following
    /// wl_surface.set_buffer_transform: the inverse of the transform the client applied.
    var surfaceToBuffer: Affine {
        let buffer = BufferAttachment(width: image.size.width, height: image.size.height)
        let (tw, th) = state.transformedSize(buffer: buffer)
        var map = Affine.identity
        let viewport = state[Viewport.self]
        if let source = viewport.source {
            let (sx, sy) = (size.width > 0 ? source.width / Double(size.width) : 1, size.height > 0 ? source.height / Double(size.height) : 1)
            map = Affine.scale(sx, sy).then(.translation(source.x, source.y))
        } else if viewport.destination != nil {
            map = Affine.scale(tw / Double(max(1, size.width)), th / Double(max(1, size.height)))
        }
        return map.then(Affine(state.bufferTransform, upright: (tw, th))).then(.scale(Double(max(1, state.bufferScale)), Double(max(1, state.bufferScale))))
    }

    /// `damage` in the image's pixels (nil: all of it): buffer damage as it is, surface
    /// damage through the map to the buffer, every pixel it touches.
    func bufferRects(_ damage: SurfaceDamage) -> RectList? {
        guard !damage.isEverything else { return nil }
        let bounds = Rect(size: image.size)
        var rects = RectList()
        for rect in damage.buffer {
            let inside = rect.intersection(bounds)
            if !inside.isEmpty { rects.append(inside) }
        }
        guard !damage.surface.isEmpty else { return rects }
        let map = surfaceToBuffer
        let clamp = { (v: Double, limit: Int) in Int(min(max(v, 0), Double(limit))) }
        for rect in damage.surface {
            let a = map.apply(Double(rect.x), Double(rect.y)), b = map.apply(Double(rect.maxX), Double(rect.maxY))
            let x0 = clamp(min(a.x, b.x).rounded(.down), bounds.width), x1 = clamp(max(a.x, b.x).rounded(.up), bounds.width)
            let y0 = clamp(min(a.y, b.y).rounded(.down), bounds.height), y1 = clamp(max(a.y, b.y).rounded(.up), bounds.height)
            let inBuffer = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            if !inBuffer.isEmpty { rects.append(inBuffer) }
        }
        return rects
    }

    /// Whether surface pixels are buffer pixels one to one.
    var isPlain: Bool {
        state.bufferTransform == .normal && state.bufferScale == 1 && !state[Viewport.self].isSet
    }

    /// The surface's damage in surface-local coordinates, a rectangle at a time; false
    /// (nothing visited) when all of it is damaged. Visited rather than listed: composition
    /// takes the damage of every commit.
    static func forEachSurfaceRect(_ damage: SurfaceDamage, state: SurfaceState, _ body: (Rect) -> Void) -> Bool {
        guard !damage.isEverything else { return false }
        guard damage.buffer.isEmpty else {
            guard state.bufferTransform == .normal, !state[Viewport.self].isSet else { return false }
            let scale = Int(max(1, state.bufferScale))
            for rect in damage.surface { body(rect) }
            // Outward: a buffer pixel partly inside a surface pixel damages all of it.
            for rect in damage.buffer {
                let (x, y) = (rect.x.floorDivided(by: scale), rect.y.floorDivided(by: scale))
                body(Rect(x: x, y: y, width: (rect.maxX + scale - 1).floorDivided(by: scale) - x, height: (rect.maxY + scale - 1).floorDivided(by: scale) - y))
            }
            return true
        }
        for rect in damage.surface { body(rect) }
        return true
    }
}

extension Int {
    func floorDivided(by divisor: Int) -> Int {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
