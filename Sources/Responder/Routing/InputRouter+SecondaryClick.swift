/// `touch.secondary-click`: in the pointer emulation (a touch on an app without wl_touch), a
/// finger held still for the wait is a right click where it is, and sends no left button at
/// all; one that moves first drags with the left button, and one that lifts first clicks
/// it, as without the setting. So the left press waits: until the finger moves past the
/// slop, lifts, or the wait ends. Apps with wl_touch are left their own long press.
struct EmulatedLongPress {
    let touch: Int32
    let at: Point
    let time: Instant
    let wait: Duration
    /// The right click was sent: the rest of the touch sends nothing.
    var clicked = false

    var deadline: Instant? { clicked ? nil : time.saturating(wait) }
}

extension InputRouter {
    /// How far (layout pixels) a finger may move and still be held still: less than a
    /// deliberate drag's start, more than a finger's wobble.
    public static let secondaryClickSlop = 12.0

    /// The countdown to draw under a finger that will right-click if it stays.
    public var secondaryClickRing: TouchRing? {
        guard let press = longPress, let end = press.deadline else { return nil }
        return TouchRing(touch: press.touch, at: press.at, start: press.time, end: end, purpose: .secondaryClick)
    }

    /// An emulated touch comes down: the pointer goes there; its left button goes down now,
    /// or, with a secondary click, once the touch shows what it is.
    mutating func beginEmulatedPress(_ id: Int32, at global: Point, _ time: Instant, _ sink: inout some DeliverySink) {
        movePointer(to: global, time, &sink)
        guard let wait = policy.secondaryClick else { return pressPointer(Self.leftButton, .pressed, time, &sink) }
        longPress = EmulatedLongPress(touch: id, at: global, time: time, wait: wait)
    }

    /// Whether the emulated touch's motion moves the pointer: not while it may still be a
    /// long press and stays within the slop, nor after its right click. A motion past the
    /// slop presses the left button where the finger came down first: a drag.
    mutating func emulatedMotionMovesPointer(_ id: Int32, to global: Point, _ time: Instant, _ sink: inout some DeliverySink) -> Bool {
        guard let press = longPress, press.touch == id else { return true }
        if press.clicked || global.distanceSquared(to: press.at) <= Self.secondaryClickSlop * Self.secondaryClickSlop { return false }
        longPress = nil
        pressPointer(Self.leftButton, .pressed, time, &sink)
        return true
    }

    /// The emulated touch lifted: a left click if it was still waiting, nothing after a
    /// right click, else the left button's release.
    mutating func endEmulatedPress(_ id: Int32, _ time: Instant, _ sink: inout some DeliverySink) {
        guard let press = longPress, press.touch == id else { return pressPointer(Self.leftButton, .released, time, &sink) }
        longPress = nil
        guard !press.clicked else { return }
        pressPointer(Self.leftButton, .pressed, time, &sink)
        pressPointer(Self.leftButton, .released, time, &sink)
    }

    /// The emulated touch was cancelled (by the device, or a gesture won it): a waiting press
    /// sends nothing.
    mutating func cancelEmulatedPress(_ id: Int32, _ time: Instant, _ sink: inout some DeliverySink) {
        if let press = longPress, press.touch == id {
            longPress = nil
            return
        }
        if pointer.pressed.contains(Self.leftButton) { pressPointer(Self.leftButton, .released, time, &sink) }
    }

    /// The wait is over with the finger still: a right button press and release at the
    /// pointer, which the finger has not moved.
    mutating func fireSecondaryClick(at now: Instant, _ sink: inout some DeliverySink) {
        guard let press = longPress, let deadline = press.deadline, deadline <= now else { return }
        longPress?.clicked = true
        if sink.isTracing { sink.trace(.secondaryClick(touch: press.touch, pointer.focus?.client, held: deadline.since(press.time))) }
        pressPointer(Self.rightButton, .pressed, deadline, &sink)
        pressPointer(Self.rightButton, .released, deadline, &sink)
    }

    /// BTN_RIGHT of linux/input-event-codes.h.
    static var rightButton: UInt32 { 0x111 }
}
