import CWaylandServer
import WaylandProtocols

/// wp_fifo_v1's requests for one update; they do not persist past its commit.
struct FifoRequests: SurfaceStateSlot {
    /// Applying the update sets the barrier (until the refresh after it is shown).
    var setsBarrier = false
    /// The update waits while the barrier is set.
    var waitsForBarrier = false

    static var persists: Bool { false }
}

/// wp_fifo_v1: marks the next commit as setting the barrier, or waiting for it.
final class FifoObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }
    override func resourceDestroyed() { surface?.detachAddon(self) }

    private func mark(_ change: (inout FifoRequests) -> Void) {
        guard let surface else { return postError(WP_FIFO_V1_ERROR_SURFACE_DESTROYED.rawValue, "the wl_surface is gone") }
        surface.pending.slots.update(FifoRequests.self, change)
    }

    static let requests = RequestTable(wp_fifo_v1_interface(
        set_barrier: { _, resource in FifoObject.from(resource)?.mark { $0.setsBarrier = true } },
        wait_barrier: { _, resource in FifoObject.from(resource)?.mark { $0.waitsForBarrier = true } },
        destroy: destroyResource
    ))

    static let managerRequests = RequestTable(wp_fifo_manager_v1_interface(
        destroy: destroyResource,
        get_fifo: { client, resource, id, surfaceResource in
            guard let client, let resource, let pacing = Global.context(of: resource, as: FramePacing.self),
                  let surface = Surface.from(surfaceResource) else { return }
            guard surface.attachOne({ FifoObject(surface: surface) }, client: client, manager: resource, id: id,
                                    interface: tactile_wp_fifo_v1_interface(), requests: FifoObject.requests,
                                    alreadyExists: WP_FIFO_MANAGER_V1_ERROR_ALREADY_EXISTS.rawValue, "wp_fifo_v1") != nil else { return }
            _ = pacing.paced(surface)
        }
    ))
}
