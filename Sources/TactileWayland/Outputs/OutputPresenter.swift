import Responder

/// The backend side of an output: given each new frame the server composed, it shows it and
/// answers with `BackendHost.outputPresented` once it is on screen (at the next vblank, the
/// parent compositor's frame callback, or a timer when headless). Output managers and the
/// configuration file reach the screen itself through it too: its mode, and whether it is lit.
public protocol OutputPresenter: AnyObject {
    /// Called at most once per `outputPresented`: a backend has one frame in flight per output.
    func present(_ frame: OutputFrame)

    /// Shows the next frame in `mode`, one of the output's `OutputDescription.modes`: the
    /// output's description in that mode, or nil when the screen cannot take it (the backend
    /// logs why) and keeps the one it has. A frame in flight is still answered.
    func setMode(_ mode: OutputMode) -> OutputDescription?

    /// The output left the layout (false: its screen goes dark, and no frame is asked of it)
    /// or came back (true: the next frame lights it again).
    func setEnabled(_ enabled: Bool)

    /// The panel sleeps (false: idle blanking, an output-power client; the output stays in
    /// the layout, and no frame is asked of it) or wakes (true: the next frame shows).
    func setPower(_ on: Bool)

    /// Whether a parent compositor composes the frames it is given again (a nested window):
    /// the frame clock then composes each at once and leaves the vblank to the parent, whose
    /// own composition needs its budget before it. The parent's times and flags still reach
    /// clients' presentation feedback.
    var composedAgainByAParent: Bool { get }
}

/// What a backend whose screens have one mode and cannot go dark does (headless outputs,
/// nested windows): no other mode, and a disabled or sleeping output simply gets no frames.
extension OutputPresenter {
    public var composedAgainByAParent: Bool { false }
    public func setMode(_ mode: OutputMode) -> OutputDescription? { nil }
    public func setEnabled(_ enabled: Bool) {}
    public func setPower(_ on: Bool) {}
}
