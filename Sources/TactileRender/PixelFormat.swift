import CPixman

/// A wl_shm pixel format Tactile can compose, and how pixman reads it.
///
/// wl_shm formats are DRM fourcc codes describing a little-endian packed pixel; pixman's
/// formats describe a native-endian one, so on the little-endian machines Tactile runs on
/// each DRM format has exactly one pixman twin.
public struct PixelFormat: Hashable, Sendable {
    /// The wl_shm.format value (0 and 1 for ARGB8888 and XRGB8888, the fourcc otherwise).
    public let shm: UInt32
    let pixman: pixman_format_code_t
    public let bytesPerPixel: Int
    /// No alpha channel: the format covers what is below it wherever it is drawn.
    public let isOpaque: Bool

    private init(_ shm: UInt32, _ pixman: pixman_format_code_t, bytes: Int, opaque: Bool) {
        self.shm = shm
        self.pixman = pixman
        bytesPerPixel = bytes
        isOpaque = opaque
    }

    public init?(shm: UInt32) {
        guard let format = Self.all.first(where: { $0.shm == shm }) else { return nil }
        self = format
    }

    /// The format a DRM fourcc names (a dmabuf's), where wl_shm has it: AR24 and XR24 are
    /// wl_shm's 0 and 1.
    public init?(fourcc: UInt32) {
        self.init(shm: fourcc == Self.fourcc("AR24") ? 0 : fourcc == Self.fourcc("XR24") ? 1 : fourcc)
    }

    public static let argb8888 = PixelFormat(0, PIXMAN_a8r8g8b8, bytes: 4, opaque: false)
    public static let xrgb8888 = PixelFormat(1, PIXMAN_x8r8g8b8, bytes: 4, opaque: true)

    /// Every format wl_shm advertises: the two every compositor has, then the other 8-bit,
    /// 10-bit, 16-bit and 24-bit RGB layouts pixman reads.
    public static let all: [PixelFormat] = [
        argb8888, xrgb8888,
        PixelFormat(fourcc("AB24"), PIXMAN_a8b8g8r8, bytes: 4, opaque: false),
        PixelFormat(fourcc("XB24"), PIXMAN_x8b8g8r8, bytes: 4, opaque: true),
        PixelFormat(fourcc("RA24"), PIXMAN_r8g8b8a8, bytes: 4, opaque: false),
        PixelFormat(fourcc("RX24"), PIXMAN_r8g8b8x8, bytes: 4, opaque: true),
        PixelFormat(fourcc("BA24"), PIXMAN_b8g8r8a8, bytes: 4, opaque: false),
        PixelFormat(fourcc("BX24"), PIXMAN_b8g8r8x8, bytes: 4, opaque: true),
        PixelFormat(fourcc("AR30"), PIXMAN_a2r10g10b10, bytes: 4, opaque: false),
        PixelFormat(fourcc("XR30"), PIXMAN_x2r10g10b10, bytes: 4, opaque: true),
        PixelFormat(fourcc("AB30"), PIXMAN_a2b10g10r10, bytes: 4, opaque: false),
        PixelFormat(fourcc("XB30"), PIXMAN_x2b10g10r10, bytes: 4, opaque: true),
        PixelFormat(fourcc("RG24"), PIXMAN_r8g8b8, bytes: 3, opaque: true),
        PixelFormat(fourcc("BG24"), PIXMAN_b8g8r8, bytes: 3, opaque: true),
        PixelFormat(fourcc("RG16"), PIXMAN_r5g6b5, bytes: 2, opaque: true),
        PixelFormat(fourcc("BG16"), PIXMAN_b5g6r5, bytes: 2, opaque: true),
        PixelFormat(fourcc("AR15"), PIXMAN_a1r5g5b5, bytes: 2, opaque: false),
        PixelFormat(fourcc("XR15"), PIXMAN_x1r5g5b5, bytes: 2, opaque: true),
        PixelFormat(fourcc("AB15"), PIXMAN_a1b5g5r5, bytes: 2, opaque: false),
        PixelFormat(fourcc("XB15"), PIXMAN_x1b5g5r5, bytes: 2, opaque: true),
        PixelFormat(fourcc("AR12"), PIXMAN_a4r4g4b4, bytes: 2, opaque: false),
        PixelFormat(fourcc("XR12"), PIXMAN_x4r4g4b4, bytes: 2, opaque: true),
        PixelFormat(fourcc("AB12"), PIXMAN_a4b4g4r4, bytes: 2, opaque: false),
        PixelFormat(fourcc("XB12"), PIXMAN_x4b4g4r4, bytes: 2, opaque: true),
    ]

    /// A DRM fourcc code from its four characters.
    public static func fourcc(_ code: String) -> UInt32 {
        code.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
