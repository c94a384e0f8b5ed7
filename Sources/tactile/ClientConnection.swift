import CWaylandClient
import Glibc

/// A connection for a client of the compositor's shared globals (`capture`, `calibrate`): the
/// globals by interface name, the outputs by the names wl_output 4 gives them, a global bound
/// with the reason the client needs it (a privileged one is absent, not refused, so the reason
/// names the privilege), and events dispatched until something holds.
final class ClientConnection {
    typealias Failure = GlobalConnection.Failure

    let display: OpaquePointer
    private let registry: OpaquePointer
    fileprivate var globals: [String: UInt32] = [:]
    /// The outputs in the order announced, each with its name.
    fileprivate(set) var outputs: [(proxy: OpaquePointer, name: String?)] = []
    /// The globals bound for callers, by interface name, which the connection owns.
    private var bound: [String: OpaquePointer] = [:]

    init(socket: String?) throws {
        display = try GlobalConnection.connect(socket)
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, connectionRegistryListener, Unmanaged.passUnretained(self).toOpaque())
        // The globals, then the names of the outputs bound as they were announced.
        wl_display_roundtrip(display)
        wl_display_roundtrip(display)
    }

    /// The proxies go before the display: disconnecting frees only the display's own memory.
    deinit {
        for proxy in Array(bound.values) + outputs.map(\.proxy) { wl_proxy_destroy(proxy) }
        wl_registry_destroy(registry)
        wl_display_disconnect(display)
    }

    /// The global of `interface`, bound at version 1 on first use and owned by the
    /// connection, or an error saying why the client needed it. Each caller gets the same
    /// proxy (the question shown on each screen in turn binds nothing new), so a listener
    /// goes on it once.
    func bind(_ interface: UnsafePointer<wl_interface>, _ why: String) throws -> OpaquePointer {
        let name = String(cString: interface.pointee.name)
        if let proxy = bound[name] { return proxy }
        guard let global = globals[name], let proxy = wl_registry_bind(registry, global, interface, 1) else {
            throw Failure(description: "the compositor offers no \(name) to this client (\(why))")
        }
        bound[name] = OpaquePointer(proxy)
        return OpaquePointer(proxy)
    }

    /// Dispatches events until `done` (or the monotonic `deadline`, in seconds); the
    /// compositor closing the connection is an error.
    func dispatch(until done: () -> Bool, deadline: Double? = nil) throws {
        let gone = { Failure(description: "the compositor went away (error \(wl_display_get_error(self.display)))") }
        while !done() {
            guard let deadline else {
                guard wl_display_dispatch(display) >= 0 else { throw gone() }
                continue
            }
            let left = deadline - Self.now()
            if left <= 0 { return }
            while wl_display_prepare_read(display) != 0 { guard wl_display_dispatch_pending(display) >= 0 else { throw gone() } }
            guard wl_display_flush(display) >= 0 || errno == EAGAIN else {
                wl_display_cancel_read(display)
                throw gone()
            }
            var poller = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(min(left, 1) * 1000) + 1) > 0 {
                guard wl_display_read_events(display) >= 0 else { throw gone() }
            } else {
                wl_display_cancel_read(display)
            }
            guard wl_display_dispatch_pending(display) >= 0 else { throw gone() }
        }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    fileprivate func announce(_ registry: OpaquePointer?, _ name: UInt32, _ interface: String, _ version: UInt32) {
        globals[interface] = name
        guard interface == "wl_output", let proxy = wl_registry_bind(registry, name, tactile_client_wl_output_interface(), min(version, 4)) else { return }
        outputs.append((OpaquePointer(proxy), nil))
        wl_output_add_listener(OpaquePointer(proxy), namedOutputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func named(_ proxy: OpaquePointer?, _ name: String) {
        guard let index = outputs.firstIndex(where: { $0.proxy == proxy }) else { return }
        outputs[index].name = name
    }
}

private func connection(_ data: UnsafeMutableRawPointer?) -> ClientConnection {
    Unmanaged<ClientConnection>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let connectionRegistryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_registry_listener(
        global: { data, registry, name, interface, version in connection(data).announce(registry, name, String(cString: interface!), version) },
        global_remove: { _, _, _ in }
    ))
    return listener
}()

nonisolated(unsafe) private let namedOutputListener: UnsafeMutablePointer<wl_output_listener> = {
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { _, _, _ in },
        name: { data, proxy, name in connection(data).named(proxy, String(cString: name!)) },
        description: { _, _, _ in }
    ))
    return listener
}()
