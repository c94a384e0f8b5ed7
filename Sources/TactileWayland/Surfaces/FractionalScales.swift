import CWaylandServer
import WaylandProtocols

/// wp_fractional_scale_manager_v1: a surface is told the scale to render at, in 120ths, so
/// Chromium, GTK and Qt draw a 1.5-scaled output at 1.5 (with a viewport) rather than at 2,
/// scaled down. Input stays in surface-local logical units whatever the scale.
final class FractionalScales: ServerPart {
    static let version: Int32 = 1
    private var global: Global?
    /// Every scale object made, so a scale changed at run time reaches them.
    private var made: [Weak] = []

    private struct Weak { weak var object: FractionalScale? }

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wp_fractional_scale_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    /// An output's scale may have changed (wlr-randr): each surface hears its new one.
    func layoutChanged() {
        made.removeAll { $0.object?.resource == nil }
        for entry in made { entry.object?.tell() }
    }

    private static let requests = RequestTable(wp_fractional_scale_manager_v1_interface(
        destroy: destroyResource,
        get_fractional_scale: { client, resource, id, surfaceResource in
            guard let client, let resource, let part = Global.context(of: resource, as: FractionalScales.self),
                  let surface = Surface.from(surfaceResource) else { return }
            guard let scale = surface.attachOne({ FractionalScale(surface: surface) }, client: client, manager: resource, id: id,
                                                interface: tactile_wp_fractional_scale_v1_interface(), requests: FractionalScale.requests,
                                                alreadyExists: WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue,
                                                "wp_fractional_scale_v1") else { return }
            part.made.append(Weak(object: scale))
            scale.tell()
        }
    ))
}

/// wp_fractional_scale_v1: one surface's preferred scale, told again when it changes.
final class FractionalScale: ResourceObject, SurfaceAddon {
    private weak var surface: Surface?
    private var told: UInt32?

    init(surface: Surface) { self.surface = surface }

    /// The surface moved to other outputs.
    func outputsChanged(_ surface: Surface) { tell() }

    /// Sends the surface's preferred scale, when it is not what the client was last told.
    func tell() {
        guard let resource, let surface else { return }
        let scale = surface.preferredScale120
        guard scale != told else { return }
        told = scale
        wp_fractional_scale_v1_send_preferred_scale(resource, scale)
    }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }

    override func resourceDestroyed() { surface?.detachAddon(self) }

    static let requests = RequestTable(wp_fractional_scale_v1_interface(destroy: destroyResource))
}
