import CWaylandServer
import Responder
import WaylandProtocols

/// Where system edge gestures are deferred to a surface, per edge (surface-local), as the
/// scene node the router reads has it.
struct EdgeDeferralRegions: SurfaceStateSlot {
    var regions: [Edge: Region] = [:]

    func shape(_ node: inout Node) { node.edgeGestureDeferral = regions }
}

/// tactile_edge_deferral_manager_v1 (protocol/tactile-edge-deferral-v1.xml); the routing
/// core enforces the per-edge limit (`RoutingPolicy.edgeDeferralLimit`), which clients are told.
final class EdgeDeferrals: ServerPart {
    private let limit: Double
    private var global: Global?

    init(display: OpaquePointer, limit: Double) {
        self.limit = limit
        global = Global(display: display, interface: tactile_tactile_edge_deferral_manager_v1_interface(), version: 1, context: self,
                        requests: Self.requests)
    }

    private static let requests = RequestTable(tactile_edge_deferral_manager_v1_interface(
        destroy: destroyResource,
        get_edge_deferral: { client, manager, id, surfaceResource in
            guard let client, let part = Global.context(of: manager, as: EdgeDeferrals.self), let surface = Surface.from(surfaceResource) else { return }
            guard let manager, let deferral = surface.attachOne({ EdgeDeferral(surface) }, client: client, manager: manager, id: id,
                                                                interface: tactile_tactile_edge_deferral_v1_interface(), requests: EdgeDeferral.requests,
                                                                alreadyExists: TACTILE_EDGE_DEFERRAL_MANAGER_V1_ERROR_ALREADY_DEFERRING.rawValue,
                                                                "tactile_edge_deferral_v1"),
                  let resource = deferral.resource else { return }
            tactile_edge_deferral_v1_send_limit(resource, UInt32(clamping: Int(part.limit)))
        }
    ))
}

/// tactile_edge_deferral_v1: sets a surface's deferred regions, as pending surface state.
final class EdgeDeferral: ResourceObject, SurfaceAddon {
    private weak var surface: Surface?

    init(_ surface: Surface) { self.surface = surface }

    /// The deferral object went away: nothing is deferred any more, from now on.
    override func resourceDestroyed() {
        guard let surface else { return }
        surface.detachAddon(self)
        surface.resetState { $0[EdgeDeferralRegions.self] = EdgeDeferralRegions() }
    }

    static let requests = RequestTable(tactile_edge_deferral_v1_interface(
        destroy: destroyResource,
        set_region: { _, resource, bits, regionResource in
            guard let deferral = EdgeDeferral.from(resource) else { return }
            let known: [(UInt32, Edge)] = [
                (TACTILE_EDGE_DEFERRAL_V1_EDGE_TOP.rawValue, .top), (TACTILE_EDGE_DEFERRAL_V1_EDGE_BOTTOM.rawValue, .bottom),
                (TACTILE_EDGE_DEFERRAL_V1_EDGE_LEFT.rawValue, .left), (TACTILE_EDGE_DEFERRAL_V1_EDGE_RIGHT.rawValue, .right),
            ]
            let all = known.reduce(0) { $0 | $1.0 }
            guard bits != 0, bits & ~all == 0 else {
                return deferral.postError(TACTILE_EDGE_DEFERRAL_V1_ERROR_INVALID_EDGE.rawValue, "edges \(bits) names no edge or an unknown one (top 1, bottom 2, left 4, right 8)")
            }
            let region = regionResource.flatMap { WlRegion.from($0)?.region }
            deferral.surface?.pending.slots.update(EdgeDeferralRegions.self) { deferred in
                for edge in known.filter({ bits & $0.0 != 0 }).map(\.1) { deferred.regions[edge] = region }
            }
        }
    ))
}
