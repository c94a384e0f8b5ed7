import CWaylandServer
import TactileRender
import WaylandProtocols

/// wp_single_pixel_buffer_manager_v1: a wl_buffer of one pixel of a given colour, which a
/// client stretches with a viewport (a solid background, a letterbox, a dimming layer)
/// without a shm pool.
final class SinglePixelBuffers: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wp_single_pixel_buffer_manager_v1_interface(), version: Self.version,
                        context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(wp_single_pixel_buffer_manager_v1_interface(
        destroy: destroyResource,
        create_u32_rgba_buffer: { client, _, id, r, g, b, a in
            guard let client else { return }
            let buffer = SinglePixelBuffer(red: r, green: g, blue: b, alpha: a)
            buffer.bind(client: client, interface: tactile_wl_buffer_interface(), version: 1, id: id, implementation: SinglePixelBuffer.requests)
        }
    ))
}

/// One single-pixel wl_buffer: its colour.
final class SinglePixelBuffer: ResourceObject {
    /// Premultiplied 0xAARRGGBB.
    private let pixel: UInt32

    /// Each channel spans 0...UInt32.max and is premultiplied by alpha, as the protocol says;
    /// a colour with more of a channel than alpha is clamped to it.
    init(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        let eight = { (value: UInt32) in UInt32((UInt64(value) * 255 + UInt64(UInt32.max) / 2) / UInt64(UInt32.max)) }
        let a = eight(alpha)
        pixel = a << 24 | min(eight(red), a) << 16 | min(eight(green), a) << 8 | min(eight(blue), a)
    }

    /// A 1x1 image of the colour, made at each commit (four bytes, which no client can
    /// change after).
    var image: Image? {
        let image = Image(size: .init(width: 1, height: 1), opaque: pixel >> 24 == 0xff)
        image?.pixels.storeBytes(of: pixel, as: UInt32.self)
        return image
    }

    /// The single-pixel buffer `buffer` is, if it is one.
    static func of(_ buffer: OpaquePointer) -> SinglePixelBuffer? {
        from(buffer, madeFor: tactile_wl_buffer_interface(), with: requests)
    }

    static let requests = RequestTable(wl_buffer_interface(destroy: destroyResource))
}
