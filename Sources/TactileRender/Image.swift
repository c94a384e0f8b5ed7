import CPixman
import Responder

/// Pixels Tactile owns: a surface's copy of its client's last buffer, or an output's frame.
///
/// Client buffers are copied at commit, under libwayland's SIGBUS guard, and released at once:
/// composition never reads memory a client can still truncate or overwrite.
public final class Image {
    let pixman: OpaquePointer
    public let size: Size
    /// No alpha: an XRGB image, which covers what lies below it.
    public let isOpaque: Bool
    /// Counts the copies into it, so a copy made from it (a turned one) knows when it is stale.
    public private(set) var generation = 0

    /// The largest side accepted; beyond it a buffer is refused rather than allocated.
    public static let maximumSide = 16384

    /// A cleared image; nil when the size is empty, too large, or memory runs out.
    public init?(size: Size, opaque: Bool) {
        guard size.width > 0, size.height > 0, size.width <= Self.maximumSide, size.height <= Self.maximumSide,
              let image = pixman_image_create_bits(opaque ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8, Int32(size.width), Int32(size.height), nil, 0)
        else { return nil }
        pixman = image
        self.size = size
        isOpaque = opaque
    }

    deinit { pixman_image_unref(pixman) }

    public var bounds: Rect { Rect(size: size) }
    public var stride: Int { Int(pixman_image_get_stride(pixman)) }
    public var pixels: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pixman_image_get_data(pixman)!) }

    /// Copies `rects` (clipped to this image) from client pixels of the same size, converting
    /// from `format`. The caller keeps the memory readable (wl_shm_buffer_begin_access).
    public func copy(from source: UnsafeMutableRawPointer, format: PixelFormat, stride: Int, rects: [Rect]) {
        guard let client = pixman_image_create_bits_no_clear(format.pixman, Int32(size.width), Int32(size.height),
                                                              source.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(client) }
        generation += 1
        for rect in rects {
            let r = rect.intersection(bounds)
            guard !r.isEmpty else { continue }
            pixman_image_composite32(PIXMAN_OP_SRC, client, nil, pixman, Int32(r.x), Int32(r.y), 0, 0, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
    }

    /// A new image of `size` whose pixel (x, y) is this image's pixel `map`(x, y), for a
    /// `map` that turns whole pixels (a quarter turn or flip and a shift) and stays inside
    /// this image: the picture turned once, to be copied plainly at every repaint after.
    public func turned(_ map: Affine, size: Size) -> Image? {
        guard let result = Image(size: size, opaque: isOpaque) else { return nil }
        var transform = map.pixman
        pixman_image_set_transform(pixman, &transform)
        pixman_image_set_filter(pixman, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, pixman, nil, result.pixman, 0, 0, 0, 0, 0, 0, Int32(size.width), Int32(size.height))
        pixman_image_set_transform(pixman, nil)
        return result
    }

    /// The colour at a pixel, as 0xAARRGGBB (alpha 0xff for an opaque image); for tests and
    /// diagnostics.
    public func pixel(at p: Position) -> UInt32 {
        guard p.x >= 0, p.y >= 0, p.x < size.width, p.y < size.height else { return 0 }
        let value = pixels.load(fromByteOffset: p.y * stride + p.x * 4, as: UInt32.self)
        return isOpaque ? value | 0xff00_0000 : value
    }
}
