import Responder
import TactileRender
import Testing

/// The damage history a backend's buffers catch up with: whichever buffer a frame is drawn
/// into, after drawing what `catchUp` returns it shows the output exactly as it is.
@Suite struct DamageHistoryTests {
    static let size = Size(width: 64, height: 48)

    @Test func aNewBufferHasMissedEverything() {
        var history = DamageHistory(size: Self.size)
        #expect(history.missed == Region(Rect(size: Self.size)))
        #expect(history.catchUp(with: [Rect(x: 1, y: 1, width: 2, height: 2)]) == [Rect(size: Self.size)])
    }

    @Test func aBufferUpToDateRedrawsOnlyItsFramesDamage() {
        var history = DamageHistory(size: Self.size)
        _ = history.catchUp(with: [])
        #expect(history.missed.isEmpty)
        let damage = Rect(x: 4, y: 5, width: 6, height: 7)
        #expect(history.catchUp(with: [damage]) == [damage])
        #expect(history.catchUp(with: []) == [], "a frame without damage redraws nothing")
    }

    @Test func itRedrawsWhatOtherBuffersFramesChangedAsWell() {
        var history = DamageHistory(size: Self.size)
        _ = history.catchUp(with: [])
        history.miss([Rect(x: 0, y: 0, width: 8, height: 8)])
        history.miss([Rect(x: 30, y: 30, width: 4, height: 4)])
        let redrawn = history.catchUp(with: [Rect(x: 4, y: 4, width: 8, height: 8)])
        var expected = Region(Rect(x: 0, y: 0, width: 8, height: 8))
        expected.add(Rect(x: 30, y: 30, width: 4, height: 4))
        expected.add(Rect(x: 4, y: 4, width: 8, height: 8))
        #expect(redrawn == expected.rects)
        #expect(history.missed.isEmpty)
    }

    @Test func damageOutsideTheBufferIsDropped() {
        var history = DamageHistory(size: Self.size)
        _ = history.catchUp(with: [])
        history.miss([Rect(x: 60, y: -10, width: 20, height: 20), Rect(x: 100, y: 100, width: 5, height: 5)])
        #expect(history.missed == Region(Rect(x: 60, y: 0, width: 4, height: 10)))
    }

    @Test func manyRectanglesBecomeTheirBoundingBox() {
        var history = DamageHistory(size: Self.size)
        _ = history.catchUp(with: [])
        // Disjoint squares on a diagonal: as many as kept, then one more.
        let squares = (0...DamageHistory.maximumRects).map { Rect(x: 3 * $0, y: 2 * $0, width: 1, height: 1) }
        history.miss(Array(squares.dropLast()))
        #expect(history.missed.rectCount == DamageHistory.maximumRects)
        history.miss([squares.last!])
        #expect(history.missed == Region(Rect(x: 0, y: 0, width: 3 * DamageHistory.maximumRects + 1, height: 2 * DamageHistory.maximumRects + 1)))
    }

    /// Two and three buffers taking turns, as the DRM and nested backends use them, with
    /// frames that find no buffer free (the parent holds them all): every buffer shown is
    /// pixel for pixel the output, whatever the damage.
    @Test(arguments: [2, 3]) func aSwapChainShowsEveryFrameExactly(buffers count: Int) throws {
        var random = SplitMix(seed: UInt64(count))
        var output = Pixels(size: Self.size, fill: 0)
        var buffers = (0..<count).map { _ in (pixels: Pixels(size: Self.size, fill: 0xdead), history: DamageHistory(size: Self.size)) }
        for frame in 1...300 {
            // Some frames change nothing; some many small rectangles, some a large one, some off the edge.
            let damage = (0..<Int(random.next() % 24)).map { _ in random.rect(within: Self.size) }
            for rect in damage { output.fill(rect, with: UInt32(frame)) }
            guard random.next() % 8 != 0 else {
                // No buffer free: every one misses this frame.
                for index in buffers.indices { buffers[index].history.miss(damage) }
                continue
            }
            let drawn = Int(random.next() % UInt64(count))
            for rect in buffers[drawn].history.catchUp(with: damage) { buffers[drawn].pixels.copy(rect, from: output) }
            for index in buffers.indices where index != drawn { buffers[index].history.miss(damage) }
            let wrong = buffers[drawn].pixels.firstDifference(from: output)
            try #require(wrong == nil, "frame \(frame), buffer \(drawn) (damage \(damage))")
        }
    }
}

/// An output's pixels as plain numbers, for the swap-chain test.
struct Pixels {
    let size: Size
    var values: [UInt32]

    init(size: Size, fill: UInt32) {
        self.size = size
        values = Array(repeating: fill, count: size.width * size.height)
    }

    /// The first pixel, row by row, where the two differ.
    func firstDifference(from other: Pixels) -> Position? {
        guard let index = values.indices.first(where: { values[$0] != other.values[$0] }) else { return nil }
        return Position(x: index % size.width, y: index / size.width)
    }

    mutating func fill(_ rect: Rect, with value: UInt32) {
        let r = rect.intersection(Rect(size: size))
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { values[y * size.width + x] = value } }
    }

    mutating func copy(_ rect: Rect, from other: Pixels) {
        let r = rect.intersection(Rect(size: size))
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { values[y * size.width + x] = other.values[y * size.width + x] } }
    }
}

/// A small seeded generator, so a failure replays.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A rectangle mostly inside `size`, sometimes reaching past its edges.
    mutating func rect(within size: Size) -> Rect {
        let x = Int(next() % UInt64(size.width + 8)) - 4, y = Int(next() % UInt64(size.height + 8)) - 4
        let large = next() % 4 == 0
        let width = Int(next() % UInt64(large ? size.width : 6)) + 1, height = Int(next() % UInt64(large ? size.height : 6)) + 1
        return Rect(x: x, y: y, width: width, height: height)
    }
}
