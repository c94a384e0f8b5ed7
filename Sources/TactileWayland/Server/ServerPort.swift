import CWaylandServer
import Glibc
import Responder
import TactileRender

/// The server as what hosts it sees it: backends (`BackendHost`: input in, outputs and seat
/// capabilities announced, fds and timers on the loop), the WLCS integration (clients over
/// socket pairs, windows placed) and the gesture actions (focus moved between windows, a
/// window closed). A facet, as swift-nio has them: the server's own members are what its
/// parts and surfaces use; this is its face to layers 3 and 4.
public final class ServerPort: BackendHost {
    /// Strong: a backend keeps the server it serves, as the server's loop keeps its sources.
    let server: WaylandServer

    init(server: WaylandServer) { self.server = server }

    public var currentTime: Instant { server.currentTime }

    public var renderer: any Renderer { server.renderer }

    public func handle(_ event: InputEvent) { server.handle(event) }

    public func handleRelativeMotion(_ motion: RelativeMotion, time: Instant) { server.handleRelativeMotion(motion, time: time) }

    public func placeToplevel(_ surface: OpaquePointer?, at position: Position) -> Bool { server.placeToplevel(surface, at: position) }

    /// Tells every client which kinds of device the seat has now.
    public func setSeatCapabilities(_ capabilities: InputCapabilities) {
        server.parts.seat.setCapabilities(capabilities)
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

    /// Tactile started `pid` (a session or gesture command): it and its descendants are
    /// "started" for the privilege policy (`PrivilegePolicy`).
    public func processStarted(_ pid: Int32) { server.parts.privileges.processStarted(pid) }

    /// A process `processStarted` named was reaped: its pid no longer counts.
    public func processEnded(_ pid: Int32) { server.parts.privileges.processEnded(pid) }

    public func makeTimer(_ fire: @escaping () -> Void) -> EventSource {
        EventSource.timer(on: wl_display_get_event_loop(server.display), loopOwner: server, fire)
    }

    // Outputs come and go as backends say: the scene's root spans their layout, windows on a
    // removed output move to the first one left, and windows that fill their output follow
    // its size.

    public func addOutput(_ description: OutputDescription, presenter: any OutputPresenter) -> OutputID {
        let output = server.parts.outputs.add(description, presenter: presenter)
        if server.parts.outputs.live.contains(where: { $0 === output }) {
            server.logger.info("output \(description.name): \(output.placed.summary)")
        } else {
            server.logger.info("output \(description.name): disabled by its settings; it stays dark")
        }
        layoutChanged()
        return output.id
    }

    public func removeOutput(_ id: OutputID) {
        guard let (removed, wasLive) = server.parts.outputs.remove(id) else { return }
        if wasLive {
            server.logger.info("output \(removed.placed.description.name) removed")
            withdrawn(removed)
        } else {
            server.logger.info("output \(removed.placed.description.name) (disabled) removed")
        }
        layoutChanged()
    }

    /// `removed` left the layout (unplugged or disabled): its screencopy frames fail and its
    /// capture sessions stop, the
    /// frame callbacks it took wait for another output, and its windows move to the first
    /// output left.
    private func withdrawn(_ removed: Output) {
        server.parts.screencopy.outputRemoved(removed)
        server.parts.imageCopyCapture.outputRemoved(removed)
        // Its frame in flight will never be shown: the callbacks it took wait for another.
        server.parts.outputs.frameCallbacks += removed.screen.inFlight
        removed.screen.inFlight.removeAll()
        // The content it was to show will not be shown there.
        for feedback in removed.screen.feedbackInFlight { feedback.discard() }
        removed.screen.feedbackInFlight.removeAll()
        if server.parts.outputs.live.isEmpty {
            server.logger.notice("no output left: Tactile and its clients keep running, and the windows show again when a screen comes")
        }
        if let target = server.parts.outputs.primary {
            for (surface, window) in server.parts.windows.toplevelWindows() where removed.placed.rect.contains(window.point) {
                let offset = Position(x: window.x - removed.placed.rect.x, y: window.y - removed.placed.rect.y)
                let clamped = Position(x: min(max(offset.x, 0), max(target.rect.width - 1, 0)), y: min(max(offset.y, 0), max(target.rect.height - 1, 0)))
                surface.placeWindow(at: Position(x: target.rect.x + clamped.x, y: target.rect.y + clamped.y))
            }
        }
    }

    public func updateOutput(_ id: OutputID, _ description: OutputDescription) {
        guard let output = server.parts.outputs.update(id, description) else { return }
        server.logger.info("output \(description.name) now \(output.placed.summary)")
        layoutChanged()
    }

    /// An output manager changed outputs' settings (`Outputs.overrides`): outputs are turned
    /// off or on, switched to new modes and placed again, and the layout changes where one did.
    func outputSettingsChanged() {
        let relayout = server.parts.outputs.relayout()
        for output in relayout.disabled {
            server.logger.info("output \(output.placed.description.name) disabled: its screen is dark")
            withdrawn(output)
        }
        for output in relayout.changed {
            let enabled = relayout.enabled.contains { $0 === output }
            server.logger.info("output \(output.placed.description.name) \(enabled ? "enabled:" : "now") \(output.placed.summary)")
        }
        if !relayout.disabled.isEmpty || !relayout.changed.isEmpty { layoutChanged() }
    }

    public func outputPresented(_ output: OutputID, _ frame: PresentedFrame) {
        server.parts.outputs.presented(output, frame)
        // The surfaces on it whose fifo barrier was set before this frame was composed have
        // had their refresh.
        if let composed = server.parts.outputs.output(output)?.composedAt { server.parts.framePacing.presented(output, composedAt: composed) }
        // What changed while the frame was in flight waited for it.
        server.parts.composition.schedule()
    }

    public var outputLayout: [PlacedOutput] { server.parts.outputs.layout }

    /// The root spans the layout; the parts hear of it (layer surfaces are arranged again,
    /// windows that fill their output are told its new size, xdg-output describes it, every
    /// output is repainted); every mapped surface enters and leaves outputs as they now lie.
    private func layoutChanged() {
        let extent = server.parts.outputs.extent
        server.updateScene { [root = server.router.scene.root] in $0.update(root) { $0.size = extent } }
        for part in server.parts.all { part.layoutChanged() }
        for surface in server.surfaces.all { surface.updateOutputs() }
    }

    /// Creates a client on one end of a new socket pair and returns the other end, for the
    /// client to connect with; nil if the system refuses.
    public func connectClientSocket() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        guard let client = wl_client_create(server.display, fds[0]) else {
            close(fds[0])
            close(fds[1])
            return nil
        }
        server.clients.bySocket[fds[1]] = client
        return fds[1]
    }

