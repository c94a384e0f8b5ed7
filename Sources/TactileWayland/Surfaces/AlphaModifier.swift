import CWaylandServer
import WaylandProtocols

/// wp_alpha_modifier_v1's multiplier: UInt32.max opaque as drawn, 0 invisible.
struct AlphaMultiplier: SurfaceStateSlot {
    var factor = UInt32.max

    /// Every pixel the surface shows is another shade.
    func changesEveryPixel(from previous: AlphaMultiplier) -> Bool { factor != previous.factor }
}

extension SurfaceState {
    /// The alpha multiplier as the renderer takes it, 0 to 1.
    var opacity: Double { Double(self[AlphaMultiplier.self].factor) / Double(UInt32.max) }
}

/// wp_alpha_modifier_surface_v1: a surface's alpha multiplied by a factor, applied by the
/// renderer (a half-alpha surface composes at half opacity, and hides nothing below it).
/// Double-buffered with the surface's state.
final class AlphaModifierObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    override func resourceDestroyed() {
        guard let surface else { return }
        surface.pending[AlphaMultiplier.self] = AlphaMultiplier()
        surface.detachAddon(self)
    }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }

    private func setMultiplier(_ factor: UInt32) {
        guard let surface else { return postError(WP_ALPHA_MODIFIER_SURFACE_V1_ERROR_NO_SURFACE.rawValue, "the wl_surface is gone") }
        surface.pending[AlphaMultiplier.self].factor = factor
    }

    static let requests = RequestTable(wp_alpha_modifier_surface_v1_interface(
        destroy: destroyResource,
        set_multiplier: { _, resource, factor in AlphaModifierObject.from(resource)?.setMultiplier(factor) }
    ))
}

/// wp_alpha_modifier_v1: makes a surface's alpha modifier, one at most.
final class AlphaModifiers: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wp_alpha_modifier_v1_interface(), version: Self.version, context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(wp_alpha_modifier_v1_interface(
        destroy: destroyResource,
        get_surface: { client, resource, id, surfaceResource in
            guard let client, let resource, let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ AlphaModifierObject(surface: surface) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_alpha_modifier_surface_v1_interface(), requests: AlphaModifierObject.requests,
                              alreadyExists: WP_ALPHA_MODIFIER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "wp_alpha_modifier_surface_v1")
        }
    ))
}
