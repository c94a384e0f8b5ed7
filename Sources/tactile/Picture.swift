import CPNG

/// A captured frame as PNG wants it: bytes B, G, R, A per pixel (ARGB8888 little endian,
/// as the buffer had them) with straight alpha, where Wayland's is premultiplied.
struct Picture {
    let width: Int
    let height: Int
    private(set) var bgra: [UInt8]

    /// From a buffer of `width × height` tightly packed ARGB8888 or XRGB8888 pixels;
    /// `opaque`: its alpha bytes mean nothing (XRGB8888, or an output's composed frame).
    init(copying memory: UnsafeRawPointer, width: Int, height: Int, opaque: Bool) {
        self.width = width
        self.height = height
        bgra = Array(UnsafeRawBufferPointer(start: memory, count: width * height * 4))
        for pixel in stride(from: 0, to: bgra.count, by: 4) {
            let alpha = opaque ? 255 : Int(bgra[pixel + 3])
            bgra[pixel + 3] = UInt8(alpha)
            guard alpha < 255 else { continue }
            for channel in pixel..<pixel + 3 {
                bgra[channel] = alpha == 0 ? 0 : UInt8(min(255, (Int(bgra[channel]) * 255 + alpha / 2) / alpha))
            }
        }
    }

    /// An 8-bit RGBA PNG at `path`, through libpng's simplified API: it catches libpng's
    /// errors (a longjmp, which Swift cannot take) and says them in `message`.
    func writePNG(to path: String) throws {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_BGRA)
        let written = bgra.withUnsafeBytes { png_image_write_to_file(&image, path, 0, $0.baseAddress, png_int_32(width * 4), nil) }
        guard written != 0 else {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw GlobalConnection.Failure(description: "cannot write \(path): \(message)")
        }
    }
}
