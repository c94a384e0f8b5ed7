import CWaylandServer
import Glibc
import Logging
import Responder
import Synchronization
import TactileRender

/// The Wayland server, the composition root: one wl_display, the routing core and `route`
/// (every routing step's one epilogue), the scene's surfaces, and the parts (`Parts`): the
/// seat, the outputs, the gestures and every protocol family, each with its own state.
///
/// Confined to the thread that runs its event loop: every request handler, timer and input
/// event runs there, one at a time, so nothing inside needs a lock.
public final class WaylandServer {
    let display: OpaquePointer
    public let configuration: ServerConfiguration
    let logger: Logger
    /// What composes the outputs' frames (`ServerConfiguration.renderer`).
    public let renderer: any Renderer
    var router: InputRouter
    let clients: Clients
    /// The surface behind each scene node.
    var surfaces = SurfaceIndex()
    /// Scene changes of the commit being applied, made in one step when it is done.
    var sceneBatch: SceneBatch?
    /// The last batch's lists, emptied with their room kept: a commit's batch allocates none.
    var spareSceneBatch: SceneBatch?
    /// For `statistics`.
    var touchCounts = TouchCounts()
    /// The devices each client bound on the seat, as it bound them (the core may route it
    /// fewer: `routedDevices`).
    var boundDevices: [ClientID: InputCapabilities] = [:]
    /// What reads each input device's waiting events (`BackendHost.watchInput`), while its
    /// source lives.
    var inputReaders: [(source: WeakSource, read: () -> Void)] = []
    var inputDevices: [InputDeviceSummary] = []
    private let stop = StopRequest()
    /// The protocol families' state, each with its globals (`ServerPart`).
    private(set) lazy var parts: Parts = Parts(
        display: display, configuration: configuration, renderer: renderer, context: self, inspected: self, logger: logger,
        makeSurface: { [unowned self] owner in Surface(host: self, outputs: parts.outputs, owner: owner) })

