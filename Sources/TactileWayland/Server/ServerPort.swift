import CWaylandServer
import Responder
import TactileRender

/// The server as what hosts it sees it: backends (`BackendHost`: input in, outputs and seat
/// capabilities announced, fds and timers on the loop), the WLCS integration (clients over
/// socket pairs, windows placed) and the gesture actions (focus moved between windows, a
/// window closed). A facet, as swift-nio has them: the server's own members are what its
/// parts and surfaces use; this is its face to layers 3 and 4. It forwards only: what an
/// output's coming or going does is in `WaylandServer+Outputs` and the parts' hooks.
public final class ServerPort: BackendHost {
    /// Strong: a backend keeps the server it serves, as the server's loop keeps its sources.
    let server: WaylandServer

    init(server: WaylandServer) { self.server = server }

    public var currentTime: Instant { server.currentTime }

    public var renderer: any Renderer { server.renderer }

    public func handle(_ event: InputEvent) { server.handle(event) }

    public func handle(_ event: InputEvent, from device: InputDeviceID) { server.handle(event, from: device) }

    public func setTouchFilters(_ settings: TouchFilterSettings?, for device: InputDeviceID, named name: String) {
        server.parts.touchFiltering.set(settings, for: device, named: name, now: currentTime) { [server] in server.routeFiltered($0) }
    }

    public func handleRelativeMotion(_ motion: RelativeMotion, time: Instant) { server.handleRelativeMotion(motion, time: time) }

    /// Tells every client which kinds of device the seat has now.
    public func inputDevicesChanged(_ devices: [InputDeviceSummary]) {
        server.inputDevices = devices
    }

    public func touchscreensChanged(_ control: any TouchscreenControl) {
        server.parts.touchCalibration.touchscreensChanged(control)
    }

    /// A touchscreen brings a pointer with it while touches emulate one (`RoutingPolicy`):
    /// else, on a touch-only kiosk, an app that reads only the pointer (Xwayland under the
    /// secondary click, an SDL or terminal app) could not bind one to be driven.
    public func setSeatCapabilities(_ capabilities: InputCapabilities) {
        var advertised = capabilities
        if capabilities.contains(.touch), server.router.policy.emulatesPointerForTouch { advertised.insert(.pointer) }
        server.parts.seat.setCapabilities(advertised)
    }

    public func describePen(_ pen: Int32, as tool: PenTool) {
        server.parts.tablets.describe(pen, as: tool)
    }

    public func describePad(_ pad: Int32, as description: PadDescription) {
        server.parts.tablets.describe(pad: pad, as: description)
    }

    public func tabletRemoved(_ tablet: TabletDescription) {
        server.parts.tablets.remove(tablet)
    }

    /// The seat's capabilities as clients last heard them.
    public var seatCapabilities: InputCapabilities { server.parts.seat.capabilities }

    public func watch(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> EventSource {
        EventSource.readable(fd, on: wl_display_get_event_loop(server.display), loopOwner: server, onReadable)
    }

    public func watchInput(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> EventSource {
        let source = watch(fileDescriptor: fd, onReadable: onReadable)
        server.inputReaders.append((source: WeakSource(source), read: onReadable))
        return source
    }

    /// Calls `onWritable` whenever `fd` can be written, for as long as the source is kept.
    public func watchWritable(fileDescriptor fd: Int32, _ onWritable: @escaping () -> Void) -> EventSource {
        EventSource.writable(fd, on: wl_display_get_event_loop(server.display), loopOwner: server, onWritable)
    }

    /// Tactile started `pid` (a session or gesture command): it and its descendants are
    /// "started" for the privilege policy (`PrivilegePolicy`).
    public func processStarted(_ pid: Int32) { server.parts.privileges.processStarted(pid) }

    /// A process `processStarted` named was reaped: its pid no longer counts.
    public func processEnded(_ pid: Int32) { server.parts.privileges.processEnded(pid) }

    public func makeTimer(_ fire: @escaping () -> Void) -> EventSource {
        EventSource.timer(on: wl_display_get_event_loop(server.display), loopOwner: server, fire)
    }

    public func makeDeadline(_ fire: @escaping () -> Void) -> EventSource {
        EventSource.deadline(on: wl_display_get_event_loop(server.display), loopOwner: server, fire)
    }

    public func addOutput(_ description: OutputDescription, presenter: any OutputPresenter) -> OutputID {
        server.addOutput(description, presenter: presenter)
    }

    public func removeOutput(_ id: OutputID) { server.removeOutput(id) }

    public func updateOutput(_ id: OutputID, _ description: OutputDescription) { server.updateOutput(id, description) }

    public func outputPresented(_ output: OutputID, _ frame: PresentedFrame) { server.outputPresented(output, frame) }

    public var outputLayout: [PlacedOutput] { server.parts.outputs.layout }

    /// Creates a client on one end of a new socket pair and returns the other end, for the
    /// client to connect with; nil if the system refuses.
    public func connectClientSocket() -> Int32? { server.connectClientSocket() }

    /// Moves the toplevel whose wl_surface has protocol id `surfaceID`, for the client that
    /// connected through `clientSocket`, to a global position. False when there is no such
    /// toplevel.
    @discardableResult
    public func moveToplevel(clientSocket: Int32, surfaceID: UInt32, to position: Position) -> Bool {
        server.moveToplevel(clientSocket: clientSocket, surfaceID: surfaceID, to: position)
    }

    /// Manages the X windows of an Xwayland the host started: `windowManagerSocket` is the
    /// other end of its `-wm` fd (taken over), `clientSocket` the end of its Wayland
    /// connection that `connectClientSocket` returned. `ended` hears why the window manager's
    /// connection ended (Xwayland exited, or refused it), unless the server stopped it.
    /// False when `clientSocket` names no client the server connected.
    public func manageX11(windowManagerSocket: Int32, clientSocket: Int32, ended: @escaping (String) -> Void) -> Bool {
        server.manageX11(windowManagerSocket: windowManagerSocket, clientSocket: clientSocket, ended: ended)
    }

    /// Raises the window the policy picks (the bottom-most, by default) and focuses it: the
    /// focus-next gesture action.
    public func focusNextWindow() { server.parts.windows.focusNextWindow() }

    /// Asks the window holding keyboard focus to close: the close-focused gesture action.
    public func closeFocusedWindow() { server.parts.windows.closeFocusedWindow() }

    /// Starts the cleaning screen for `seconds` (the configuration's when nil): the
    /// clean-screen action.
    public func startCleaning(seconds: Int? = nil) { server.parts.cleaning.start(seconds: seconds) }

    /// The staff door's gesture was recognized at `point`: its taps, then its PIN pad.
    public func staffKnocked(at point: Point) { server.parts.staffDoor.knocked(at: point) }

    /// What the host does when the session is to start over for idleness (`session`).
    public var onSessionReset: () -> Void {
        get { server.parts.sessionReset.onReset }
        set { server.parts.sessionReset.onReset = newValue }
    }

    /// What the host does when the staff door opens (`staff.opens`).
    public var onStaffDoorOpened: (StaffDoorOpens) -> Void {
        get { server.parts.staffDoor.onOpen }
        set { server.parts.staffDoor.onOpen = newValue }
    }

    /// Who hears of the configured gestures' events (weak: the host owns it).
    public var gestureDelegate: (any GestureDelegate)? {
        get { server.parts.gestures.delegate }
        set { server.parts.gestures.delegate = newValue }
    }
}

extension Position {
    /// The point at this pixel position, for `Rect.contains`.
    var point: Point { Point(x: Double(x), y: Double(y)) }
}
