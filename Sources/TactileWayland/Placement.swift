import Responder

/// Where new toplevels go. Predictable on purpose: the n-th toplevel cascades to
/// (32·(n mod 10), 32·(n mod 10)), so tests and kiosk scripts know where a window appears.
/// In kiosk mode every toplevel is told to take the whole output and sits at the origin.
struct Placement {
    let kiosk: Bool
    private var placed = 0

    init(kiosk: Bool) {
        self.kiosk = kiosk
    }

    mutating func nextToplevelPosition() -> Position {
        guard !kiosk else { return .zero }
        defer { placed += 1 }
        let step = 32 * (placed % 10)
        return Position(x: step, y: step)
    }
}
