import CWaylandServer
import Logging
import Responder

/// One connected client: its identity for the core, and what the server counts of it.
final class ClientState {
    let client: OpaquePointer
    let id: ClientID
    /// The rectangles of all the client's live wl_regions (`WlRegion.maximumRectsPerClient`).
    var regionRects = 0
    /// The process on the socket's other end, as the kernel says (SO_PEERCRED), for traces.
    private(set) lazy var pid: Int32 = {
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return pid
    }()
    /// Set when it connected through a sandbox's listener (wp_security_context_v1).
    var securityContext: SecurityContext?
    /// Xwayland, which shows every X app: a buffer past `limits.bufferSide` (an X window
    /// sized by a hostile X client) is left unshown rather than made a protocol error, which
    /// would end Xwayland and every X app with it.
    var isXwayland = false
    /// The oldest touch event it was sent (down or motion) that no commit of a new buffer
    /// has followed yet: where its touch-to-present time starts (`TouchShown.app`).
    var touchUnansweredSince: Instant?
    /// When it was last sent a touch down or motion: its frame callbacks are timed to its
    /// draws while a finger moves (`ClientFrameClock`).
    var touchSentAt: Instant?
    let limits: ClientLimits
    /// Its objects, counted against `limits`.
    let holdings = ClientHoldings()
    private let logger: Logger
    private let disconnected: (ClientState) -> Void
    private var destroyListener: UnsafeMutablePointer<tactile_listener>?
    private var resourceListener: UnsafeMutablePointer<tactile_listener>?

    init(client: OpaquePointer, id: ClientID, limits: ClientLimits, logger: Logger, disconnected: @escaping (ClientState) -> Void) {
        self.client = client
        self.id = id
        self.limits = limits
        self.logger = logger
        self.disconnected = disconnected
        destroyListener = tactile_listener_create(Unmanaged.passUnretained(self).toOpaque(), clientDestroyed)
        wl_client_add_destroy_listener(client, &destroyListener!.pointee.listener)
        resourceListener = tactile_listener_create(Unmanaged.passUnretained(self).toOpaque(), resourceCreated)
        wl_client_add_resource_created_listener(client, &resourceListener!.pointee.listener)
    }

    fileprivate func created(_ resource: OpaquePointer) {
        guard let passed = holdings.created(resource, limits: limits) else { return }
        logger.warning("\(id) (pid \(pid)) made \(passed): disconnected")
        tactile_post_implementation_error(client, "the client made \(passed)")
    }

    /// The state of a connected client, found through its destroy listener (libwayland 1.21
    /// has no client user data). Nil once the client began to go: libwayland destroys its
    /// objects after its destroy signal, and their handlers can tell so.
    static func of(_ client: OpaquePointer?) -> ClientState? {
        guard let client, let listener = wl_client_get_destroy_listener(client, clientDestroyed) else { return nil }
        return Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue()
    }

    fileprivate func destroyed() {
        if let destroyListener { tactile_listener_destroy(destroyListener) }
        if let resourceListener { tactile_listener_destroy(resourceListener) }
        destroyListener = nil
        resourceListener = nil
        disconnected(self)
    }
}

/// Every connected client by id, and the ones the server connected itself over a socket pair.
final class Clients {
    private(set) var byID: [ClientID: ClientState] = [:]
    /// Clients made by `ServerPort.connectClientSocket`, by the client's end of the pair.
    var bySocket: [Int32: OpaquePointer] = [:]
    private var nextID: UInt64 = 1
    private var createdListener: UnsafeMutablePointer<tactile_listener>?
    /// Runs as a client goes, after it left `byID`.
    var disconnected: (ClientState) -> Void = { _ in }
    private let limits: ClientLimits
    private let logger: Logger

    /// Registers every client `display` accepts from now on.
    init(display: OpaquePointer, limits: ClientLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
        createdListener = tactile_listener_create(Unmanaged.passUnretained(self).toOpaque()) { listener, data in
            guard let listener, let data else { return }
            Unmanaged<Clients>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue().register(OpaquePointer(data))
        }
        wl_display_add_client_created_listener(display, &createdListener!.pointee.listener)
    }

    deinit {
        if let createdListener { tactile_listener_destroy(createdListener) }
    }

    private func register(_ client: OpaquePointer) {
        let state = ClientState(client: client, id: ClientID(nextID), limits: limits, logger: logger) { [unowned self] state in
            byID[state.id] = nil
            disconnected(state)
        }
        nextID += 1
        byID[state.id] = state
    }
}

private let resourceCreated: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void = { listener, resource in
    guard let listener, let resource else { return }
    Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue().created(OpaquePointer(resource))
}

private let clientDestroyed: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void = { listener, _ in
    guard let listener else { return }
    Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue().destroyed()
}
