import CPixman
import Responder

/// The CPU's renderer: every frame composed with pixman into memory of Tactile's own.
public final class PixmanRenderer: Renderer {
    public init() {}
    public var name: String { "pixman" }
    public var turnsForFree: Bool { false }
    public func makeCanvas(size: Size) -> (any Canvas)? { PixmanCanvas(size: size) }
}

/// A frame in memory, composed by pixman.
public final class PixmanCanvas: Canvas {
    public let image: Image
    public var background: UInt32 = 0xff20_2020
    /// Each item's clip while composing, kept between frames so a steady frame allocates
    /// nothing.
    private var clips: [pixman_region32_t] = []

    public init?(size: Size) {
        guard let image = Image(size: size, opaque: true) else { return nil }
        self.image = image
    }

    deinit {
        for index in clips.indices { pixman_region32_fini(&clips[index]) }
    }

    public var size: Size { image.size }

    public func render(_ items: [DrawItem], damage: [Rect]) {
        var uncovered = pixman_region32_t()
        initRegion(&uncovered, damage)
        defer { pixman_region32_fini(&uncovered) }
        guard pixman_region32_not_empty(&uncovered) != 0 else { return }
        while clips.count < items.count {
            var region = pixman_region32_t()
            pixman_region32_init(&region)
            clips.append(region)
        }
        for index in items.indices.reversed() {
            let item = items[index]
            pixman_region32_intersect_rect(&clips[index], &uncovered, Int32(item.bounds.x), Int32(item.bounds.y),
                                           UInt32(max(0, item.bounds.width)), UInt32(max(0, item.bounds.height)))
            for rect in item.opaque { subtract(rect, from: &uncovered) }
        }
        fill(&uncovered)
        for index in items.indices where pixman_region32_not_empty(&clips[index]) != 0 {
            // A client's pixels are read under their own guard, one item at a time.
            _ = items[index].image.reading { draw(items[index], clip: &clips[index]) }
        }
    }

    public func write(_ rect: Rect, into target: UnsafeMutableRawPointer, format: PixelFormat, size targetSize: Size, stride: Int,
                      at origin: Position, overlay: DrawItem?) {
        let r = rect.intersection(image.bounds)
        guard !r.isEmpty, let destination = pixman_image_create_bits_no_clear(
            format.pixman, Int32(targetSize.width), Int32(targetSize.height), target.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(destination) }
        let (dx, dy) = (origin.x - rect.x, origin.y - rect.y)
        pixman_image_composite32(PIXMAN_OP_SRC, image.pixman, nil, destination, Int32(r.x), Int32(r.y), 0, 0,
                                 Int32(r.x + dx), Int32(r.y + dy), Int32(r.width), Int32(r.height))
        if let overlay { Self.draw(overlay, over: r, shiftedBy: Position(x: dx, y: dy), on: destination) }
    }

    /// Draws `overlay` (the cursor) where it meets `r` (canvas pixels) onto `destination`, a
    /// copy of the canvas shifted by `shift`: every renderer's frames get their cursor here,
    /// on the CPU, after they are read.
    static func draw(_ overlay: DrawItem, over r: Rect, shiftedBy shift: Position, on destination: OpaquePointer) {
        var overlay = overlay
        let (dx, dy) = (shift.x, shift.y)
        guard !overlay.bounds.intersection(r).isEmpty else { return }
        // The overlay in the target's coordinates, clipped to what was written.
        overlay.bounds = overlay.bounds.intersection(r).offset(by: Position(x: dx, y: dy))
        switch overlay.sampling {
        case .translated(let p): overlay.sampling = .translated(Position(x: p.x + dx, y: p.y + dy))
        case .transformed(let map): overlay.sampling = .transformed(Affine.translation(Double(-dx), Double(-dy)).then(map))
        }
        var clip = pixman_region32_t()
        pixman_region32_init_rect(&clip, Int32(overlay.bounds.x), Int32(overlay.bounds.y), UInt32(overlay.bounds.width), UInt32(overlay.bounds.height))
        _ = overlay.image.reading { drawItem(overlay, clip: &clip, on: destination) }
        pixman_region32_fini(&clip)
    }

