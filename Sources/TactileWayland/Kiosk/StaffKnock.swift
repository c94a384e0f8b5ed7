import Responder

/// The taps after the staff door's gesture: while it listens (a few seconds), a touch that
/// comes down in its square is taken, and counts when it lifts soon and near where it came
/// down; the last one opens the PIN pad. A touch elsewhere ends the listening and goes on
/// to the app as any other, so a customer who long-pressed the corner by chance loses at
/// most a tap on it.
final class StaffKnock: InputGrab {
    private let square: Rect
    private let needed: Int
    private var counted = 0
    /// The touch being taken, where and when it came down.
    private var current: (id: Int32, at: Point, time: Instant)?
    /// Every tap came; `false`: the knock was given up.
    private let done: (StaffKnock, Bool) -> Void

    static let tapTime = Duration.milliseconds(500)
    static let slop = 24.0
    /// The square the taps fall in, centred where the gesture was.
    static let side = 160

    init(around point: Point, taps: Int, done: @escaping (StaffKnock, Bool) -> Void) {
        let p = point.overlayPixel
        square = Rect(x: p.x - Self.side / 2, y: p.y - Self.side / 2, width: Self.side, height: Self.side)
        needed = taps
        self.done = done
    }

    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        switch event {
        case .touchDown(let id, let global, let time):
            guard current == nil, square.contains(global) else {
                done(self, false)
                return event
            }
            current = (id, global, time)
            return nil
        case .touchMotion(let id, let global, _) where id == current?.id:
            if let current, !global.isWithin(Self.slop, of: current.at) { self.current?.at = Point(x: .infinity, y: .infinity) }
            return nil
        case .touchUp(let id, let time) where id == current?.id:
            defer { current = nil }
            guard let current, current.at.x.isFinite, time - current.time <= Self.tapTime else {
                done(self, false)
                return nil
            }
            counted += 1
            if counted >= needed { done(self, true) }
            return nil
        case .touchCancel(let id, _) where id == current?.id:
            current = nil
            done(self, false)
            return nil
        default:
            return event
        }
    }
}
