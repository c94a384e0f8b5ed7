import CWaylandServer
import Responder

/// One connected client: its identity for the core, and its seat resources (several of each
/// kind may exist; every one gets the events).
final class ClientState {
    let client: OpaquePointer
    let id: ClientID
    /// Unchecked: every object of a server dies with its display, at the latest while the
    /// server shuts down, when a checked reference would already trap.
    unowned(unsafe) let server: WaylandServer
    /// The client's wl_seat resources, told when the seat's capabilities change.
    var seats: [OpaquePointer] = []
    var pointers: [OpaquePointer] = []
    var keyboards: [OpaquePointer] = []
    var touches: [OpaquePointer] = []
    /// The client's wl_output resources, for wl_surface.enter.
    var outputs: [OpaquePointer] = []
    /// What a grab, move or resize request of this client must name.
    var inputSerials = InputSerials()
    /// The rectangles of all the client's live wl_regions (`WlRegion.maximumRectsPerClient`).
    var regionRects = 0
    private var destroyListener: UnsafeMutablePointer<tactile_listener>?

    init(client: OpaquePointer, id: ClientID, server: WaylandServer) {
        self.client = client
        self.id = id
        self.server = server
        destroyListener = tactile_listener_create(Unmanaged.passUnretained(self).toOpaque(), clientDestroyed)
        wl_client_add_destroy_listener(client, &destroyListener!.pointee.listener)
    }

    /// What the core needs to know: which devices this client listens to.
    var capabilities: InputCapabilities {
        var caps: InputCapabilities = []
        if !pointers.isEmpty { caps.insert(.pointer) }
        if !keyboards.isEmpty { caps.insert(.keyboard) }
        if !touches.isEmpty { caps.insert(.touch) }
        return caps
    }

    func devicesChanged() {
        server.router.setCapabilities(capabilities, for: id)
    }

    fileprivate func disconnected() {
        server.forget(self)
        if let destroyListener { tactile_listener_destroy(destroyListener) }
        destroyListener = nil
    }
}

private let clientDestroyed: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void = { listener, _ in
    guard let listener else { return }
    Unmanaged<ClientState>.fromOpaque(tactile_listener_context(listener)).takeUnretainedValue().disconnected()
}
