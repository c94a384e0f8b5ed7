import Responder
import TactileRender

/// The staff door's PIN pad, drawn by Tactile over everything on every output: a title, a
/// dot per digit typed (never the digits), a line for what happened, and twelve keys (1 to 9,
/// ⌫, 0, OK) over a Cancel bar. A key counts when a finger lifts on the key it came down on.
/// What it does with a PIN is `StaffDoor`'s.
final class PinPad: Overlay {
    var isModal: Bool { true }
    /// The digits typed so far; only `StaffDoor` reads them.
    private(set) var entered: [UInt8] = []
    /// The line under the dots: a wrong PIN, a lockout's seconds.
    var message = "" { didSet { if message != oldValue { card.changed = true } } }
    /// OK with these digits, or Cancel.
    var submitted: ([UInt8]) -> Void = { _ in }
    var cancelled: () -> Void = {}
    /// Any touch on it: the pad's own timeout starts again.
    var touched: () -> Void = {}
    private var card = ScreenCard()
    /// Fingers down, and the key each came down on.
    private var pressed: [Int32: Key] = [:]

    enum Key: Hashable {
        case digit(UInt8), erase, ok, cancel

        var label: String {
            switch self {
            case .digit(let d): String(d)
            case .erase: "⌫"
            case .ok: "OK"
            case .cancel: "Cancel"
            }
        }
    }

    static let keySize = Size(width: 120, height: 84)
    static let gap = 16
    static let rows: [[Key]] = [[.digit(1), .digit(2), .digit(3)], [.digit(4), .digit(5), .digit(6)],
                                [.digit(7), .digit(8), .digit(9)], [.erase, .digit(0), .ok]]

    /// Starts empty, as when first shown.
    func clear() {
        entered.removeAll()
        pressed.removeAll()
        message = ""
        card.changed = true
    }

    /// Every key's place on an output whose rectangle is `output`: the grid under the
    /// middle, Cancel across its foot.
    static func keys(in output: Rect) -> [(key: Key, rect: Rect)] {
        let width = 3 * keySize.width + 2 * gap
        let left = output.x + (output.width - width) / 2, top = output.y + output.height / 2 - 170
        var keys: [(Key, Rect)] = []
        for (row, items) in rows.enumerated() {
            for (column, key) in items.enumerated() {
                keys.append((key, Rect(x: left + column * (keySize.width + gap), y: top + row * (keySize.height + gap),
                                       width: keySize.width, height: keySize.height)))
            }
        }
        keys.append((.cancel, Rect(x: left, y: top + 4 * (keySize.height + gap), width: width, height: 64)))
        return keys
    }

    private func key(at point: Point, in layout: [PlacedOutput]) -> Key? {
        for output in layout where output.rect.contains(point) {
            return Self.keys(in: output.rect).first { $0.rect.contains(point) }?.key
        }
        return nil
    }

    /// Where the touch lands is `StaffDoor`'s to judge through the layout it hands in.
    var layout: () -> [PlacedOutput] = { [] }

    func touch(_ event: InputEvent) {
        switch event {
        case .touchDown(let id, let global, _):
            touched()
            guard let key = key(at: global, in: layout()) else { return }
            pressed[id] = key
            card.changed = true
        case .touchUp(let id, _):
            guard let key = pressed.removeValue(forKey: id) else { return }
            card.changed = true
            press(key)
        case .touchCancel(let id, _):
            if pressed.removeValue(forKey: id) != nil { card.changed = true }
        case .touchMotion(let id, let global, _):
            // A finger sliding off its key presses nothing.
            if let key = pressed[id], self.key(at: global, in: layout()) != key {
                pressed[id] = nil
                card.changed = true
            }
        default:
            break
        }
    }

    private func press(_ key: Key) {
        switch key {
        case .digit(let d):
            if entered.count < StaffPin.lengths.upperBound { entered.append(d) }
        case .erase:
            _ = entered.popLast()
        case .ok:
            let pin = entered
            entered.removeAll()
            submitted(pin)
        case .cancel:
            entered.removeAll()
            cancelled()
        }
    }

    func takeDamage(in layout: () -> [PlacedOutput]) -> [Rect] { card.takeDamage(in: layout) }

    func items(on output: Output, at now: Instant) -> [DrawItem] {
        let rect = output.placed.rect
        var items = card.items([], on: output)
        let top = rect.y + rect.height / 2 - 170
        let dots = entered.isEmpty ? "–" : String(repeating: "● ", count: entered.count).dropLast()
        let lines: [(ScreenCard.Line, Int)] = [(ScreenCard.Line(text: "Staff PIN", points: 36, bold: true), top - 170),
                                               (ScreenCard.Line(text: String(dots), points: 32), top - 115),
                                               (ScreenCard.Line(text: message, points: 24, colour: 0xffffb0b0), top - 60)]
        for (line, y) in lines where !line.text.isEmpty {
            if let item = card.label(line, centredIn: Rect(x: rect.x, y: y, width: rect.width, height: 50), on: output) { items.append(item) }
        }
        let held = Set(pressed.values)
        for (key, box) in Self.keys(in: rect) {
            if let item = ScreenCard.box(box, held.contains(key) ? 0xff707070 : 0xff383838, on: output) { items.append(item) }
            if let item = card.label(ScreenCard.Line(text: key.label, points: key == .cancel ? 26 : 34, bold: true), centredIn: box, on: output) {
                items.append(item)
            }
        }
        return items
    }
}
