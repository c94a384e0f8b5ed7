import Responder
import TactileRender
import Testing

/// Composition as an output shows it: items where they belong, bottom to top, clipped to
/// their bounds and to the canvas, and only the damage repainted.
@Suite struct CanvasTests {
    static let size = Size(width: 32, height: 24)
    static var everything: Rect { Rect(size: size) }

    func canvas(_ kind: RendererKind) throws -> any Canvas { try kind.canvas(size: Self.size) }

    @Test(arguments: RendererKind.allCases) func onlyTheDamageIsRepainted(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let red = DrawItem.at(.zero, .solid(Self.size, Colour.red, opaque: true))
        canvas.render([red], damage: [Rect(x: 8, y: 8, width: 4, height: 4)])
        #expect(canvas.pixel(at: Position(x: 8, y: 8)) == Colour.red)
        #expect(canvas.pixel(at: Position(x: 11, y: 11)) == Colour.red)
        // Outside the damage (its far edges are outside too) the canvas is as it was: black.
        for p in [Position(x: 0, y: 0), Position(x: 12, y: 12), Position(x: 7, y: 9), Position(x: 9, y: 12)] {
            #expect(canvas.pixel(at: p) == 0xff00_0000, "\(p)")
        }
    }

    @Test(arguments: RendererKind.allCases) func theBackgroundShowsWhereNoItemIs(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let green = DrawItem.at(.zero, .solid(Size(width: 10, height: 24), Colour.green, opaque: true))
        canvas.render([green], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 9, y: 23)) == Colour.green)
        #expect(canvas.pixel(at: Position(x: 10, y: 0)) == Colour.background)
        canvas.background = 0xff12_3456
        canvas.render([green], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 31, y: 23)) == 0xff12_3456)
    }

    @Test(arguments: RendererKind.allCases) func itemsAreDrawnBottomToTop(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let bottom = DrawItem.at(.zero, .solid(Self.size, Colour.green, opaque: true))
        let top = DrawItem.at(Position(x: 10, y: 10), .solid(Size(width: 8, height: 8), Colour.red, opaque: true))
        canvas.render([bottom, top], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 10, y: 10)) == Colour.red)
        #expect(canvas.pixel(at: Position(x: 17, y: 17)) == Colour.red)
        #expect(canvas.pixel(at: Position(x: 18, y: 17)) == Colour.green)
        canvas.render([top, bottom], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 12, y: 12)) == Colour.green, "the order is the list's")
    }

    @Test(arguments: RendererKind.allCases) func translucentItemsBlendOverWhatIsBelow(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        canvas.render([.at(.zero, .solid(Self.size, Colour.halfRed))], damage: [Self.everything])
        // Half red over the 0x20 grey: red 0x80 + 0x20 / 2, green and blue 0x20 / 2.
        expect(canvas.pixel(at: Position(x: 5, y: 5)), near: 0xff90_1010)
        canvas.render([.at(.zero, .solid(Self.size, Colour.blue, opaque: true)), .at(.zero, .solid(Self.size, Colour.halfRed))],
                      damage: [Self.everything])
        expect(canvas.pixel(at: Position(x: 5, y: 5)), near: 0xff80_0080)
    }

    @Test(arguments: RendererKind.allCases) func anItemIsClippedToItsBounds(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let image = Image.solid(Size(width: 20, height: 20), Colour.red, opaque: true)
        let item = DrawItem(image: image, bounds: Rect(x: 0, y: 0, width: 8, height: 6), sampling: .translated(.zero))
        canvas.render([item], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 7, y: 5)) == Colour.red)
        #expect(canvas.pixel(at: Position(x: 8, y: 5)) == Colour.background)
        #expect(canvas.pixel(at: Position(x: 7, y: 6)) == Colour.background)
    }

    @Test(arguments: RendererKind.allCases) func aTranslatedItemLandsWithItsCornerAtItsOrigin(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        canvas.render([.at(Position(x: 5, y: 6), .numbered(Size(width: 4, height: 3)))], damage: [Self.everything])
        #expect(canvas.pixel(at: Position(x: 5, y: 6)) == Image.numbered(0, 0))
        #expect(canvas.pixel(at: Position(x: 8, y: 8)) == Image.numbered(3, 2))
        #expect(canvas.pixel(at: Position(x: 4, y: 6)) == Colour.background)
        #expect(canvas.pixel(at: Position(x: 9, y: 8)) == Colour.background)
    }

    @Test(arguments: RendererKind.allCases) func anItemPartlyOffTheCanvasShowsItsVisiblePart(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let item = DrawItem.at(Position(x: -2, y: -1), .numbered(Size(width: 4, height: 4)))
        // Damage reaching past the canvas is clipped to it.
        canvas.render([item], damage: [Rect(x: -50, y: -50, width: 500, height: 500)])
        #expect(canvas.pixel(at: Position(x: 0, y: 0)) == Image.numbered(2, 1))
        #expect(canvas.pixel(at: Position(x: 1, y: 2)) == Image.numbered(3, 3))
        #expect(canvas.pixel(at: Position(x: 2, y: 0)) == Colour.background)
        #expect(canvas.pixel(at: Position(x: 31, y: 23)) == Colour.background)
    }

    @Test(arguments: RendererKind.allCases) func aHalfTurnMirrorsBothWaysExactly(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        let image = Image.numbered(Size(width: 4, height: 3))
        // Canvas to image: (x, y) ↦ (4 - x, 3 - y), pixel for pixel.
        let item = DrawItem(image: image, bounds: Rect(x: 0, y: 0, width: 4, height: 3), sampling: .transformed(Affine(a: -1, b: 0, c: 4, d: 0, e: -1, f: 3)))
        canvas.render([item], damage: [Self.everything])
        for y in 0..<3 {
            for x in 0..<4 { #expect(canvas.pixel(at: Position(x: x, y: y)) == Image.numbered(3 - x, 2 - y), "\(x),\(y)") }
        }
    }

    @Test(arguments: RendererKind.allCases) func aScaledItemFillsItsBoundsUpToItsEdges(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        // A buffer of scale 2 at (4, 4): each image pixel covers two by two canvas pixels.
        let map = Affine.translation(-4, -4).then(.scale(0.5, 0.5))
        let item = DrawItem(image: .solid(Size(width: 3, height: 3), Colour.red, opaque: true), bounds: Rect(x: 4, y: 4, width: 6, height: 6),
                            sampling: .transformed(map))
        canvas.render([item], damage: [Self.everything])
        for y in 5..<9 { for x in 5..<9 { #expect(canvas.pixel(at: Position(x: x, y: y)) == Colour.red, "\(x),\(y)") } }
        // The outermost canvas pixels sample half beyond the image's edge pixels, which they
        // take (a stretched buffer keeps its edges, rather than fading into the background).
        for p in [Position(x: 4, y: 6), Position(x: 9, y: 6), Position(x: 6, y: 4), Position(x: 4, y: 4)] {
            #expect(canvas.pixel(at: p) == Colour.red, "\(p)")
        }
        #expect(canvas.pixel(at: Position(x: 10, y: 6)) == Colour.background, "nothing past the bounds")
    }

    /// What a compositor relies on: repainting only what changed gives the frame a full
    /// repaint would.
    @Test(arguments: RendererKind.allCases) func repaintingTheDamageGivesWhatRepaintingEverythingGives(_ kind: RendererKind) throws {
        let window = DrawItem.at(Position(x: 2, y: 2), .numbered(Size(width: 12, height: 10)))
        let dialog = DrawItem.at(Position(x: 8, y: 6), .solid(Size(width: 10, height: 8), Colour.halfRed))
        let cursor = DrawItem.at(Position(x: 20, y: 4), .solid(Size(width: 3, height: 3), Colour.blue))
        let incremental = try canvas(kind)
        incremental.render([window, dialog, cursor], damage: [Self.everything])

        // The window moves, the dialog turns opaque green, the cursor moves.
        let moved = DrawItem.at(Position(x: 6, y: 9), window.image)
        let dialog2 = DrawItem.at(Position(x: 8, y: 6), .solid(Size(width: 10, height: 8), Colour.green, opaque: true))
        let cursor2 = DrawItem.at(Position(x: 25, y: 15), cursor.image)
        let damage = [window.bounds, moved.bounds, dialog.bounds, cursor.bounds, cursor2.bounds]
        incremental.render([moved, dialog2, cursor2], damage: damage)

        let full = try canvas(kind)
        full.render([moved, dialog2, cursor2], damage: [Self.everything])
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let p = Position(x: x, y: y)
                #expect(incremental.pixel(at: p) == full.pixel(at: p), "\(x),\(y)")
            }
        }
    }

    // MARK: Reading frames out

    @Test(arguments: RendererKind.allCases) func writeCopiesOneRectangleWhereItIsAsked(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        canvas.render([.at(.zero, .numbered(Self.size))], damage: [Self.everything])
        let target = Buffer(size: Size(width: 10, height: 10), fill: 0xee)
        canvas.write(Rect(x: 4, y: 3, width: 5, height: 2), into: target.memory, format: .xrgb8888, size: target.size, stride: target.stride,
                     at: Position(x: 1, y: 6), overlay: nil)
        #expect(target[1, 6] & 0xff_ffff == Image.numbered(4, 3) & 0xff_ffff)
        #expect(target[5, 7] & 0xff_ffff == Image.numbered(8, 4) & 0xff_ffff)
        for (x, y) in [(0, 6), (6, 6), (1, 5), (1, 8)] { #expect(target[x, y] == 0xeeee_eeee, "\(x),\(y) untouched") }
    }

    @Test(arguments: RendererKind.allCases) func theCursorIsDrawnOverWhatIsWrittenAndNowhereElse(_ kind: RendererKind) throws {
        let canvas = try canvas(kind)
        canvas.render([.at(.zero, .solid(Self.size, Colour.green, opaque: true))], damage: [Self.everything])
        let cursor = DrawItem.at(Position(x: 6, y: 6), .solid(Size(width: 4, height: 4), Colour.blue))
        let target = Buffer(size: Self.size, fill: 0xee)
        canvas.write(Rect(x: 0, y: 0, width: 8, height: 8), into: target.memory, format: .xrgb8888, size: target.size, stride: target.stride,
                     at: .zero, overlay: cursor)
        #expect(target[5, 5] & 0xff_ffff == 0x00_ff00)
        #expect(target[6, 6] & 0xff_ffff == 0x00_00ff)
        #expect(target[7, 7] & 0xff_ffff == 0x00_00ff)
        #expect(target[8, 8] == 0xeeee_eeee, "the cursor reaches past the rectangle written, but is not drawn there")
        #expect(canvas.pixel(at: Position(x: 7, y: 7)) == Colour.green, "the canvas keeps no cursor")

        // A rectangle written elsewhere in the target takes the cursor along.
        let moved = Buffer(size: Size(width: 4, height: 4), fill: 0xee)
        canvas.write(Rect(x: 5, y: 5, width: 4, height: 4), into: moved.memory, format: .xrgb8888, size: moved.size, stride: moved.stride,
                     at: .zero, overlay: cursor)
        #expect(moved[0, 0] & 0xff_ffff == 0x00_ff00)
        #expect(moved[1, 1] & 0xff_ffff == 0x00_00ff)
        #expect(moved[3, 3] & 0xff_ffff == 0x00_00ff)
    }

    @Test func aCursorPlaneGetsTheCursorAloneAtItsCorner() {
        let plane = Buffer(size: Size(width: 8, height: 8), fill: 0xee)
        let cursor = DrawItem.at(Position(x: 50, y: 60), .numbered(Size(width: 3, height: 2)))
        PixmanCanvas.drawAlone(cursor, into: plane.memory, format: .argb8888, size: plane.size, stride: plane.stride)
        #expect(plane[0, 0] == Image.numbered(0, 0))
        #expect(plane[2, 1] == Image.numbered(2, 1))
        #expect(plane[3, 0] == 0, "transparent around it")
        #expect(plane[7, 7] == 0)
    }

    func expect(_ pixel: UInt32, near expected: UInt32, sourceLocation: SourceLocation = #_sourceLocation) {
        func channel(_ value: UInt32, _ index: Int) -> Int { Int(value >> UInt32(8 * index) & 0xff) }
        let close = (0..<4).allSatisfy { abs(channel(pixel, $0) - channel(expected, $0)) <= 2 }
        #expect(close, "\(String(pixel, radix: 16)) is not near \(String(expected, radix: 16))", sourceLocation: sourceLocation)
    }
}
