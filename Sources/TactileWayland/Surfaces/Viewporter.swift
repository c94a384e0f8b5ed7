import CWaylandServer
import Responder
import WaylandProtocols

/// wp_viewport's state: which part of the buffer is shown (buffer coordinates after the
/// buffer transform and scale, fractional), and at which surface size. Kept as the client
/// sent it (wl_fixed and int32) so that it fits the three words a slot is held in: a
/// surface's state is copied at each commit, and a larger value would be boxed on the heap.
struct Viewport: SurfaceStateSlot, Equatable {
    /// x, y, width, height in wl_fixed; a negative width: no source.
    private var sourceX: Int32 = 0, sourceY: Int32 = 0, sourceWidth: Int32 = -1, sourceHeight: Int32 = -1
    /// A negative width: no destination.
    private var destinationWidth: Int32 = -1, destinationHeight: Int32 = -1

    init() {}

    var source: (x: Double, y: Double, width: Double, height: Double)? {
        guard sourceWidth >= 0 else { return nil }
        return (wl_fixed_to_double(sourceX), wl_fixed_to_double(sourceY), wl_fixed_to_double(sourceWidth), wl_fixed_to_double(sourceHeight))
    }

    var destination: Size? {
        destinationWidth < 0 ? nil : Size(width: Int(destinationWidth), height: Int(destinationHeight))
    }

    var isSet: Bool { sourceWidth >= 0 || destinationWidth >= 0 }

    /// The client's values once checked; nil unsets.
    mutating func setSource(_ fixed: (x: Int32, y: Int32, width: Int32, height: Int32)?) {
        (sourceX, sourceY, sourceWidth, sourceHeight) = fixed ?? (0, 0, -1, -1)
    }

    mutating func setDestination(_ size: (width: Int32, height: Int32)?) {
        (destinationWidth, destinationHeight) = size ?? (-1, -1)
    }
}

/// wp_viewport: crops and scales a surface's buffer (Chromium and video players use it to
/// show a buffer at another size). The state is double-buffered with the surface's.
final class ViewportObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) {
        self.surface = surface
    }

    override func resourceDestroyed() {
        guard let surface else { return }
        surface.pending[Viewport.self] = Viewport()
        surface.detachAddon(self)
    }

    private func setSource(x: wl_fixed_t, y: wl_fixed_t, width: wl_fixed_t, height: wl_fixed_t) {
        guard let surface else { return postError(WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface is gone") }
        let unset = wl_fixed_from_int(-1)
        if x == unset, y == unset, width == unset, height == unset { return surface.pending.slots.update(Viewport.self) { $0.setSource(nil) } }
        guard x >= 0, y >= 0, width > 0, height > 0 else {
            let (x, y, width, height) = (wl_fixed_to_double(x), wl_fixed_to_double(y), wl_fixed_to_double(width), wl_fixed_to_double(height))
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "source \(x),\(y) \(width)x\(height): position must be non-negative and size positive")
        }
        surface.pending.slots.update(Viewport.self) { $0.setSource((x, y, width, height)) }
    }

    private func setDestination(width: Int32, height: Int32) {
        guard let surface else { return postError(WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface is gone") }
        if width == -1, height == -1 { return surface.pending.slots.update(Viewport.self) { $0.setDestination(nil) } }
        guard width > 0, height > 0 else {
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "destination \(width)x\(height) must be positive")
        }
        surface.pending.slots.update(Viewport.self) { $0.setDestination((width, height)) }
    }

    /// At commit: a source must lie within the buffer, and without a destination its size
    /// must be whole surface pixels. False after posting the error.
    func validate(_ state: SurfaceState, buffer: BufferAttachment) -> Bool {
        let viewport = state[Viewport.self]
        guard let source = viewport.source else { return true }
        let (w, h) = state.transformedSize(buffer: buffer)
        guard source.x + source.width <= w, source.y + source.height <= h else {
            postError(WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue, "source \(source.x),\(source.y) \(source.width)x\(source.height) exceeds the \(w)x\(h) buffer")
            return false
        }
        guard viewport.destination != nil || (source.width == source.width.rounded() && source.height == source.height.rounded()) else {
            postError(WP_VIEWPORT_ERROR_BAD_SIZE.rawValue, "without a destination the source size \(source.width)x\(source.height) must be whole pixels")
            return false
        }
        return true
    }

    static let requests = RequestTable(wp_viewport_interface(
        destroy: destroyResource,
        set_source: { _, resource, x, y, width, height in ViewportObject.from(resource)?.setSource(x: x, y: y, width: width, height: height) },
        set_destination: { _, resource, width, height in ViewportObject.from(resource)?.setDestination(width: width, height: height) }
    ))
}

/// wp_viewporter: makes the wp_viewport of a surface, one at most.
final class Viewporter: ServerPart {
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wp_viewporter_interface(), version: 1, context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(wp_viewporter_interface(
        destroy: destroyResource,
        get_viewport: { client, resource, id, surfaceResource in
            guard let client, let resource, let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ ViewportObject(surface: surface) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_viewport_interface(), requests: ViewportObject.requests,
                              alreadyExists: WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue, "wp_viewport")
        }
    ))
}
