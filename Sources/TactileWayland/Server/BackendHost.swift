import Responder
import TactileRender

/// What a backend may ask of the server it serves, and all it sees of it: input events in,
/// fds and timers on the server's loop, outputs and seat capabilities announced, frames
/// reported shown. The server's `ServerPort` is the one implementation; a backend holds it as
/// this protocol, so a new backend (nested, KMS) needs nothing more of the server than the
/// others.
///
/// Everything here runs on the server's thread, as the backend's callbacks do.
public protocol BackendHost: AnyObject {
    /// Now, on the monotonic clock that libinput's event times use too.
    var currentTime: Instant { get }

    /// Routes one input event (global layout coordinates) to clients.
    func handle(_ event: InputEvent)

    /// Routes one event of the backend's device `device` to clients, through the filters
    /// the device was given (`setTouchFilters`).
    func handle(_ event: InputEvent, from device: InputDeviceID)

    /// `device` (named `name` in the log and the metrics) repairs its touches with
    /// `settings` from its next first touch on (`TouchFilters`); nil when it is unplugged.
    func setTouchFilters(_ settings: TouchFilterSettings?, for device: InputDeviceID, named name: String)

    /// A mouse or touchpad moved: the server moves the cursor (within the layout, and as
    /// pointer locks and confinement allow) and tells relative-pointer clients.
    func handleRelativeMotion(_ motion: RelativeMotion, time: Instant)

    /// The kinds of device the seat has now, as wl_seat.capabilities tells clients.
    func setSeatCapabilities(_ capabilities: InputCapabilities)

    /// The input devices present now, for a fleet's monitoring (`ServerStatistics`).
    func inputDevicesChanged(_ devices: [InputDeviceSummary])

    /// The backend's touchscreens came or went (`control.touchscreens`): calibration finds
    /// them, their matrices and their touches through `control`.
    func touchscreensChanged(_ control: any TouchscreenControl)

    /// Pen `pen` (the number its events carry) is `tool`, as tablet-v2 clients are told; sent
    /// before its first proximity. A pen never described is `PenTool.standard`.
    func describePen(_ pen: Int32, as tool: PenTool)

    /// The backend's pad `pad` (its number in `InputEvent.pad`) is `description`.
    func describePad(_ pad: Int32, as description: PadDescription)

    /// The tablet was unplugged: clients see its pens' tools, its pads and the tablet removed.
    func tabletRemoved(_ tablet: TabletDescription)

    /// Calls `onReadable` whenever `fd` can be read, for as long as the source is kept.
    func watch(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> EventSource

    /// As `watch`, for an input device's fd: the server also calls `onReadable` (which must
    /// read without blocking) before a timer decides by the events' own times (a hold that
    /// counts, a held lift let go, a long press), so that input stamped before the deadline
    /// and waiting while the loop was busy (composing a frame) is heard first.
    func watchInput(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> EventSource

    /// A timer on the server's loop, disarmed until `EventSource.arm(milliseconds:)`.
    func makeTimer(_ fire: @escaping () -> Void) -> EventSource

    /// A deadline on the server's loop, to the microsecond, disarmed until
    /// `EventSource.arm(at:)`: for frames timed to a refresh grid.
    func makeDeadline(_ fire: @escaping () -> Void) -> EventSource

    /// Announces an output: clients see a wl_output global, and windows may go there. It is
    /// placed at `description.position`, or to the right of the outputs already there.
    func addOutput(_ description: OutputDescription, presenter: any OutputPresenter) -> OutputID

    /// The output went (unplugged, closed): its windows move to another output, clients see
    /// its wl_output go.
    func removeOutput(_ output: OutputID)

    /// The output's mode, scale or place changed (a parent window resized, a new mode set):
    /// clients hear wl_output's new description, and windows that fill it are reconfigured.
    func updateOutput(_ output: OutputID, _ description: OutputDescription)

    /// A frame asked for with `OutputPresenter.present` is on screen: clients' frame
    /// callbacks complete with its time, and presentation feedback reports it.
    func outputPresented(_ output: OutputID, _ frame: PresentedFrame)

    /// What composes the frames (`ServerConfiguration.renderer`): a backend with GPU buffers
    /// of its own asks it to draw into them (`Renderer.makeTarget`).
    var renderer: any Renderer { get }

    /// The outputs and where they lie in the global layout, in the order they were added.
    var outputLayout: [PlacedOutput] { get }
}

extension BackendHost {
    /// A frame shown at `time` by a backend that knows no more of it (a timer, a parent
    /// compositor's frame callback): no vblank counter, no hardware timing.
    public func outputPresented(_ output: OutputID, at time: Instant) {
        outputPresented(output, PresentedFrame(time: time))
    }
}
