import Responder
import TactileRender

/// What a modal overlay's screen is made of on every output: the output darkened, and
/// lines of text centred on it, each kept as a picture until its words change (a countdown
/// draws one new line a second).
struct ScreenCard {
    /// A line: its words, size and colour.
    struct Line: Hashable {
        var text: String
        var points: Int
        var colour: UInt32 = 0xffffffff
        var bold = false
    }

    /// Pictures of lines drawn, by line and width; a card shows a handful.
    private var pictures: [LineKey: Image] = [:]
    /// What it shows changed since the last repaint took its damage.
    var changed = true

    private struct LineKey: Hashable {
        var line: Line
        var width: Int
    }

    /// Near-black at 85%: the app shows through faintly, so the screen is plainly a pause of
    /// the app and not another app.
    static let shade: UInt32 = 0xd9000000

    /// The shade over all of `output` and `lines` stacked around its middle, `gap` apart,
    /// starting `offset` pixels below the middle; where each line landed, globally.
    mutating func items(_ lines: [Line], on output: Output, offset: Int = 0, gap: Int = 24) -> [DrawItem] {
        let rect = output.placed.rect
        var items: [DrawItem] = []
        // One pixel stretched over the whole canvas (the renderers pad its edges), not a
        // picture of the screen's size kept.
        if let shade = Self.box(rect, Self.shade, on: output) { items.append(shade) }
        let width = max(1, rect.width * 9 / 10)
        let drawn = lines.compactMap { line in picture(line, width: width) }
        let height = drawn.reduce(0) { $0 + $1.size.height } + gap * max(drawn.count - 1, 0)
        var y = rect.y + rect.height / 2 - height / 2 + offset
        for image in drawn {
            if let item = output.overlayItem(image, at: Position(x: rect.x + (rect.width - image.size.width) / 2, y: y)) { items.append(item) }
            y += image.size.height + gap
        }
        return items
    }

    /// A modal screen's damage: every output, once after each change.
    mutating func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect] {
        guard changed else { return [] }
        changed = false
        return layout().map(\.rect)
    }

    /// A screen that counts down: `title` over the line `countdown` with the seconds filled in.
    mutating func countdown(_ title: String, _ countdown: String, seconds: Int, on output: Output) -> [DrawItem] {
        items([Line(text: title, points: 56, bold: true), Line(text: Self.filled(countdown, seconds: seconds), points: 32, colour: 0xffd0d0d0)], on: output)
    }

    /// A rectangle of one colour at a global place on `output`.
    static func box(_ global: Rect, _ colour: UInt32, on output: Output) -> DrawItem? {
        guard let bounds = output.canvasRect(of: global), !bounds.isEmpty, let pixel = MarkImages.shared.solid(Size(width: 1, height: 1), colour) else { return nil }
        let stretch = Affine(a: 1 / Double(bounds.width), b: 0, c: -Double(bounds.x) / Double(bounds.width),
                             d: 0, e: 1 / Double(bounds.height), f: -Double(bounds.y) / Double(bounds.height))
        return DrawItem(image: pixel, bounds: bounds, sampling: .transformed(stretch))
    }

    /// `line` centred in a global rectangle on `output`.
    mutating func label(_ line: Line, centredIn global: Rect, on output: Output) -> DrawItem? {
        guard let image = picture(line, width: max(1, global.width)) else { return nil }
        return output.overlayItem(image, at: Position(x: global.x + (global.width - image.size.width) / 2, y: global.y + (global.height - image.size.height) / 2))
    }

    /// A line's picture at `width`, drawn once.
    mutating func picture(_ line: Line, width: Int) -> Image? {
        let key = LineKey(line: line, width: width)
        if let image = pictures[key] { return image }
        guard let image = TextPicture.render(line.text, points: line.points, colour: line.colour, bold: line.bold, width: width) else { return nil }
        // A countdown's old seconds are not kept.
        if pictures.count >= 32 { pictures.removeAll() }
        pictures[key] = image
        return image
    }

    /// `template` with `{seconds}` filled in.
    static func filled(_ template: String, seconds: Int) -> String {
        template.split(separator: "{seconds}", omittingEmptySubsequences: false).joined(separator: String(seconds))
    }
}
