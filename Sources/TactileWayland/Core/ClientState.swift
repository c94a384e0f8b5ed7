import CWaylandServer
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
    private let disconnected: (ClientState) -> Void
    private var destroyListener: UnsafeMutablePointer<tactile_listener>?

    init(client: OpaquePointer, id: ClientID, disconnected: @escaping (ClientState) -> Void) {
        self.client = client
        self.id = id
        self.disconnected = disconnected
        destroyListener = tactile_listener_create(Unmanaged.passUnretained(self).toOpaque(), clientDestroyed)
        wl_client_add_destroy_listener(client, &destroyListener!.pointee.listener)
    }

    /// The state of a connected client, found through its destroy listener (libwayland 1.21
    /// has no client user data).
    static func of(_ client: OpaquePointer?) -> ClientState? {
        guard let client, let listener = wl_client_get_destroy_listener(client, clientDestroyed) else { return nil }
        return Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue()
    }

    fileprivate func destroyed() {
        if let destroyListener { tactile_listener_destroy(destroyListener) }
        destroyListener = nil
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

    /// Registers every client `display` accepts from now on.
    init(display: OpaquePointer) {
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
        let state = ClientState(client: client, id: ClientID(nextID)) { [unowned self] state in
            byID[state.id] = nil
            disconnected(state)
        }
        nextID += 1
        byID[state.id] = state
    }
}

private let clientDestroyed: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void = { listener, _ in
    guard let listener else { return }
    Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue().destroyed()
}
