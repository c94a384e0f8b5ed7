/// A compositor gesture's state machine (DESIGN.md §1.3). Discrete gestures go
/// possible → recognized | failed; continuous ones possible → began → changed* → ended |
/// cancelled | failed.
public enum GestureState: Hashable, Sendable {
    case possible, began, changed, ended, cancelled, failed, recognized

    /// Nothing more will happen until the recognizer is reset.
    var isFinal: Bool { self == .ended || self == .cancelled || self == .failed || self == .recognized }
    /// Still interested in touches: undecided, or continuing.
    var isLive: Bool { self == .possible || self == .began || self == .changed }
}

/// What a recognizer is told: events of the touches offered to it (global output pixels),
/// and the passing of a deadline it asked for.
public enum GestureInput: Hashable, Sendable {
    case down(id: Int32, global: Point, time: Instant)
    case motion(id: Int32, global: Point, time: Instant)
    case up(id: Int32, time: Instant)
    /// The device gave up on the touch.
    case cancel(id: Int32, time: Instant)
    case deadline(Instant)
}

/// A gesture recognizer: a value that reads touch input and says which state it is in. The
/// arena (`InputRouter+Gestures`) decides who wins; a recognizer only judges its own shape.
public protocol GestureRecognizer {
    /// Whether to take a new touch on its node's path; `bounds` is the node's rectangle,
    /// globally (the output for system gestures). A touch it declines never involves it:
    /// winning does not claim that touch, and it does not hold it back.
    func wantsTouch(at global: Point, in bounds: Rect) -> Bool
    /// Reads one input of a touch it took, or a deadline; returns the state after it.
    mutating func handle(_ input: GestureInput) -> GestureState
    /// When the recognizer wants a `.deadline` input, if at all.
    var deadline: Instant? { get }
    /// Back to possible, forgetting every touch: called once its touches are all up and it
    /// has decided.
    mutating func reset()
    /// Where the gesture stands, for its action and the trace.
    var detail: GestureDetail { get }
    /// The screen edge the gesture starts from, if it is a system edge gesture: a client may
    /// defer it over parts of its surfaces (`Node.edgeGestureDeferral`).
    var systemEdge: Edge? { get }
    /// How many fingers the gesture is made of, if a fixed number: a touchpad gesture of
    /// another count is not offered to it (a 4-finger swipe is no 3-finger swipe).
    var fingerCount: Int? { get }
    /// The one kind of touchpad gesture it reads, if it reads only one: a touchpad swipe
    /// recognizer is not offered libinput's pinches, however far they travel.
    var touchpadKind: TouchpadGesture? { get }
}

extension GestureRecognizer {
    public var systemEdge: Edge? { nil }
    public var fingerCount: Int? { nil }
    public var touchpadKind: TouchpadGesture? { nil }
}

/// Where a recognizer's fingers come from.
public enum GestureDevice: String, Hashable, Sendable, CaseIterable {
    /// Touches on the screen, offered along their hit path.
    case touchscreen
    /// The fingers of a touchpad gesture (`InputEvent.touchpadGestureBegin`), laid out around
    /// the pointer and moved as the gesture reports.
    case touchpad
}

/// A side of a node's rectangle: of the output, for system edge gestures.
public enum Edge: String, Hashable, Sendable, CaseIterable { case left, right, top, bottom }

/// What a recognizer has measured so far: the numbers an action gets in its environment and
/// the trace shows as a continuous gesture progresses.
public struct GestureDetail: Hashable, Sendable {
    /// Where the gesture is now, globally: its finger, or the centroid of its fingers.
    public var location: Point
    /// How far `location` has moved since the gesture's fingers were all down.
    public var translation: Point
    /// The fingers' spread now over their spread at the start (1 when it does not apply).
    public var scale: Double
    /// Fingers down now, or taps made for a tap.
    public var count: Int

    public init(location: Point, translation: Point = Point(x: 0, y: 0), scale: Double = 1, count: Int) {
        self.location = location
        self.translation = translation
        self.scale = scale
        self.count = count
    }
}

/// Names a recognizer added to a router.
public struct GestureID: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    public var description: String { "gesture \(value)" }
}

/// UIKit's arbitration options, with UIKit's defaults.
public struct GestureOptions: Hashable, Sendable {
    /// When the gesture wins, clients that saw any of its touches get wl_touch.cancel.
    public var cancelsTouchesInView = true
    /// While the gesture is possible, its touches are held back from clients.
    public var delaysTouchesBegan = false
    /// While the gesture is possible, an up is held back from the client.
    public var delaysTouchesEnded = true
    /// What it is offered, as UIKit's allowedTouchTypes: fingers, and a pen's strokes (tip
    /// down to up). Touch only by default, so a pen signing near an edge starts no system
    /// gesture and is never taken by one.
    public var inputTypes: InputTypes = .touch

    public init(cancelsTouchesInView: Bool = true, delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true, inputTypes: InputTypes = .touch) {
        self.cancelsTouchesInView = cancelsTouchesInView
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.inputTypes = inputTypes
    }
}

/// The kinds of pointing input a touchscreen recognizer may be offered.
public struct InputTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let touch = InputTypes(rawValue: 1 << 0)
    public static let pen = InputTypes(rawValue: 1 << 1)
}

/// A recognizer changed state: what the compositor acts on (run an action, show progress).
public struct GestureEvent: Hashable, Sendable {
    public var gesture: GestureID
    public var state: GestureState
    public var time: Instant
    public var detail: GestureDetail
}
