import Responder
import TactileRender
import Testing

/// Premultiplied ARGB colours the tests draw with.
enum Colour {
    static let red: UInt32 = 0xffff_0000
    static let green: UInt32 = 0xff00_ff00
    static let blue: UInt32 = 0xff00_00ff
    /// Red at half alpha, premultiplied.
    static let halfRed: UInt32 = 0x8080_0000
    /// The canvas's default background, as its pixels read.
    static let background: UInt32 = 0xff20_2020
}

extension Image {
    /// An image of one colour.
    static func solid(_ size: Size, _ colour: UInt32, opaque: Bool = false) -> Image {
        let image = Image(size: size, opaque: opaque)!
        for y in 0..<size.height { for x in 0..<size.width { image.set(Position(x: x, y: y), colour) } }
        return image
    }

    /// An image whose every pixel is different: 0xffYYXX00, so a pixel read says where it came from.
    static func numbered(_ size: Size) -> Image {
        let image = Image(size: size, opaque: true)!
        for y in 0..<size.height { for x in 0..<size.width { image.set(Position(x: x, y: y), numbered(x, y)) } }
        return image
    }

    static func numbered(_ x: Int, _ y: Int) -> UInt32 { 0xff00_0000 | UInt32(y) << 16 | UInt32(x) << 8 }

    func set(_ p: Position, _ colour: UInt32) {
        pixels.storeBytes(of: colour, toByteOffset: p.y * stride + p.x * 4, as: UInt32.self)
    }
}

extension DrawItem {
    /// `image` drawn 1:1 with its top-left corner at `origin`, opaque where the image is.
    static func at(_ origin: Position, _ image: Image) -> DrawItem {
        let bounds = Rect(origin: origin, size: image.size)
        return DrawItem(image: image, bounds: bounds, opaque: image.isOpaque ? [bounds] : [], sampling: .translated(origin))
    }
}

/// Memory laid out as a backend's or a client's buffer: `stride` bytes a row, pixels of
/// `bytesPerPixel` bytes stored little-endian, as wl_shm and DRM formats are.
final class Buffer {
    let size: Size
    let bytesPerPixel: Int
    let stride: Int
    let memory: UnsafeMutableRawPointer

    /// Rows padded past their pixels (and to a multiple of 4 bytes, as pixman wants), so a
    /// reader that ignores the stride is caught; every byte starts as `fill`.
    init(size: Size, bytesPerPixel: Int = 4, fill: UInt8 = 0) {
        self.size = size
        self.bytesPerPixel = bytesPerPixel
        stride = (size.width * bytesPerPixel + 3) / 4 * 4 + 8
        memory = .allocate(byteCount: stride * size.height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: fill, count: stride * size.height)
    }

    deinit { memory.deallocate() }

    subscript(x: Int, y: Int) -> UInt32 {
        get {
            (0..<bytesPerPixel).reduce(0) { $0 | UInt32(memory.load(fromByteOffset: y * stride + x * bytesPerPixel + $1, as: UInt8.self)) << (8 * $1) }
        }
        set {
            for byte in 0..<bytesPerPixel {
                memory.storeBytes(of: UInt8(truncatingIfNeeded: newValue >> (8 * byte)), toByteOffset: y * stride + x * bytesPerPixel + byte, as: UInt8.self)
            }
        }
    }
}

/// Each renderer, for suites that hold both to the same behaviour. GLES is Mesa's llvmpipe
/// here (EGL surfaceless) and a GPU where there is one; where EGL gives no display its tests
/// fail, saying why, rather than pass unrun.
enum RendererKind: String, CaseIterable, CustomTestStringConvertible {
    case pixman, gles

    func make() throws -> any Renderer {
        switch self {
        case .pixman: PixmanRenderer()
        case .gles: try GLESRenderer()
        }
    }

    func canvas(size: Size) throws -> any Canvas {
        try #require(try make().makeCanvas(size: size))
    }

    var testDescription: String { rawValue }
}

/// Lends memory as a client's wl_shm pool is lent, logging each guarded read.
final class Lender: PixelLender {
    var memory: UnsafeMutableRawPointer?
    var log: [String] = []

    init(_ memory: UnsafeMutableRawPointer) { self.memory = memory }

    func beginReading() -> UnsafeMutableRawPointer? {
        guard let memory else { return nil }
        log.append("begin")
        return memory
    }

    func endReading() { log.append("end") }
}