    /// Moves the toplevel whose wl_surface has protocol id `surfaceID`, for the client that
    /// connected through `clientSocket`, to a global position. False when there is no such
    /// toplevel.
    @discardableResult
    public func moveToplevel(clientSocket: Int32, surfaceID: UInt32, to position: Position) -> Bool {
        // The client may have gone: its pointer is compared, never followed, until it is found live.
        guard let client = server.clients.bySocket[clientSocket], server.clients.byID.values.contains(where: { $0.client == client }) else { return false }
        return server.placeToplevel(wl_client_get_object(client, surfaceID), at: position)
    }

    /// Manages the X windows of an Xwayland the host started: `windowManagerSocket` is the
    /// other end of its `-wm` fd (taken over), `clientSocket` the end of its Wayland
    /// connection that `connectClientSocket` returned. `ended` hears why the window manager's
    /// connection ended (Xwayland exited, or refused it), unless the server stopped it.
    /// False when `clientSocket` names no client the server connected.
    public func manageX11(windowManagerSocket: Int32, clientSocket: Int32, ended: @escaping (String) -> Void) -> Bool {
        guard let client = server.clients.bySocket[clientSocket], server.clients.byID.values.contains(where: { $0.client == client }) else {
            close(windowManagerSocket)
            return false
        }
        server.parts.xWindowManager.manage(socket: windowManagerSocket, xwayland: client, ended: ended)
        return true
    }

    /// Raises the window the policy picks (the bottom-most, by default) and focuses it: the
    /// focus-next gesture action.
    public func focusNextWindow() { server.parts.windows.focusNextWindow() }

    /// Asks the window holding keyboard focus to close: the close-focused gesture action.
    public func closeFocusedWindow() { server.parts.windows.closeFocusedWindow() }

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
