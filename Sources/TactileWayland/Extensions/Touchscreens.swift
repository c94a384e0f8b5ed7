import Responder

/// A touchscreen as calibration sees it: the device by its udev syspath (how weston's
/// calibration protocol and `devices[].match` name it) and the output its touches map to.
public struct TouchscreenDescription: Sendable, Equatable {
    public var syspath: String
    /// The kernel's name for it, for people.
    public var name: String
    /// The output its touches land on, by name, and the rule that chose it.
    public var output: String
    public var mappedBy: TouchscreenMapping
    /// Whether libinput lets its calibration matrix be set.
    public var calibratable: Bool

    public init(syspath: String, name: String, output: String, mappedBy: TouchscreenMapping, calibratable: Bool) {
        self.syspath = syspath
        self.name = name
        self.output = output
        self.mappedBy = mappedBy
        self.calibratable = calibratable
    }
}

/// Which rule mapped a touchscreen to its output, as the log says it.
public enum TouchscreenMapping: String, Sendable {
    /// `devices[].output`.
    case configuration
    /// udev's WL_OUTPUT.
    case udev
    /// The one output of its physical size (`ScreenBySize`).
    case size
    /// Nothing said: the first output.
    case first
    /// A person touched the screen (`tactile calibrate --map`).
    case touch

    /// Whether the output was guessed rather than said by someone.
    public var isGuess: Bool { self == .size || self == .first }
}

/// One touch while a touchscreen is taken for calibration, before any calibration matrix
/// (the backend has set the identity) and before the output's transform: the position is a
/// fraction of the output's width and height, and may fall outside 0...1 on a panel whose
/// readings reach past its screen.
public enum CapturedTouch: Sendable, Equatable {
    case down(id: Int32, at: Point)
    case motion(id: Int32, to: Point)
    case up(id: Int32)
    case frame
    /// The device went or its seat was disabled: every touch down is void.
    case cancel
}

/// The backend's side of calibration (the libinput backend implements it): the matrix of
/// each touchscreen, and its touches taken away from clients while a calibrator shows.
public protocol TouchscreenControl: AnyObject {
    /// The touchscreens present now.
    var touchscreens: [TouchscreenDescription] { get }
    /// libinput's calibration matrix (row-major, the first two rows), or nil for a device
    /// that is gone or has none.
    func calibration(of syspath: String) -> [Float]?
    /// Sets it; false where the device is gone or libinput refuses.
    @discardableResult
    func setCalibration(_ matrix: [Float], of syspath: String) -> Bool
    /// Maps the touchscreen to the output named, from now until it is unplugged (`tactile
    /// calibrate --map`); the backend logs it.
    func map(_ syspath: String, to output: String)
    /// While set, every touchscreen's touches go to `receiver` (with the device's syspath and
    /// the event's time) instead of the seat; nil gives them back.
    func capture(_ receiver: ((String, CapturedTouch, Instant) -> Void)?)
}
