import CWaylandServer
import Responder
import WaylandProtocols

/// wp_commit_timer_v1's target time for one update: not applied before it; it does not
/// persist past its commit.
struct CommitTarget: SurfaceStateSlot {
    var time: Instant?

    static var persists: Bool { false }
}

/// wp_commit_timer_v1: the next commit's target time.
final class CommitTimerObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }
    override func resourceDestroyed() { surface?.detachAddon(self) }

    private func setTimestamp(high: UInt32, low: UInt32, nanoseconds: UInt32) {
        guard let surface else { return postError(WP_COMMIT_TIMER_V1_ERROR_SURFACE_DESTROYED.rawValue, "the wl_surface is gone") }
        guard nanoseconds < 1_000_000_000 else {
            return postError(WP_COMMIT_TIMER_V1_ERROR_INVALID_TIMESTAMP.rawValue, "tv_nsec \(nanoseconds) is a second or more")
        }
        guard surface.pending[CommitTarget.self].time == nil else {
            return postError(WP_COMMIT_TIMER_V1_ERROR_TIMESTAMP_EXISTS.rawValue, "the next commit already has a target time")
        }
        // A time past what the clock's microseconds hold in 63 bits (146,000 years) is held there.
        let seconds = min(UInt64(high) << 32 | UInt64(low), UInt64(Int64.max) / 2_000_000)
        surface.pending[CommitTarget.self].time = Instant(microseconds: seconds * 1_000_000 + UInt64(nanoseconds / 1000))
    }

    static let requests = RequestTable(wp_commit_timer_v1_interface(
        set_timestamp: { _, resource, high, low, nanoseconds in
            CommitTimerObject.from(resource)?.setTimestamp(high: high, low: low, nanoseconds: nanoseconds)
        },
        destroy: destroyResource
    ))

    static let managerRequests = RequestTable(wp_commit_timing_manager_v1_interface(
        destroy: destroyResource,
        get_timer: { client, resource, id, surfaceResource in
            guard let client, let resource, let pacing = Global.context(of: resource, as: FramePacing.self),
                  let surface = Surface.from(surfaceResource) else { return }
            guard surface.attachOne({ CommitTimerObject(surface: surface) }, client: client, manager: resource, id: id,
                                    interface: tactile_wp_commit_timer_v1_interface(), requests: CommitTimerObject.requests,
                                    alreadyExists: WP_COMMIT_TIMING_MANAGER_V1_ERROR_COMMIT_TIMER_EXISTS.rawValue, "wp_commit_timer_v1") != nil
            else { return }
            _ = pacing.paced(surface)
        }
    ))
}
