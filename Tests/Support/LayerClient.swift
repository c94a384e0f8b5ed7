import CWaylandClient
import WaylandProtocols

/// A test client's zwlr_layer_surface_v1 and its surface, with the configures it got. The
/// test sets its state and commits; `map` acks the latest configure and commits a buffer.
final class LayerClientSurface {
    let surface: OpaquePointer
    let layerSurface: OpaquePointer
    /// The latest configure: its serial and size.
    var configure: (serial: UInt32, width: UInt32, height: UInt32)?
    var closed = false

    init(client: TestClient, layer: UInt32, namespace: String = "test") {
        surface = wl_compositor_create_surface(client.compositor)!
        layerSurface = zwlr_layer_shell_v1_get_layer_surface(client.layerShell, surface, nil, layer, namespace)!
        zwlr_layer_surface_v1_add_listener(layerSurface, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Acks the latest configure and shows a buffer of its size.
    func map(client: TestClient, colour: UInt32 = 0xff00_00ff) throws {
        guard let configure else { throw ClientError.protocolError("no configure before map") }
        zwlr_layer_surface_v1_ack_configure(layerSurface, configure.serial)
        try client.commitBuffer(surface, width: Int32(configure.width), height: Int32(configure.height), colour: colour)
        try client.roundtrip()
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<zwlr_layer_surface_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwlr_layer_surface_v1_listener(
            configure: { data, _, serial, width, height in
                Unmanaged<LayerClientSurface>.fromOpaque(data!).takeUnretainedValue().configure = (serial, width, height)
            },
            closed: { data, _ in Unmanaged<LayerClientSurface>.fromOpaque(data!).takeUnretainedValue().closed = true }
        ))
        return pointer
    }()
}
