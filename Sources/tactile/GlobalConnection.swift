import CWaylandClient
import Glibc

/// A connection to a running Tactile holding one of its own globals (tactile_test_input_v1
/// for `inject`, tactile_inspector_v1 for `inspect`), which exist only when the server was
/// started for them; `missing` says how.
final class GlobalConnection {
    let display: OpaquePointer
    fileprivate let interface: UnsafePointer<wl_interface>
    fileprivate(set) var global: OpaquePointer?
    private let registry: OpaquePointer

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(socket: String?, interface: UnsafePointer<wl_interface>, missing: String) throws {
        display = try Self.connect(socket)
        self.interface = interface
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, globalListener, Unmanaged.passUnretained(self).toOpaque())
        wl_display_roundtrip(display)
        guard global != nil else {
            throw Failure(description: "the compositor has no \(String(cString: interface.pointee.name!)) (\(missing))")
        }
    }

    /// The proxies go before the display: disconnecting frees only the display's own memory.
    deinit {
        if let global { wl_proxy_destroy(global) }
        wl_registry_destroy(registry)
        wl_display_disconnect(display)
    }

    /// The display at `socket` (nil: $WAYLAND_DISPLAY), or an error naming where it looked.
    static func connect(_ socket: String?) throws -> OpaquePointer {
        guard let display = wl_display_connect(socket) else {
            throw Failure(description: "cannot connect to \(socket ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0")")
        }
        return display
    }
}

nonisolated(unsafe) private let globalListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_registry_listener(
        global: { data, registry, name, interface, version in
            let connection = Unmanaged<GlobalConnection>.fromOpaque(data!).takeUnretainedValue()
            guard connection.global == nil, let interface, strcmp(interface, connection.interface.pointee.name) == 0 else { return }
            // The newest both sides know: an older server still takes the older requests.
            let known = UInt32(connection.interface.pointee.version)
            connection.global = OpaquePointer(wl_registry_bind(registry, name, connection.interface, min(version, known)))
        },
        global_remove: { _, _, _ in }
    ))
    return listener
}()
