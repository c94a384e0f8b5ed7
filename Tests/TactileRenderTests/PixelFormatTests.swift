import Responder
import TactileRender
import Testing

/// Every wl_shm format Tactile advertises shows a client's colours as the client meant them.
@Suite struct PixelFormatTests {
    /// A format's layout as the DRM fourcc documentation gives it: the masks of each channel
    /// in the little-endian pixel value.
    struct Layout: CustomStringConvertible {
        let code: String
        let bytes: Int
        let red, green, blue, alpha: UInt32

        var description: String { code }

        /// A pixel of this layout with each channel at full or nothing, and alpha full.
        func encode(red r: Bool, green g: Bool, blue b: Bool) -> UInt32 {
            (r ? red : 0) | (g ? green : 0) | (b ? blue : 0) | alpha
        }
    }

    static let layouts: [Layout] = [
        Layout(code: "AR24", bytes: 4, red: 0x00ff_0000, green: 0x0000_ff00, blue: 0x0000_00ff, alpha: 0xff00_0000),
        Layout(code: "XR24", bytes: 4, red: 0x00ff_0000, green: 0x0000_ff00, blue: 0x0000_00ff, alpha: 0),
        Layout(code: "AB24", bytes: 4, red: 0x0000_00ff, green: 0x0000_ff00, blue: 0x00ff_0000, alpha: 0xff00_0000),
        Layout(code: "XB24", bytes: 4, red: 0x0000_00ff, green: 0x0000_ff00, blue: 0x00ff_0000, alpha: 0),
        Layout(code: "RA24", bytes: 4, red: 0xff00_0000, green: 0x00ff_0000, blue: 0x0000_ff00, alpha: 0x0000_00ff),
        Layout(code: "RX24", bytes: 4, red: 0xff00_0000, green: 0x00ff_0000, blue: 0x0000_ff00, alpha: 0),
        Layout(code: "BA24", bytes: 4, red: 0x0000_ff00, green: 0x00ff_0000, blue: 0xff00_0000, alpha: 0x0000_00ff),
        Layout(code: "BX24", bytes: 4, red: 0x0000_ff00, green: 0x00ff_0000, blue: 0xff00_0000, alpha: 0),
        Layout(code: "AR30", bytes: 4, red: 0x3ff0_0000, green: 0x000f_fc00, blue: 0x0000_03ff, alpha: 0xc000_0000),
        Layout(code: "XR30", bytes: 4, red: 0x3ff0_0000, green: 0x000f_fc00, blue: 0x0000_03ff, alpha: 0),
        Layout(code: "AB30", bytes: 4, red: 0x0000_03ff, green: 0x000f_fc00, blue: 0x3ff0_0000, alpha: 0xc000_0000),
        Layout(code: "XB30", bytes: 4, red: 0x0000_03ff, green: 0x000f_fc00, blue: 0x3ff0_0000, alpha: 0),
        Layout(code: "RG24", bytes: 3, red: 0xff_0000, green: 0x00_ff00, blue: 0x00_00ff, alpha: 0),
        Layout(code: "BG24", bytes: 3, red: 0x00_00ff, green: 0x00_ff00, blue: 0xff_0000, alpha: 0),
        Layout(code: "RG16", bytes: 2, red: 0xf800, green: 0x07e0, blue: 0x001f, alpha: 0),
        Layout(code: "BG16", bytes: 2, red: 0x001f, green: 0x07e0, blue: 0xf800, alpha: 0),
        Layout(code: "AR15", bytes: 2, red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0x8000),
        Layout(code: "XR15", bytes: 2, red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0),
        Layout(code: "AB15", bytes: 2, red: 0x001f, green: 0x03e0, blue: 0x7c00, alpha: 0x8000),
        Layout(code: "XB15", bytes: 2, red: 0x001f, green: 0x03e0, blue: 0x7c00, alpha: 0),
        Layout(code: "AR12", bytes: 2, red: 0x0f00, green: 0x00f0, blue: 0x000f, alpha: 0xf000),
        Layout(code: "XR12", bytes: 2, red: 0x0f00, green: 0x00f0, blue: 0x000f, alpha: 0),
        Layout(code: "AB12", bytes: 2, red: 0x000f, green: 0x00f0, blue: 0x0f00, alpha: 0xf000),
        Layout(code: "XB12", bytes: 2, red: 0x000f, green: 0x00f0, blue: 0x0f00, alpha: 0),
    ]

