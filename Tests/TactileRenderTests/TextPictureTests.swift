import Responder
import TactileRender
import Testing

/// The compositor's own words (a kiosk's warning, the PIN pad's keys), laid out by Pango:
/// drawn in the colour asked, within the width, and in scripts beyond Latin.
struct TextPictureTests {
    static func pixels(_ image: Image) -> [UInt32] {
        let words = image.stride / 4
        let raw = image.pixels.bindMemory(to: UInt32.self, capacity: words * image.size.height)
        return (0..<image.size.height).flatMap { y in (0..<image.size.width).map { raw[y * words + $0] } }
    }

    @Test func aLineIsDrawnInItsColourWithinItsWidth() throws {
        let image = try #require(TextPicture.render("Still there?", points: 40, colour: 0xffffffff, bold: true, width: 600))
        #expect(image.size.width > 100 && image.size.width <= 600, "\(image.size)")
        #expect(image.size.height >= 40 && image.size.height < 100, "\(image.size)")
        let pixels = Self.pixels(image)
        #expect(pixels.contains(0xffffffff), "solid white inside the strokes")
        #expect(pixels.contains(0), "clear between the letters")
        #expect(pixels.allSatisfy { ($0 >> 24) >= ($0 >> 16) & 0xff }, "premultiplied: no channel above its alpha")
    }

    @Test func aLongTextWrapsAtItsWidth() throws {
        let one = try #require(TextPicture.render("Touch to continue", points: 30, colour: 0xffffffff, width: 2000))
        let wrapped = try #require(TextPicture.render("Touch to continue", points: 30, colour: 0xffffffff, width: 150))
        #expect(wrapped.size.width <= 150)
        #expect(wrapped.size.height > one.size.height, "more than one line")
    }

    @Test(arguments: ["Noch da? Berühren zum Fortfahren", "Вы ещё здесь?", "مرحبا"])
    func anyScriptDraws(_ text: String) throws {
        let image = try #require(TextPicture.render(text, points: 32, colour: 0xffffffff, width: 800))
        #expect(Self.pixels(image).contains { $0 != 0 }, "something drawn for \(text)")
    }

    @Test func nothingToDrawIsNil() {
        #expect(TextPicture.render("", points: 32, colour: 0xffffffff, width: 800) == nil)
        #expect(TextPicture.render("x", points: 0, colour: 0xffffffff, width: 800) == nil)
        #expect(TextPicture.render("x", points: 32, colour: 0xffffffff, width: 0) == nil)
    }
}