    /// Draws `item` alone into memory of `format` and `size` (a cursor plane's buffer), the
    /// top-left corner of its bounds at the buffer's origin, everything else transparent.
    public static func drawAlone(_ item: DrawItem, into target: UnsafeMutableRawPointer, format: PixelFormat, size: Size, stride: Int) {
        guard let destination = pixman_image_create_bits(format.pixman, Int32(size.width), Int32(size.height),
                                                         target.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(destination) }
        var clear = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)
        var all = pixman_box32_t(x1: 0, y1: 0, x2: Int32(size.width), y2: Int32(size.height))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, destination, &clear, 1, &all)
        var moved = item
        let (dx, dy) = (-item.bounds.x, -item.bounds.y)
        moved.bounds = item.bounds.offset(by: Position(x: dx, y: dy)).intersection(Rect(size: size))
        switch item.sampling {
        case .translated(let p): moved.sampling = .translated(Position(x: p.x + dx, y: p.y + dy))
        case .transformed(let map): moved.sampling = .transformed(Affine.translation(Double(-dx), Double(-dy)).then(map))
        }
        var clip = pixman_region32_t()
        pixman_region32_init_rect(&clip, Int32(moved.bounds.x), Int32(moved.bounds.y), UInt32(max(0, moved.bounds.width)), UInt32(max(0, moved.bounds.height)))
        _ = moved.image.reading { drawItem(moved, clip: &clip, on: destination) }
        pixman_region32_fini(&clip)
    }

    private func draw(_ item: DrawItem, clip: inout pixman_region32_t) {
        Self.drawItem(item, clip: &clip, on: image.pixman)
        pixman_image_set_clip_region32(image.pixman, nil)
    }

    private static func drawItem(_ item: DrawItem, clip: inout pixman_region32_t, on target: OpaquePointer) {
        pixman_image_set_clip_region32(target, &clip)
        let b = item.bounds
        // An opacity below 1 is a solid mask of that alpha over the whole item.
        var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((item.opacity * 65535).rounded()))
        let mask = item.opacity < 1 ? pixman_image_create_solid_fill(&alpha) : nil
        defer { if let mask { pixman_image_unref(mask) } }
        switch item.sampling {
        case .translated(let origin):
            pixman_image_composite32(item.copying == .everything ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, item.image.pixman, mask, target,
                                     Int32(b.x - origin.x), Int32(b.y - origin.y), 0, 0, Int32(b.x), Int32(b.y), Int32(b.width), Int32(b.height))
        case .transformed(let map):
            var transform = map.pixman
            pixman_image_set_transform(item.image.pixman, &transform)
            pixman_image_set_filter(item.image.pixman, map.isPixelExact ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR, nil, 0)
            // The item's bounds are its surface, whose edges map onto the image's: a bilinear
            // sample there takes the edge pixel, not the nothing beyond it (which would fade
            // a stretched 1x1 single-pixel buffer across its whole surface).
            pixman_image_set_repeat(item.image.pixman, PIXMAN_REPEAT_PAD)
            // Copies along pixman's rotation fast paths where `copying` allows, blends elsewhere.
            let composite = { (op: pixman_op_t) in
                pixman_image_composite32(op, item.image.pixman, mask, target, Int32(b.x), Int32(b.y), 0, 0,
                                         Int32(b.x), Int32(b.y), Int32(b.width), Int32(b.height))
            }
            switch item.copying {
            case .everything:
                composite(PIXMAN_OP_SRC)
            case .nothing:
                composite(PIXMAN_OP_OVER)
            case .opaqueRegion:
                var opaque = pixman_region32_t(), solid = pixman_region32_t(), rest = pixman_region32_t()
                if item.opaque.count == 1 {
                    let r = item.opaque[0]
                    pixman_region32_init_rect(&opaque, Int32(r.x), Int32(r.y), UInt32(max(0, r.width)), UInt32(max(0, r.height)))
                } else {
                    var boxes = item.opaque.map { pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY)) }
                    pixman_region32_init_rects(&opaque, &boxes, Int32(boxes.count))
                }
                pixman_region32_init(&solid)
                pixman_region32_init(&rest)
                pixman_region32_intersect(&solid, &opaque, &clip)
                pixman_region32_subtract(&rest, &clip, &opaque)
                pixman_image_set_clip_region32(target, &solid)
                composite(PIXMAN_OP_SRC)
                if pixman_region32_not_empty(&rest) != 0 {
                    pixman_image_set_clip_region32(target, &rest)
                    composite(PIXMAN_OP_OVER)
                }
                pixman_region32_fini(&opaque)
                pixman_region32_fini(&solid)
                pixman_region32_fini(&rest)
            }
            pixman_image_set_transform(item.image.pixman, nil)
            pixman_image_set_repeat(item.image.pixman, PIXMAN_REPEAT_NONE)
        }
    }

    private func fill(_ region: inout pixman_region32_t) {
        guard pixman_region32_not_empty(&region) != 0 else { return }
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(&region, &count) else { return }
        var colour = pixman_color_t(red: Self.channel(background >> 16), green: Self.channel(background >> 8), blue: Self.channel(background), alpha: 0xffff)
        for box in UnsafeBufferPointer(start: boxes, count: Int(count)) {
            var rect = pixman_box32_t(x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2)
            pixman_image_fill_boxes(PIXMAN_OP_SRC, image.pixman, &colour, 1, &rect)
        }
    }

    private static func channel(_ value: UInt32) -> UInt16 { UInt16(value & 0xff) * 0x101 }

    private func subtract(_ rect: Rect, from region: inout pixman_region32_t) {
        guard !rect.isEmpty else { return }
        // A window covering all that is left (the common case: a full-size toplevel) would
        // make pixman allocate a result only to free it empty.
        let extents = pixman_region32_extents(&region).pointee
        if rect.x <= extents.x1, rect.y <= extents.y1, rect.maxX >= extents.x2, rect.maxY >= extents.y2 {
            pixman_region32_clear(&region)
            return
        }
        var cut = pixman_region32_t()
        pixman_region32_init_rect(&cut, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
        var remaining = pixman_region32_t()
        pixman_region32_init(&remaining)
        pixman_region32_subtract(&remaining, &region, &cut)
        swap(&region, &remaining)
        pixman_region32_fini(&remaining)
        pixman_region32_fini(&cut)
    }

    /// `rects` clipped to the canvas; one rectangle (the usual damage) allocates nothing.
    private func initRegion(_ region: inout pixman_region32_t, _ rects: [Rect]) {
        if rects.count == 1 {
            let r = rects[0].intersection(image.bounds)
            pixman_region32_init_rect(&region, Int32(r.x), Int32(r.y), UInt32(max(0, r.width)), UInt32(max(0, r.height)))
            return
        }
        var boxes = rects.map { $0.intersection(image.bounds) }.filter { !$0.isEmpty }
            .map { pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY)) }
        pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
    }
}
