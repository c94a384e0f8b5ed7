import CWaylandServer
import Responder
import WaylandProtocols

/// wp_viewport: crops and scales a surface's buffer (Chromium and video players use it to
/// show a buffer at another size). The state is double-buffered with the surface's.
final class ViewportObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) {
        self.surface = surface
    }

    override func resourceDestroyed() {
        guard let surface else { return }
        surface.pending.viewport = Viewport()
        surface.detachAddon(self)
    }

    private func setSource(x: Double, y: Double, width: Double, height: Double) {
        guard let surface else { return postError(WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface is gone") }
        if x == -1, y == -1, width == -1, height == -1 { return surface.pending.viewport.source = nil }
        guard x >= 0, y >= 0, width > 0, height > 0 else {
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "source \(x),\(y) \(width)x\(height): position must be non-negative and size positive")
        }
        surface.pending.viewport.source = (x, y, width, height)
    }

    private func setDestination(width: Int32, height: Int32) {
        guard let surface else { return postError(WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wl_surface is gone") }
        if width == -1, height == -1 { return surface.pending.viewport.destination = nil }
        guard width > 0, height > 0 else {
            return postError(WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, "destination \(width)x\(height) must be positive")
        }
        surface.pending.viewport.destination = Size(width: Int(width), height: Int(height))
    }

    /// At commit: a source must lie within the buffer, and without a destination its size
    /// must be whole surface pixels. False after posting the error.
    func validate(_ state: SurfaceState, buffer: BufferAttachment) -> Bool {
        guard let source = state.viewport.source else { return true }
        let (w, h) = state.transformedSize(buffer: buffer)
        guard source.x + source.width <= w, source.y + source.height <= h else {
            postError(WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue, "source \(source.x),\(source.y) \(source.width)x\(source.height) exceeds the \(w)x\(h) buffer")
            return false
        }
        guard state.viewport.destination != nil || (source.width == source.width.rounded() && source.height == source.height.rounded()) else {
            postError(WP_VIEWPORT_ERROR_BAD_SIZE.rawValue, "without a destination the source size \(source.width)x\(source.height) must be whole pixels")
            return false
        }
        return true
    }

    static let requests = RequestTable(wp_viewport_interface(
        destroy: destroyResource,
        set_source: { _, resource, x, y, width, height in
            ViewportObject.from(resource)?.setSource(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y),
                                                     width: wl_fixed_to_double(width), height: wl_fixed_to_double(height))
        },
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
