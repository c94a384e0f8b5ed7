import Responder
import TactileRender
import Testing

/// Pixels composition reads: Tactile's own, made at sizes a client may send, and a client's,
/// borrowed under its guard.
@Suite struct ImageTests {
    @Test func aNewImageIsCleared() {
        let translucent = Image(size: Size(width: 3, height: 2), opaque: false)!
        let opaque = Image(size: Size(width: 3, height: 2), opaque: true)!
        #expect(translucent.pixel(at: Position(x: 2, y: 1)) == 0, "transparent")
        #expect(opaque.pixel(at: Position(x: 2, y: 1)) == 0xff00_0000, "black")
        #expect(opaque.bounds == Rect(x: 0, y: 0, width: 3, height: 2))
    }

    @Test func sizesNoBufferCanHaveAreRefused() {
        for size in [Size(width: 0, height: 5), Size(width: 5, height: 0), Size(width: -1, height: 5),
                     Size(width: Image.maximumSide + 1, height: 1), Size(width: 1, height: Image.maximumSide + 1)] {
            #expect(Image(size: size, opaque: false) == nil, "\(size)")
        }
        #expect(Image(size: Size(width: Image.maximumSide, height: 1), opaque: false) != nil)
    }

    @Test func aPixelOutsideTheImageReadsAsNothing() {
        let image = Image.solid(Size(width: 2, height: 2), Colour.red, opaque: true)
        for p in [Position(x: -1, y: 0), Position(x: 0, y: -1), Position(x: 2, y: 0), Position(x: 0, y: 2)] {
            #expect(image.pixel(at: p) == 0, "\(p)")
        }
    }

    @Test func onlyTheDamagedRectanglesAreCopied() {
        let size = Size(width: 6, height: 4)
        let image = Image.solid(size, Colour.green, opaque: true)
        let client = Buffer(size: size)
        for y in 0..<size.height { for x in 0..<size.width { client[x, y] = Image.numbered(x, y) } }
        // Damage reaching past the buffer is clipped to it.
        image.copy(from: client.memory, format: .xrgb8888, stride: client.stride,
                   rects: [Rect(x: 1, y: 1, width: 2, height: 1), Rect(x: 4, y: 2, width: 10, height: 10)])
        #expect(image.pixel(at: Position(x: 1, y: 1)) == Image.numbered(1, 1))
        #expect(image.pixel(at: Position(x: 2, y: 1)) == Image.numbered(2, 1))
        #expect(image.pixel(at: Position(x: 5, y: 3)) == Image.numbered(5, 3))
        for p in [Position(x: 0, y: 1), Position(x: 3, y: 1), Position(x: 1, y: 0), Position(x: 3, y: 3), Position(x: 4, y: 1)] {
            #expect(image.pixel(at: p) == Colour.green, "\(p) untouched")
        }
    }

    @Test func translucentPixelsAreCopiedAsTheyAre() {
        let image = Image(size: Size(width: 1, height: 1), opaque: false)!
        let client = Buffer(size: Size(width: 1, height: 1))
        client[0, 0] = Colour.halfRed
        image.copy(from: client.memory, format: .argb8888, stride: client.stride, rects: [image.bounds])
        #expect(image.pixel(at: .zero) == Colour.halfRed)
    }

    /// A quarter turn made once: the turned image's pixel (x, y) is the source's (y, 2 - x), and
    /// the source's generation says when it is stale.
    @Test func aTurnedImageHoldsTheSourcesPixelsTurned() throws {
        let source = Image.numbered(Size(width: 4, height: 3))
        let turned = try #require(source.turned(Affine(a: 0, b: 1, c: 0, d: -1, e: 0, f: 3), size: Size(width: 3, height: 4)))
        for y in 0..<4 {
            for x in 0..<3 { #expect(turned.pixel(at: Position(x: x, y: y)) == Image.numbered(y, 2 - x), "\(x),\(y)") }
        }
        let before = source.generation
        var pixel: UInt32 = 0xff12_3456
        source.copy(from: &pixel, format: .xrgb8888, stride: 4, rects: [Rect(x: 0, y: 0, width: 1, height: 1)])
        #expect(source.generation != before, "a copy into it counts")
    }

    /// A client's buffer is read where it lies, only between its lender's begin and end, and
    /// followed when its memory moved (a pool the client grew is mapped anew).
    @Test func aBorrowedImageIsReadOnlyInsideItsGuardAndFollowsItsMemory() throws {
        let size = Size(width: 4, height: 2)
        let first = Buffer(size: size), second = Buffer(size: size)
        for y in 0..<2 { for x in 0..<4 { first[x, y] = Colour.red; second[x, y] = Colour.green } }
        let lender = Lender(first.memory)
        let image = try #require(Image(borrowing: first.memory, from: lender, size: size, format: .xrgb8888, stride: first.stride))
        let canvas = try #require(PixmanCanvas(size: size))
        canvas.render([DrawItem(image: image, bounds: image.bounds, sampling: .translated(.zero))], damage: [Rect(size: size)])
        #expect(canvas.pixel(at: Position(x: 3, y: 1)) == Colour.red)
        #expect(lender.log == ["begin", "end"], "one guarded read per item drawn")
        lender.memory = second.memory
        canvas.render([DrawItem(image: image, bounds: image.bounds, sampling: .translated(.zero))], damage: [Rect(size: size)])
        #expect(canvas.pixel(at: Position(x: 3, y: 1)) == Colour.green, "read where the memory lies now")
        // Unreadable (the buffer is gone): nothing is drawn, the background stays.
        lender.memory = nil
        canvas.render([DrawItem(image: image, bounds: image.bounds, sampling: .translated(.zero))], damage: [Rect(size: size)])
        #expect(canvas.pixel(at: .zero) == canvas.background)
    }

    /// A kept copy no longer reads the client's memory: what the client writes after does
    /// not show.
    @Test func aKeptCopyIsTactilesOwn() throws {
        let size = Size(width: 2, height: 2)
        let client = Buffer(size: size)
        for y in 0..<2 { for x in 0..<2 { client[x, y] = Image.numbered(x, y) } }
        let lender = Lender(client.memory)
        let image = try #require(Image(borrowing: client.memory, from: lender, size: size, format: .xrgb8888, stride: client.stride))
        #expect(image.isBorrowed)
        image.keepCopy()
        #expect(!image.isBorrowed)
        client[1, 1] = Colour.red
        lender.log = []
        #expect(image.pixel(at: Position(x: 1, y: 1)) == Image.numbered(1, 1))
        #expect(image.reading { true } == true && lender.log.isEmpty, "no guard needed any more")
    }
}
