import Responder

/// The backend side of an output: given each new frame the server composed, it shows it and
/// answers with `BackendHost.outputPresented` once it is on screen (at the next vblank, the
/// parent compositor's frame callback, or a timer when headless).
public protocol OutputPresenter: AnyObject {
    /// Called at most once per `outputPresented`: a backend has one frame in flight per output.
    func present(_ frame: OutputFrame)
}
