import Responder

/// The configuration file's `session` section: a session that starts over when the customer
/// walks away. Off unless `resetAfter` is given.
public struct SessionResetSettings: Sendable, Hashable {
    /// Seconds with no input before the warning shows (or, without one, the reset comes).
    public var resetAfter: Int?
    /// Seconds the warning counts down before the reset; 0: no warning.
    public var warning: Int
    /// The warning's words, and its countdown's, where `{seconds}` stands for what is left:
    /// in the kiosk's own language.
    public var text: String
    public var countdown: String

    public static let seconds: ClosedRange<Int> = 1...86_400
    public static let warnings: ClosedRange<Int> = 0...600

    public init(resetAfter: Int? = nil, warning: Int = 20, text: String = "Still there?\nTouch to continue",
                countdown: String = "Starting over in {seconds} s") {
        self.resetAfter = resetAfter
        self.warning = warning
        self.text = text
        self.countdown = countdown
    }
}

/// The configuration file's `cleaning` section: what `action: clean-screen` shows.
public struct CleaningSettings: Sendable, Hashable {
    /// Seconds every touch goes nowhere.
    public var duration: Int
    /// Seconds a finger held still in a corner ends cleaning early; 0: it runs its time.
    public var endHold: Int
    public var text: String
    public var countdown: String

    public static let durations: ClosedRange<Int> = 1...3600
    public static let holds: ClosedRange<Int> = 0...30

    public init(duration: Int = 30, endHold: Int = 3, text: String = "Cleaning", countdown: String = "Touch works again in {seconds} s") {
        self.duration = duration
        self.endHold = endHold
        self.text = text
        self.countdown = countdown
    }
}

/// The configuration file's `staff` section: the door staff leave the app by. Its knock is a
/// gesture with `action: staff-door` (by default a long press in `corner`), then `taps` taps
/// in that corner; then the PIN pad.
public struct StaffSettings: Sendable, Hashable {
    /// The PIN's salted hash, crypt(3)'s format (`tactile staff-pin` prints it).
    public var pinHash: String
    public var corner: Corner
    public var taps: Int
    /// What the right PIN opens.
    public var opens: StaffDoorOpens

    public static let tapCounts: ClosedRange<Int> = 0...10

    public init(pinHash: String, corner: Corner = .topRight, taps: Int = 5, opens: StaffDoorOpens = .exit) {
        self.pinHash = pinHash
        self.corner = corner
        self.taps = taps
        self.opens = opens
    }
}

/// What is behind the staff door.
public enum StaffDoorOpens: Sendable, Hashable {
    /// Tactile stops (and with it the app): the kiosk's supervisor takes over.
    case exit
    /// The session starts over, as an idle reset does.
    case restart
    /// `/bin/sh -c` a command beside the app (a second app: a settings screen, a terminal).
    case run(String)
}