    public init(configuration: ServerConfiguration = ServerConfiguration(), logger: Logger = Logger(label: "tactile")) throws {
        guard let display = wl_display_create() else { throw ServerError.displayCreationFailed }
        // A selection's reader that closes its pipe before the transfer ends is an error to
        // the writer (EPIPE), not a signal that ends the server. Started processes get every
        // signal's default back (`spawn`).
        signal(SIGPIPE, SIG_IGN)
        self.display = display
        self.logger = logger
        self.configuration = configuration
        do {
            let (renderer, why) = try configuration.renderer.make()
            self.renderer = renderer
            logger.info("\(why)")
        } catch {
            wl_display_destroy(display)
            throw ServerError.rendererUnavailable(error.description)
        }
        // The root grows with the outputs' layout (`addOutput`); without one, nothing is hit.
        router = InputRouter(scene: Scene(root: .compositor(size: .zero)), policy: configuration.routingPolicy)
        // Filled in below, once every stored property is: they call back into the server.
        clients = Clients(display: display, limits: configuration.limits, logger: logger)
        // A client went away: the core forgets it (its touches end, the pointer re-enters what
        // is under it), and so do the parts, the seat first.
        clients.disconnected = { [unowned self] state in
            route { router, sink in router.clientDisconnected(state.id, sink: &sink) }
            for part in parts.all { part.clientDisconnected(state.id) }
            tactile_malloc_trim()
        }
        parts.seat.devicesChanged = { [unowned self] client, devices in
            boundDevices[client] = devices.isEmpty ? nil : devices
            router.setCapabilities(routedDevices(of: client, bound: devices), for: client)
        }
        parts.seat.focusHeld = { [unowned self] client in HeldFocus(of: client, in: router, surfaces: surfaces) }
        parts.outputManagement.settingsChanged = { [unowned self] in outputSettingsChanged() }
        parts.gestures.install(in: &router) {
            // Not `makeTimer`: that one keeps the server alive, and the server owns this.
            EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in
                parts.gestures.deadlineFired()
                readWaitingInput()
                route { router, sink in router.fireGestureDeadlines(at: currentTime, sink: &sink) }
            }
        }
        parts.touchFiltering.start(
            timer: EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in
                readWaitingInput()
                parts.touchFiltering.fire(now: currentTime) { routeFiltered($0) }
            },
            naming: { [unowned self] in naming })
        parts.touchAccommodating.start(
            timer: EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in
                readWaitingInput()
                parts.touchAccommodating.fire(now: currentTime) { routeInput(parts.zooming.map($0)) }
                showTouchRings()
            },
            naming: { [unowned self] in naming })
        if !configuration.accommodations.isEmpty || configuration.windowRules.contains(where: { $0.accommodations == false }) {
            parts.touchAccommodating.set(configuration.accommodations, exempting: configuration.windowRules)
        }
        if let zoom = configuration.zoom { parts.zooming.set(zoom) }
        parts.textInputs.fieldCursorMoved = { [unowned self] rect in parts.zooming.follow(rect) }
        if configuration.trace { parts.tracer.output = Tracer.writeToStandardError }
        if configuration.showTouches || configuration.showInputRegions {
            let marks = TouchMarks(showsInputRegions: configuration.showInputRegions)
            parts.composition.touchMarks = marks
            parts.tracer.touchMarks = marks
        }
        if configuration.touchFeedback == .ripple { parts.composition.touchFeedback = TouchFeedback() }
    }

    deinit {
        // A terminate from another thread finishes waking the display before it goes, and
        // none wakes it after.
        stop.displayAlive.withLock { $0 = false }
        // Disconnects every client, running their destroy handlers while the server is whole.
        wl_display_destroy_clients(display)
        // The server's own event sources go before the loop they are on.
        for part in parts.all { part.stop() }
        wl_display_destroy(display)
    }

    /// Listens on `$XDG_RUNTIME_DIR/name`, or on the first free `wayland-N` when nil.
    @discardableResult
    public func addSocket(named name: String? = nil) throws -> String {
        if let name {
            guard wl_display_add_socket(display, name) == 0 else { throw ServerError.socketUnavailable(name) }
            return name
        }
        guard let chosen = wl_display_add_socket_auto(display) else { throw ServerError.socketUnavailable("wayland-N") }
        return String(cString: chosen)
    }

    /// Runs the event loop until `ServerHandle.terminate()` (from any thread), then
    /// disconnects every client. Not wl_display_run: it sets libwayland's own flag as it
    /// starts, so a stop asked for before the loop ran (a server dropped at once, under load)
    /// was lost and the loop ran for ever.
    public func run() {
        let loop = wl_display_get_event_loop(display)
        while !stop.requested.load(ordering: .acquiring) {
            parts.composition.repaintIfScheduled()
            wl_display_flush_clients(display)
            wl_event_loop_dispatch(loop, -1)
        }
        wl_display_destroy_clients(display)
    }

    /// Makes SIGTERM and SIGINT (systemd stopping a kiosk, Ctrl-C) end `run()` after the
    /// current dispatch, so clients are disconnected in order and the process exits normally.
    /// libwayland reads the signals from the loop (a signalfd); they are blocked on this
    /// thread. The signals stop the server for as long as the returned sources are kept.
    public func stopOnTerminationSignals() -> [EventSource] {
        [SIGTERM, SIGINT].map { signal in
            EventSource.signal(signal, on: wl_display_get_event_loop(display), loopOwner: self) { [unowned self] in
                logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): disconnecting every client and stopping")
                handle.terminate()
            }
        }
    }

    /// Calls `fire` on the loop each time `signal` comes (SIGHUP: read the configuration
    /// again), for as long as the returned source is kept.
    public func onSignal(_ signal: Int32, _ fire: @escaping () -> Void) -> EventSource {
        EventSource.signal(signal, on: wl_display_get_event_loop(display), loopOwner: self, fire)
    }

    /// The server as backends, embedders and gesture actions see it.
    public var port: ServerPort { ServerPort(server: self) }

    /// A handle another thread may keep to stop the loop.
    public var handle: ServerHandle { ServerHandle(display: display, stop: stop) }

    /// Sends trace lines (without the `trace ` prefix) to `output` instead of standard error,
    /// and turns tracing on if the configuration did not: for embedders and tests.
    public func traceLines(to output: @escaping (String) -> Void) {
        parts.tracer.output = output
    }

    func nextSerial() -> UInt32 { wl_display_next_serial(display) }
}

/// Lets another thread stop a running server; the only thing that crosses threads.
public struct ServerHandle: @unchecked Sendable {
    let display: OpaquePointer
    fileprivate let stop: StopRequest

    /// Makes `run()` return after the current dispatch, or at once if it has not begun
    /// (libwayland's terminate wakes the loop).
    public func terminate() {
        stop.requested.store(true, ordering: .releasing)
        // Under the lock: the loop may see the flag and its owner destroy the display before
        // the wake-up is written, which would write to a closed eventfd of freed memory.
        stop.displayAlive.withLock { alive in
            if alive { wl_display_terminate(display) }
        }
    }
}

/// Set from any thread, read by the loop's thread.
private final class StopRequest: Sendable {
    let requested = Atomic(false)
    /// Cleared as the server is destroyed, before its display.
    let displayAlive = Mutex(true)
}

public enum ServerError: Error, CustomStringConvertible {
    case displayCreationFailed
    case socketUnavailable(String)
    case rendererUnavailable(String)

    public var description: String {
        switch self {
        case .displayCreationFailed: "could not create a Wayland display"
        case .socketUnavailable(let name): "could not listen on socket \(name) (is XDG_RUNTIME_DIR set and writable, and the name free?)"
        case .rendererUnavailable(let why): "--renderer gles: GLES cannot compose here: \(why)"
        }
    }
}
