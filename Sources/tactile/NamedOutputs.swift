import CWaylandClient

/// A client's wl_outputs with the names version 4 gives them, in the order announced: how
/// `capture --output` and `calibrate --map` name the screens.
final class NamedOutputs {
    private(set) var list: [(proxy: OpaquePointer, name: String?)] = []

    /// Binds the wl_output global `name`; its name comes with the next round trip.
    func bind(_ registry: OpaquePointer?, name: UInt32, version: UInt32) {
        guard let proxy = wl_registry_bind(registry, name, tactile_client_wl_output_interface(), min(version, 4)) else { return }
        list.append((OpaquePointer(proxy), nil))
        wl_output_add_listener(OpaquePointer(proxy), namedOutputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func named(_ proxy: OpaquePointer?, _ name: String) {
        guard let index = list.firstIndex(where: { $0.proxy == proxy }) else { return }
        list[index].name = name
    }
}

nonisolated(unsafe) private let namedOutputListener: UnsafeMutablePointer<wl_output_listener> = {
    let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { _, _, _ in },
        name: { data, proxy, name in Unmanaged<NamedOutputs>.fromOpaque(data!).takeUnretainedValue().named(proxy, String(cString: name!)) },
        description: { _, _, _ in }
    ))
    return listener
}()
