import CWaylandServer
import Glibc
import Logging
import Responder

/// The Wayland server: one wl_display with its globals, the routing core, and the mapping
/// between protocol objects and scene nodes.
///
/// Confined to the thread that runs its event loop: every request handler, timer and input
/// event runs there, one at a time, so nothing inside needs a lock.
public final class WaylandServer {
    let display: OpaquePointer
    let loop: OpaquePointer
    public let configuration: ServerConfiguration
    let logger: Logger
    var router: InputRouter
    var clients: [OpaquePointer: ClientState] = [:]
    var clientsByID: [ClientID: ClientState] = [:]
    private var nextClientID: UInt64 = 1
    /// The surface behind each scene node, by `NodeID.slot`.
    var surfacesByNode: [Int: Surface] = [:]
    /// Frame callbacks committed since the last tick, fired by the frame timer.
    var frameCallbacks: [FrameCallback] = []
    var placement: Placement
    /// Clients made by `connectClientSocket`, by the client's end of the pair.
    var socketClients: [Int32: OpaquePointer] = [:]
    /// The clipboard's current source, if a client set one.
    weak var selection: DataSource?
    /// Popups holding a grab, the topmost last.
    var popupGrabs: [XdgPopup] = []
    /// The toplevel last configured as activated.
    weak var activatedToplevel: XdgToplevel?
    /// The interactive move or resize under way, if any.
    var interactiveGrab: InteractiveGrab?
    let keymap: Keymap?
    /// The kinds of input device the seat has, as wl_seat.capabilities tells clients.
    public internal(set) var seatCapabilities: InputCapabilities = [.pointer, .keyboard, .touch]
    /// The configured gestures, by the id the router gave them.
    var gestureBindings: [GestureID: GestureBinding] = [:]
    /// What the recognizers did during the current routing step, acted on after it.
    var pendingGestureEvents: [GestureEvent] = []
    var gestureTimer: OpaquePointer?
    var armedGestureDeadline: Instant?
    /// Commands started by gesture actions that have not been reaped yet.
    var commands: [pid_t] = []
    /// The socket name clients connect to, once `addSocket` chose one.
    private(set) var socketName: String?
    private var clientCreatedListener: UnsafeMutablePointer<tactile_listener>?
    private var frameTimer: OpaquePointer?
    /// SIGTERM's and SIGINT's sources, when `stopOnTerminationSignals` made them.
    private var signalSources: [OpaquePointer] = []

    /// Frame callbacks fire on this period, standing in for vblank (a headless output has none).
    static let framePeriodMilliseconds: Int32 = 16

    public init(configuration: ServerConfiguration = ServerConfiguration(), logger: Logger = Logger(label: "tactile")) throws {
        guard let display = wl_display_create() else { throw ServerError.displayCreationFailed }
        self.display = display
        self.logger = logger
        loop = wl_display_get_event_loop(display)
        self.configuration = configuration
        router = InputRouter(
            scene: Scene(root: .compositor(size: configuration.outputSize)),
            policy: configuration.routingPolicy
        )
        placement = Placement(kiosk: configuration.kioskMode)
        keymap = Keymap(layout: configuration.keyboardLayout)
        if keymap == nil { logger.error("no XKB keymap for \(configuration.keyboardLayout); keyboards get no keymap (is xkb-data installed?)") }
        let me = Unmanaged.passUnretained(self).toOpaque()
        clientCreatedListener = tactile_listener_create(me, clientCreated)
        wl_display_add_client_created_listener(display, &clientCreatedListener!.pointee.listener)
        wl_display_init_shm(display)
        createGlobals()
        frameTimer = wl_event_loop_add_timer(loop, fireFrameCallbacks, me)
        wl_event_source_timer_update(frameTimer, Self.framePeriodMilliseconds)
        installGestures()
    }

    deinit {
        shutDown()
        if let frameTimer { wl_event_source_remove(frameTimer) }
        if let gestureTimer { wl_event_source_remove(gestureTimer) }
        signalSources.forEach { wl_event_source_remove($0) }
        wl_display_destroy(display)
        if let clientCreatedListener { tactile_listener_destroy(clientCreatedListener) }
    }

    /// Listens on `$XDG_RUNTIME_DIR/name`, or on the first free `wayland-N` when nil.
    @discardableResult
    public func addSocket(named name: String? = nil) throws -> String {
        if let name {
            guard wl_display_add_socket(display, name) == 0 else { throw ServerError.socketUnavailable(name) }
            socketName = name
            return name
        }
        guard let chosen = wl_display_add_socket_auto(display) else { throw ServerError.socketUnavailable("wayland-N") }
        let name = String(cString: chosen)
        socketName = name
        return name
    }

    /// Runs the event loop until `terminate()` (from any thread, through `ServerHandle`), then
    /// disconnects every client.
    public func run() {
        wl_display_run(display)
        shutDown()
    }

