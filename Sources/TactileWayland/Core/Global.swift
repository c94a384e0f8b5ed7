import CWaylandServer
import Glibc

/// A Wayland global. Every resource a client binds of it gets the global's request table and
/// `context` (the object its requests act on: the server, the seat, an output) as user data,
/// unretained: the context outlives the display's resources.
///
/// libwayland's bind callback is a C function pointer with one data pointer; this object is
/// that pointer, so each global says what it does on bind in a closure instead of a
/// hand-written C trampoline.
final class Global {
    typealias Bound = (_ resource: OpaquePointer, _ client: OpaquePointer) -> Void

    private(set) var global: OpaquePointer?
    private let interface: UnsafePointer<wl_interface>
    private let display: OpaquePointer
    private let version: UInt32
    private let requests: RequestTable
    private let context: UnsafeMutableRawPointer
    private let bound: Bound?
    private let destroyed: wl_resource_destroy_func_t?
    /// The family it belongs to when it reaches beyond the client's own windows: only the
    /// clients `PrivilegePolicy` allows see it (`Privileges`).
    let privilege: Privilege?

    init(display: OpaquePointer, interface: UnsafePointer<wl_interface>, version: Int32, context: AnyObject,
         requests: RequestTable, privilege: Privilege? = nil, destroyed: wl_resource_destroy_func_t? = nil, bound: Bound? = nil) {
        self.interface = interface
        self.display = display
        self.version = UInt32(version)
        self.privilege = privilege
        self.requests = requests
        self.context = Unmanaged.passUnretained(context).toOpaque()
        self.bound = bound
        self.destroyed = destroyed
        global = wl_global_create(display, interface, version, Unmanaged.passUnretained(self).toOpaque()) { client, data, version, id in
            guard let client, let data else { return }
            Unmanaged<Global>.fromOpaque(data).takeUnretainedValue().bind(client, version, id)
        }
    }

    private func bind(_ client: OpaquePointer, _ version: UInt32, _ id: UInt32) {
        guard let resource = wl_resource_create(client, interface, Int32(version), id) else {
            return wl_client_post_no_memory(client)
        }
        wl_resource_set_implementation(resource, requests.pointer, context, destroyed)
        bound?(resource, client)
    }

    /// Withdraws the global: clients see wl_registry.global_remove, and resources already
    /// bound stay valid (and inert) until their clients release them. libwayland frees the
    /// global with the display, so a client binding it at the same moment is not refused.
    func remove() {
        guard let global else { return }
        // libwayland keeps a removed global (and asks the registry filter about it) after
        // this object is gone: nothing may find it through its user data any more.
        wl_global_set_user_data(global, nil)
        wl_global_remove(global)
        self.global = nil
    }

    deinit {
        if let global { wl_global_set_user_data(global, nil) }
    }

    /// The name `client`'s registry announced the global by (what a client is told to bind,
    /// as ext_transient_seat_v1.ready does); nil once removed, or when it cannot be known.
    ///
    /// libwayland says it from 1.22 on (`wl_global_get_name`). Debian 12's 1.21 does not,
    /// and keeps it as the third field of its `struct wl_global`, after the display and
    /// the interface: read there only when those two and the version beside it are this
    /// global's, so another layout answers nil rather than a wrong name.
    func name(for client: OpaquePointer) -> UInt32? {
        guard let global else { return nil }
        if let symbol = Self.getName {
            return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer, OpaquePointer) -> UInt32).self)(global, client)
        }
        let fields = UnsafeRawPointer(global)
        guard fields.load(as: OpaquePointer?.self) == display,
              fields.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self) == UnsafeRawPointer(interface),
              fields.load(fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.stride + 4, as: UInt32.self) == version else { return nil }
        return fields.load(fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.stride, as: UInt32.self)
    }

    nonisolated(unsafe) private static let getName: UnsafeMutableRawPointer? = dlsym(nil, "wl_global_get_name")

    /// The context object of a resource bound from a global whose context is a `T`.
    static func context<T: AnyObject>(of resource: OpaquePointer?, as type: T.Type = T.self) -> T? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
    }
}