    /// wl_shm's codes: 0 and 1 for the two formats every compositor has, the fourcc otherwise.
    static func shm(_ code: String) -> UInt32 {
        switch code {
        case "AR24": 0
        case "XR24": 1
        default: PixelFormat.fourcc(code)
        }
    }

    /// One pixel each: red, green, blue, white, black, and how each shows.
    static let colours: [(r: Bool, g: Bool, b: Bool, shown: UInt32)] = [
        (true, false, false, 0xffff_0000), (false, true, false, 0xff00_ff00), (false, false, true, 0xff00_00ff),
        (true, true, true, 0xffff_ffff), (false, false, false, 0xff00_0000),
    ]

    /// A client's buffer of `layout`: `colours` in a row, and a second row of the same,
    /// stride apart.
    static func primaries(_ layout: Layout) -> (Buffer, Size) {
        let size = Size(width: colours.count, height: 2)
        let client = Buffer(size: size, bytesPerPixel: layout.bytes, fill: 0x5a)
        for y in 0..<2 {
            for (x, c) in colours.enumerated() { client[x, y] = layout.encode(red: c.r, green: c.g, blue: c.b) }
        }
        return (client, size)
    }

    @Test func fourccCodesAreDRMs() {
        #expect(PixelFormat.fourcc("XR24") == 0x3432_5258)
        #expect(PixelFormat.fourcc("AR24") == 0x3432_5241)
        #expect(PixelFormat.fourcc("RG16") == 0x3631_4752)
    }

    @Test func everyFormatIsKnownByItsCodeAndNoOtherIs() {
        #expect(PixelFormat(shm: 0) == .argb8888)
        #expect(PixelFormat(shm: 1) == .xrgb8888)
        #expect(Set(PixelFormat.all.map(\.shm)) == Set(Self.layouts.map { Self.shm($0.code) }), "every format advertised is tested here")
        #expect(PixelFormat.all.count == Self.layouts.count, "each once")
        #expect(PixelFormat(shm: PixelFormat.fourcc("NV12")) == nil, "a YUV format")
        #expect(PixelFormat(shm: 2) == nil)
    }

    @Test(arguments: layouts) func primariesAndWhiteArriveExactly(_ layout: Layout) throws {
        let format = try #require(PixelFormat(shm: Self.shm(layout.code)))
        #expect(format.bytesPerPixel == layout.bytes)
        #expect(format.isOpaque == (layout.alpha == 0))
        let (client, size) = Self.primaries(layout)
        let image = Image(size: size, opaque: format.isOpaque)!
        image.copy(from: client.memory, format: format, stride: client.stride, rects: [image.bounds])
        for y in 0..<2 {
            for (x, c) in Self.colours.enumerated() {
                let shown = image.pixel(at: Position(x: x, y: y))
                #expect(shown == c.shown, "\(layout) at \(x),\(y): \(String(shown, radix: 16))")
            }
        }
    }

    /// A client's buffer of each format, read where it lies and composed by each renderer
    /// (GLES uploads the 8-bit RGBA layouts as they are and has pixman convert the rest).
    @Test(arguments: layouts, RendererKind.allCases) func composedAsTheClientMeantThem(_ layout: Layout, _ kind: RendererKind) throws {
        let format = try #require(PixelFormat(shm: Self.shm(layout.code)))
        let (client, size) = Self.primaries(layout)
        let image = try #require(Image(borrowing: client.memory, from: Lender(client.memory), size: size, format: format, stride: client.stride))
        let canvas = try kind.canvas(size: size)
        canvas.render([.at(.zero, image)], damage: [Rect(size: size)])
        for y in 0..<2 {
            for (x, c) in Self.colours.enumerated() {
                let shown = canvas.pixel(at: Position(x: x, y: y))
                #expect(shown == c.shown, "\(layout) at \(x),\(y): \(String(shown, radix: 16))")
            }
        }
    }

    @Test func aTransparentPixelStaysTransparent() {
        for layout in Self.layouts where layout.alpha != 0 {
            let format = PixelFormat(shm: Self.shm(layout.code))!
            let client = Buffer(size: Size(width: 1, height: 1), bytesPerPixel: layout.bytes)
            client[0, 0] = 0  // premultiplied: no alpha, no colour
            let image = Image.solid(Size(width: 1, height: 1), Colour.red)
            image.copy(from: client.memory, format: format, stride: client.stride, rects: [image.bounds])
            #expect(image.pixel(at: .zero) == 0, "\(layout)")
        }
    }
}