    /// Makes SIGTERM and SIGINT (systemd stopping a kiosk, Ctrl-C) end `run()` after the
    /// current dispatch, so clients are disconnected in order and the process exits normally.
    /// libwayland reads the signals from the loop (a signalfd); they are blocked on this thread.
    public func stopOnTerminationSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        signalSources = [SIGTERM, SIGINT].compactMap { signal in
            wl_event_loop_add_signal(loop, signal, { signal, data in
                let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
                server.logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): disconnecting every client and stopping")
                wl_display_terminate(server.display)
                return 0
            }, me)
        }
    }

    /// Disconnects every client, running their destroy handlers while the server is whole.
    private func shutDown() {
        wl_display_destroy_clients(display)
    }

    /// A handle another thread may keep to stop the loop.
    public var handle: ServerHandle { ServerHandle(display: display) }

    /// Routes one input event from a backend. Keys also drive the XKB state, so the focused
    /// client hears about modifier changes; a key the core refuses does not touch it.
    public func handle(_ event: InputEvent) {
        var sink = ProtocolSink(server: self)
        var modifiersChanged = false
        if case .key(let key, let state, _) = event, let keymap, router.changesHeldKeys(key: key, state: state) {
            modifiersChanged = keymap.update(key: key, state: state)
        }
        router.handle(event, sink: &sink)
        continueInteractiveGrab()
        updateActivation()
        afterGestureRouting()
        if modifiersChanged, let focus = router.keyboardFocus, let client = surface(at: focus)?.owner {
            sink.sendModifiers(to: client)
        }
    }

    /// Moves keyboard focus off `node` (with a leave), if it is there.
    func unfocusKeyboard(from node: NodeID) {
        guard router.keyboardFocus == node else { return }
        focusKeyboard(on: nil)
    }

    /// Refused input and dropped touches, as log lines.
    func log(_ diagnostic: Diagnostic) {
        switch diagnostic {
        case .ignored(let event, let reason): logger.warning("ignored \(event): \(reason)")
        case .touchDropped(let id, let reason): logger.debug("touch \(id) goes to nobody: \(reason)")
        case .touchEmulatesPointer(let id, let client): logger.debug("touch \(id) drives the pointer of \(client), which has no wl_touch")
        }
    }

    /// Applies a scene change and sends what it causes (touches ended, pointer re-entered).
    func updateScene(_ change: (inout Scene) -> Void) {
        var sink = ProtocolSink(server: self)
        router.updateScene(sink: &sink, change)
        updateActivation()
        afterGestureRouting()
    }

    /// The surface whose node `node` is; nil for a node that is gone, even when its slot
    /// now holds another surface's node.
    func surface(at node: NodeID) -> Surface? {
        guard let surface = surfacesByNode[node.slot], surface.node == node else { return nil }
        return surface
    }

    func nextSerial() -> UInt32 { wl_display_next_serial(display) }

    /// The time an event happening now is stamped with: the monotonic clock, as libinput's.
    public var currentTime: Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000)
    }

    fileprivate func register(_ client: OpaquePointer) {
        let state = ClientState(client: client, id: ClientID(nextClientID), server: self)
        nextClientID += 1
        clients[client] = state
        clientsByID[state.id] = state
    }

    func forget(_ state: ClientState) {
        clients[state.client] = nil
        clientsByID[state.id] = nil
        var sink = ProtocolSink(server: self)
        router.clientDisconnected(state.id, sink: &sink)
        updateActivation()
    }

    fileprivate func tick() {
        let time = currentTime.milliseconds
        let due = frameCallbacks
        frameCallbacks.removeAll()
        for callback in due { callback.complete(at: time) }
        wl_event_source_timer_update(frameTimer, Self.framePeriodMilliseconds)
        reapCommands()
    }
}

/// Lets another thread stop a running server; the only thing that crosses threads.
public struct ServerHandle: @unchecked Sendable {
    let display: OpaquePointer

    /// Makes `run()` return after the current dispatch (libwayland wakes its loop for this).
    public func terminate() { wl_display_terminate(display) }
}

public enum ServerError: Error, CustomStringConvertible {
    case displayCreationFailed
    case socketUnavailable(String)

    public var description: String {
        switch self {
        case .displayCreationFailed: "could not create a Wayland display"
        case .socketUnavailable(let name): "could not listen on socket \(name) (is XDG_RUNTIME_DIR set and writable, and the name free?)"
        }
    }
}

private let clientCreated: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void = { listener, data in
    guard let listener, let data else { return }
    let server = Unmanaged<WaylandServer>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue()
    server.register(OpaquePointer(data))
}

private let fireFrameCallbacks: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { data in
    Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue().tick()
    return 0
}
