import Responder

/// A system gesture the server installs on the output, and what it does when it happens.
/// The configuration file declares these (`tactile --config`); tests build them directly.
public struct GestureBinding: Sendable {
    /// How the gesture is named in the log and in a command's environment.
    public var name: String
    public var recognizer: any GestureRecognizer & Sendable
    public var options: GestureOptions
    /// Whose fingers it reads: the touchscreen's, or a touchpad's gestures.
    public var device: GestureDevice
    public var action: GestureAction
    /// When a continuous gesture's action runs: as it begins (wins), or when it ends
    /// normally. A discrete gesture acts when it is recognized either way.
    public var actsWhen: ActionMoment
    /// Names of gestures that may win the same touches alongside this one.
    public var simultaneousWith: [String]
    /// Names of gestures that must fail before this one may win.
    public var requiresFailureOf: [String]

    public init(
        name: String, recognizer: any GestureRecognizer & Sendable, options: GestureOptions = GestureOptions(),
        device: GestureDevice = .touchscreen, action: GestureAction = .none, actsWhen: ActionMoment = .recognized, simultaneousWith: [String] = [],
        requiresFailureOf: [String] = []
    ) {
        self.name = name
        self.recognizer = recognizer
        self.options = options
        self.device = device
        self.action = action
        self.actsWhen = actsWhen
        self.simultaneousWith = simultaneousWith
        self.requiresFailureOf = requiresFailureOf
    }
}

public enum ActionMoment: String, Sendable, CaseIterable {
    case recognized, ended
}

/// What a kiosk does with a gesture.
public enum GestureAction: Sendable, Hashable {
    /// Only the log (and, for continuous gestures, their progress at debug level).
    case none
    /// `/bin/sh -c` the command, with the gesture in its environment (TACTILE_GESTURE,
    /// TACTILE_GESTURE_STATE, _X, _Y, _DX, _DY, _SCALE, _COUNT) and WAYLAND_DISPLAY naming
    /// this server when it listens on a socket.
    case run(String)
    /// Raise the bottom-most window and give it keyboard focus: repeated, it cycles through
    /// every window.
    case focusNext
    /// Ask the window holding keyboard focus to close (xdg_toplevel.close).
    case closeFocused
    /// A kiosk's cleaning screen: every touch goes nowhere for the configuration's
    /// `cleaning.duration`.
    case cleanScreen
    /// The staff door's knock: then its taps, then the PIN pad (`staff:`).
    case staffDoor
}
