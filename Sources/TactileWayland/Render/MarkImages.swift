import Glibc
import Responder
import TactileRender

/// The show-touches overlay's pictures, drawn once per colour and kept: a disc for a finger
/// that is down, a ring for one that lifted, trail dots, crosses, and solid outline bars.
/// Every picture's centre 3x3 pixels are its opaque colour, so a screenshot can find a touch
/// at the exact pixel it landed on.
final class MarkImages {
    /// The server's thread is the only one that draws.
    nonisolated(unsafe) static let shared = MarkImages()

    static let radius = 14
    /// Owners' colours, by client: distinguishable on a dark background and on each other.
    static let palette: [UInt32] = [0xff1e90ff, 0xffff8c00, 0xff32cd32, 0xffff00ff, 0xff00ced1, 0xffffd700]
    /// A touch nobody owns.
    static let unowned: UInt32 = 0xff909090
    static let cancelledColour: UInt32 = 0xffff2020
    static let claimedColour: UInt32 = 0xffffffff
    static let outlineColour: UInt32 = 0xffffff00

    static func colour(of owner: ClientID?) -> UInt32 {
        guard let owner else { return unowned }
        return palette[Int(owner.rawValue % UInt64(palette.count))]
    }

    private var cache: [String: Image] = [:]

    func disc(_ colour: UInt32) -> Image? { picture("disc", colour, side: 2 * Self.radius + 1) { d, ring in d <= ring ? (d >= ring - 2 ? 0xff : 0x60) : 0 } }
    func ring(_ colour: UInt32) -> Image? { picture("ring", colour, side: 2 * Self.radius + 1) { d, ring in d <= ring && d >= ring - 2 ? 0xff : 0 } }
    func dot(_ colour: UInt32) -> Image? { picture("dot", colour, side: 5) { d, _ in d <= 2.3 ? 0xff : 0 } }

    func cross(_ colour: UInt32) -> Image? {
        picture("cross", colour, side: 2 * Self.radius + 1, alphaAt: { x, y, side in
            let (u, v) = (Double(x), Double(y))
            let span = Double(side - 1)
            return abs(u - v) <= 1.5 || abs(u + v - span) <= 1.5 ? 0xff : 0
        })
    }

    /// A countdown ring, `step` of `steps` full: the filled arc opaque from the top
    /// clockwise, the rest a faint track, wider than a finger so it shows around one.
    func countdown(_ colour: UInt32, step: Int, of steps: Int) -> Image? {
        let filled = Double(min(max(step, 0), steps)) / Double(steps) * 2 * Double.pi
        return picture("countdown \(step)/\(steps)", colour, side: 2 * Self.countdownRadius + 1, alphaAt: { x, y, side in
            let centre = Double(side - 1) / 2
            let (dx, dy) = (Double(x) - centre, Double(y) - centre)
            let d = (dx * dx + dy * dy).squareRoot()
            guard d <= centre, d >= centre - 4 else { return 0 }
            // Clockwise from twelve o'clock, in 0..<2π.
            var angle = atan2(dx, -dy)
            if angle < 0 { angle += 2 * Double.pi }
            return angle < filled ? 0xff : 0x50
        })
    }

    static let countdownRadius = 28

    func solid(_ size: Size, _ colour: UInt32) -> Image? {
        let key = "solid \(size.width)x\(size.height) \(colour)"
        if let image = cache[key] { return image }
        guard let image = Image(size: size, opaque: false) else { return nil }
        fill(image) { _, _ in colour }
        if cache.count < 256 { cache[key] = image }
        return image
    }

    /// A round picture: `alpha(distance from centre, outer radius)`.
    private func picture(_ kind: String, _ colour: UInt32, side: Int, alpha: @escaping (Double, Double) -> UInt32) -> Image? {
        let centre = Double(side - 1) / 2
        return picture(kind, colour, side: side) { x, y, _ in
            alpha(((Double(x) - centre) * (Double(x) - centre) + (Double(y) - centre) * (Double(y) - centre)).squareRoot(), centre)
        }
    }

    private func picture(_ kind: String, _ colour: UInt32, side: Int, alphaAt: @escaping (Int, Int, Int) -> UInt32) -> Image? {
        let key = "\(kind) \(colour)"
        if let image = cache[key] { return image }
        guard let image = Image(size: Size(width: side, height: side), opaque: false) else { return nil }
        let centre = side / 2
        fill(image) { x, y in
            let a = abs(x - centre) <= 1 && abs(y - centre) <= 1 ? 0xff : alphaAt(x, y, side)
            return Self.premultiplied(colour, alpha: a)
        }
        cache[key] = image
        return image
    }

    private func fill(_ image: Image, _ pixel: (Int, Int) -> UInt32) {
        let words = image.stride / 4
        let pixels = image.pixels.bindMemory(to: UInt32.self, capacity: words * image.size.height)
        for y in 0..<image.size.height {
            for x in 0..<image.size.width { pixels[y * words + x] = pixel(x, y) }
        }
    }

    /// pixman's a8r8g8b8 is premultiplied.
    private static func premultiplied(_ colour: UInt32, alpha: UInt32) -> UInt32 {
        let scale = { (channel: UInt32) in (channel & 0xff) * alpha / 0xff }
        return alpha << 24 | scale(colour >> 16) << 16 | scale(colour >> 8) << 8 | scale(colour)
    }
}

extension Output {
    /// An overlay picture with its centre at a global point.
    func overlayItem(_ image: Image?, centredAt global: Point) -> DrawItem? {
        guard let image else { return nil }
        let pixel = global.overlayPixel
        return overlayItem(image, at: Position(x: pixel.x - image.size.width / 2, y: pixel.y - image.size.height / 2))
    }
}

extension Point {
    /// The pixel a mark is centred on. A finite point can still be too far for `Int`; far
    /// off every output, it is held a billion pixels out, which draws nothing.
    var overlayPixel: Position {
        let clamp = { (value: Double) in Int(min(max(value, -1e9), 1e9).rounded(.down)) }
        return Position(x: clamp(x), y: clamp(y))
    }
}
