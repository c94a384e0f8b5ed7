import CWaylandServer
import Glibc
import Logging

/// How much one client may make the server hold (configuration `limits`). Each client pays
/// for its own pixels (its shm files are its memory), but every object it makes costs the
/// server memory, and every wl_shm pool one of the server's 65,530 mappings, so a client past
/// a limit is disconnected with a protocol error that names it, and nobody else notices.
public struct ClientLimits: Sendable, Equatable {
    /// Objects of any kind at once, wl_shm pools and buffers included. Real
    /// clients hold hundreds; a browser with many tabs a few thousand.
    public var objects = 50_000
    /// A committed buffer's longest side, in pixels: 8192 is the largest framebuffer most
    /// display hardware scans out, so no output shows more of one buffer.
    public var bufferSide = 8192
    /// wl_shm pools at once: each keeps a mapping of its file in the server.
    public static let shmPools = 1_000

    public init() {}
}

/// What a client holds now, counted as libwayland creates and destroys its objects, for the
/// limits and the inspector. A class: each object's destroy listener keeps it alive, since
/// libwayland destroys a departing client's objects after the client's own destroy signal.
final class ClientHoldings {
    private(set) var objects = 0
    private(set) var shmPools = 0
    private(set) var buffers = 0
    /// Set once a limit was passed (the client is being disconnected).
    private(set) var exceeded: String?
    /// Listeners of objects gone, for the client's next ones: a client makes objects at
    /// every frame (a wl_callback, a buffer attached), and a listener each was a malloc.
    private var spareListeners: [UnsafeMutablePointer<tactile_listener>] = []
    private static let spareListenerLimit = 16

    deinit {
        for listener in spareListeners { tactile_listener_destroy(listener) }
    }

    /// A listener for one of the client's objects, reused if one is spare. Unlinked and
    /// given back with `recycle`.
    func listener(context: UnsafeMutableRawPointer?, notify: wl_notify_func_t) -> UnsafeMutablePointer<tactile_listener>? {
        guard let listener = spareListeners.popLast() else { return tactile_listener_create(context, notify) }
        listener.pointee.context = context
        listener.pointee.listener.notify = notify
        return listener
    }

    func recycle(_ listener: UnsafeMutablePointer<tactile_listener>) {
        guard spareListeners.count < Self.spareListenerLimit else { return tactile_listener_destroy(listener) }
        if listener.pointee.listener.link.next != nil { wl_list_remove(&listener.pointee.listener.link) }
        listener.pointee.listener.link = wl_list()
        spareListeners.append(listener)
    }

    /// Counts `resource` until it is destroyed; returns what was passed, if a limit was.
    func created(_ resource: OpaquePointer, limits: ClientLimits) -> String? {
        let kind = Kind(of: resource)
        let retained = Unmanaged.passRetained(self)
        guard let listener = listener(context: retained.toOpaque(), notify: kind.destroyed) else {
            retained.release()
            return nil
        }
        wl_resource_add_destroy_listener(resource, &listener.pointee.listener)
        objects += 1
        switch kind {
        case .shmPool: shmPools += 1
        case .buffer: buffers += 1
        case .other: break
        }
        guard exceeded == nil else { return nil }
        if objects > limits.objects {
            exceeded = "more than \(limits.objects) objects at once (limits.objects-per-client)"
        } else if shmPools > ClientLimits.shmPools {
            exceeded = "more than \(ClientLimits.shmPools) wl_shm pools at once"
        }
        return exceeded
    }

    private enum Kind {
        case shmPool, buffer, other

        init(of resource: OpaquePointer) {
            guard let name = wl_resource_get_class(resource) else { self = .other; return }
            if strcmp(name, "wl_shm_pool") == 0 { self = .shmPool }
            else if strcmp(name, "wl_buffer") == 0 { self = .buffer }
            else { self = .other }
        }

        var destroyed: @convention(c) (UnsafeMutablePointer<wl_listener>?, UnsafeMutableRawPointer?) -> Void {
            switch self {
            case .shmPool: { listener, _ in ClientHoldings.release(listener) { $0.shmPools -= 1 } }
            case .buffer: { listener, _ in ClientHoldings.release(listener) { $0.buffers -= 1 } }
            case .other: { listener, _ in ClientHoldings.release(listener) { _ in } }
            }
        }
    }

    private static func release(_ listener: UnsafeMutablePointer<wl_listener>?, _ change: (ClientHoldings) -> Void) {
        guard let listener else { return }
        let holdings = Unmanaged<ClientHoldings>.fromOpaque(tactile_listener_context(listener)).takeRetainedValue()
        holdings.objects -= 1
        change(holdings)
        // The wl_listener is the tactile_listener's first member.
        holdings.recycle(UnsafeMutableRawPointer(listener).assumingMemoryBound(to: tactile_listener.self))
    }

    /// For the inspector: `objects=N shm-pools=N buffers=N`.
    var inspected: String { "objects=\(objects) shm-pools=\(shmPools) buffers=\(buffers)" }
}
