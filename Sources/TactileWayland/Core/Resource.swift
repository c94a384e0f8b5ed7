import CWaylandServer

/// A Swift object behind a wl_resource: retained while the resource lives and released in the
/// resource's destroy callback, which libwayland runs on a destroy request, on client
/// disconnect and on display destruction alike.
class ResourceObject {
    /// The resource; nil once it is destroyed.
    private(set) var resource: OpaquePointer?

    /// Creates `wl_resource` for `client` and makes this object its user data; an interface
    /// without requests (wl_callback) has no implementation.
    /// Returns false (after telling the client it is out of memory) when libwayland can't.
    @discardableResult
    func bind(client: OpaquePointer, interface: UnsafePointer<wl_interface>, version: Int32, id: UInt32, implementation: RequestTable?) -> Bool {
        guard let created = wl_resource_create(client, interface, version, id) else {
            wl_client_post_no_memory(client)
            return false
        }
        resource = created
        wl_resource_set_implementation(created, implementation?.pointer, Unmanaged.passRetained(self).toOpaque(), releaseResourceObject)
        return true
    }

    /// Called once when the resource goes away, before the object is released.
    func resourceDestroyed() {}

    fileprivate func forgetResource() {
        resourceDestroyed()
        resource = nil
    }

    var version: Int32 { resource.map(wl_resource_get_version) ?? 0 }

    /// Posts a protocol error on this resource: libwayland then disconnects the client.
    func postError(_ code: UInt32, _ message: String) {
        guard let resource else { return }
        tactile_post_error(resource, code, message)
    }

    /// Disconnects the client for passing one of the server's limits (wl_display's
    /// implementation error): no interface has an error code for that.
    func postLimitError(_ message: String) {
        guard let resource else { return }
        tactile_post_implementation_error(wl_resource_get_client(resource), message)
    }

    /// The object a resource of ours carries, or nil for a resource that is not ours.
    static func from(_ resource: OpaquePointer?) -> Self? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? Self
    }

    /// The object `resource` carries when it was made for `interface` with `requests`, which
    /// libwayland checks before the user data is read: for an object the client named, of an
    /// interface several classes implement (a wl_buffer: shm, dmabuf, single-pixel).
    static func from(_ resource: OpaquePointer?, madeFor interface: UnsafePointer<wl_interface>, with requests: RequestTable) -> Self? {
        guard let resource, wl_resource_instance_of(resource, interface, requests.pointer) != 0 else { return nil }
        return from(resource)
    }
}

private let releaseResourceObject: @convention(c) (OpaquePointer?) -> Void = { resource in
    guard let resource, let data = wl_resource_get_user_data(resource) else { return }
    let object = Unmanaged<ResourceObject>.fromOpaque(data).takeRetainedValue()
    object.forgetResource()
}

/// A request implementation table with a stable address, as wl_resource_set_implementation
/// wants. Written once and never changed, hence safe to share.
struct RequestTable: @unchecked Sendable {
    let pointer: UnsafeRawPointer

    init<T>(_ table: T) {
        let storage = UnsafeMutablePointer<T>.allocate(capacity: 1)
        storage.initialize(to: table)
        pointer = UnsafeRawPointer(storage)
    }
}

/// The `destroy` request of most interfaces.
let destroyResource: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, resource in
    wl_resource_destroy(resource)
}
