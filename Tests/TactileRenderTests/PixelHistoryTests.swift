import Responder
@testable import TactileRender
import Testing

/// A surface's pictures, commit by commit: a renderer's copy catches up with the damage
/// between, and uploads everything only when it cannot know what changed.
@Suite struct PixelHistoryTests {
    let history = PixelHistory()
    let image = Image(size: Size(width: 64, height: 64), opaque: true)!

    @Test func theDamageSinceAVersionIsEveryCommitsAfterIt() {
        history.record(image, damage: nil)
        history.record(image, damage: [Rect(x: 1, y: 1, width: 2, height: 2)])
        history.record(image, damage: [Rect(x: 10, y: 10, width: 4, height: 4)])
        #expect(history.damage(since: 1) == [Rect(x: 1, y: 1, width: 2, height: 2), Rect(x: 10, y: 10, width: 4, height: 4)])
        #expect(history.damage(since: 2) == [Rect(x: 10, y: 10, width: 4, height: 4)])
        #expect(history.damage(since: 3) == [], "up to date")
        #expect(history.damage(since: 0) == nil, "the first commit damaged everything")
        #expect(image.history === history && image.historyVersion == 3)
    }

    @Test func tooFarBackIsEverything() {
        for _ in 0..<(PixelHistory.depth + 2) { history.record(image, damage: [Rect(x: 0, y: 0, width: 1, height: 1)]) }
        #expect(history.damage(since: 1) == nil)
        #expect(history.damage(since: PixelHistory.depth + 2 - PixelHistory.depth)?.count == PixelHistory.depth)
    }

    /// What the GLES renderer uploads for a client that swaps two 64x64 buffers and redraws a
    /// 4x4 square: the square, and the new buffer's pixels there are what is shown.
    @Test func glesUploadsOnlyTheDamageOfANewBuffer() throws {
        let renderer = try GLESRenderer()
        let canvas = try #require(renderer.makeCanvas(size: Size(width: 64, height: 64)))
        let size = Size(width: 64, height: 64)
        let buffers = [Buffer(size: size), Buffer(size: size)]
        for y in 0..<64 { for x in 0..<64 { buffers[0][x, y] = Colour.red; buffers[1][x, y] = Colour.red } }
        let first = try #require(Image(borrowing: buffers[0].memory, from: Lender(buffers[0].memory), size: size, format: .xrgb8888, stride: buffers[0].stride))
        history.record(first, damage: nil)
        canvas.render([.at(.zero, first)], damage: [Rect(size: size)])
        let before = renderer.textures.uploadedBytes
        #expect(before == 64 * 64 * 4)

        for y in 8..<12 { for x in 8..<12 { buffers[1][x, y] = Colour.green } }
        let second = try #require(Image(borrowing: buffers[1].memory, from: Lender(buffers[1].memory), size: size, format: .xrgb8888, stride: buffers[1].stride))
        let square = Rect(x: 8, y: 8, width: 4, height: 4)
        history.record(second, damage: [square])
        canvas.render([.at(.zero, second)], damage: [square])
        #expect(renderer.textures.uploadedBytes - before == 4 * 4 * 4, "the square, not the buffer")
        #expect(canvas.pixel(at: Position(x: 9, y: 9)) == Colour.green)
        #expect(canvas.pixel(at: Position(x: 12, y: 12)) == Colour.red)
    }
}
