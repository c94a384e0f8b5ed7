import CWaylandServer
import Logging
import WaylandProtocols

/// The client would have the surface shown torn rather than at vertical blanks.
struct TearingHint: SurfaceStateSlot {
    var async = false
}

/// wp_tearing_control_v1: a surface's wish to be shown torn (async) rather than at vertical
/// blanks. Kept with its committed state and named by the inspector; composition marks a
/// frame torn while the surface alone fills its output (`OutputFrame.torn`), and a DRM
/// output whose driver can flips to it at once. The log says once per surface that it asked.
final class TearingControlObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?
    private let logger: Logger
    private var said = false

    init(surface: Surface, logger: Logger) {
        self.surface = surface
        self.logger = logger
    }

    override func resourceDestroyed() {
        guard let surface else { return }
        surface.pending[TearingHint.self] = TearingHint()
        surface.detachAddon(self)
    }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }

    func applied(_ surface: Surface) {
        guard surface.current[TearingHint.self].async, !said, let resource = surface.resource else { return }
        said = true
        logger.info("wl_surface@\(wl_resource_get_id(resource)) of pid \(surface.owner.pid) asks to be shown torn (wp_tearing_control_v1 async): torn while it alone fills a screen whose driver flips between vertical blanks (the DRM backend says), at vertical blanks otherwise")
    }

    private func set(_ hint: UInt32) {
        // The surface gone, the object is inert.
        guard let surface else { return }
        guard hint <= WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC.rawValue else {
            return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "set_presentation_hint: \(hint) is no wp_tearing_control_v1.presentation_hint")
        }
        surface.pending[TearingHint.self].async = hint == WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC.rawValue
    }

    static let requests = RequestTable(wp_tearing_control_v1_interface(
        set_presentation_hint: { _, resource, hint in TearingControlObject.from(resource)?.set(hint) },
        destroy: destroyResource
    ))
}

/// wp_tearing_control_manager_v1: makes a surface's tearing control, one at most.
final class TearingControls: ServerPart {
    static let version: Int32 = 1
    private let logger: Logger
    private var global: Global?

    init(display: OpaquePointer, logger: Logger) {
        self.logger = logger
        global = Global(display: display, interface: tactile_wp_tearing_control_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    private static let requests = RequestTable(wp_tearing_control_manager_v1_interface(
        destroy: destroyResource,
        get_tearing_control: { client, resource, id, surfaceResource in
            guard let client, let resource, let part = Global.context(of: resource, as: TearingControls.self),
                  let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ TearingControlObject(surface: surface, logger: part.logger) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_tearing_control_v1_interface(), requests: TearingControlObject.requests,
                              alreadyExists: WP_TEARING_CONTROL_MANAGER_V1_ERROR_TEARING_CONTROL_EXISTS.rawValue, "wp_tearing_control_v1")
        }
    ))
}
