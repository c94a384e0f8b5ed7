import CWaylandServer
import Responder
import WaylandProtocols

/// wp_fifo_v1 and wp_commit_timer_v1: content updates that wait (for the refresh after the
/// previous one was shown, or for a time) queue on their surface, in order (`Surface.queue`),
/// and are applied from here: when an output the surface is on shows a frame (its barrier
/// clears), and by a timer for target times and for surfaces no output is showing (which
/// the protocol lets the compositor not hold back: a barrier older than a refresh clears).
/// One surface's queue never holds another's updates.
final class FramePacing: ServerPart {
    private unowned(unsafe) let context: any PartContext
    private let outputs: Outputs
    private var tracked: [WeakSurface] = []
    private var timer: EventSource?
    private var globals: [Global] = []

    private struct WeakSurface { weak var surface: Surface? }

    init(display: OpaquePointer, context: any PartContext, outputs: Outputs) {
        self.context = context
        self.outputs = outputs
        globals = [
            Global(display: display, interface: tactile_wp_fifo_manager_v1_interface(), version: 1, context: self, requests: Self.fifoRequests),
            Global(display: display, interface: tactile_wp_commit_timing_manager_v1_interface(), version: 1, context: self, requests: Self.timingRequests),
        ]
        timer = EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in tick() }
    }

    func stop() { timer = nil }

    /// The refresh interval the barrier is held for at most: the first output's.
    private var refresh: Duration {
        let milliHertz = max(1000, Int(outputs.primary?.description.refresh ?? 60_000))
        return .microseconds(Int64(1_000_000_000 / milliHertz))
    }

    /// `surface` has a barrier set or updates waiting: it is watched until it has neither.
    func watch(_ surface: Surface) {
        if !tracked.contains(where: { $0.surface === surface }) { tracked.append(WeakSurface(surface: surface)) }
        arm()
    }

    /// `output` showed a frame composed at `composedAt`: the barriers of the surfaces on it
    /// set before then clear (the update that set one was in that frame).
    func presented(_ output: OutputID, composedAt: Instant) {
        for surface in live where surface.enteredOutputs.contains(output) {
            if let since = surface.barrierSince, !(composedAt < since) { surface.clearBarrier() }
        }
        arm()
    }

    private var live: [Surface] {
        tracked.removeAll { $0.surface?.isPaced != true }
        return tracked.compactMap(\.surface)
    }

    private func tick() {
        let now = context.currentTime
        for surface in live {
            if let since = surface.barrierSince, now - since >= hold(surface) { surface.clearBarrier() } else { surface.applyReadyUpdates() }
        }
        arm()
    }

    /// How long a barrier is held without a frame showing the surface: a refresh where no
    /// output shows it (off screen, hidden, asleep); four on screen, where the frame that
    /// clears it is on its way, so that a client is never stuck when nothing repaints.
    private func hold(_ surface: Surface) -> Duration {
        let shown = surface.enteredOutputs.contains { outputs.output($0)?.poweredOn == true }
        return shown ? refresh * 4 : refresh
    }

    /// Wakes at the next target time, or when the oldest barrier has been held long enough.
    private func arm() {
        let now = context.currentTime
        let wakes = live.flatMap { surface in [surface.barrierSince.map { $0.advanced(by: hold(surface)) }, surface.nextTargetTime].compactMap { $0 } }
        guard let next = wakes.min() else { return }
        let wait = (Int64(next.microseconds) - Int64(now.microseconds)) / 1000 + 1
        timer?.arm(milliseconds: Int32(clamping: max(1, wait)))
    }

    private static let fifoRequests = RequestTable(wp_fifo_manager_v1_interface(
        destroy: destroyResource,
        get_fifo: { client, resource, id, surfaceResource in
            guard let client, let resource, let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ FifoObject(surface: surface) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_fifo_v1_interface(), requests: FifoObject.requests,
                              alreadyExists: WP_FIFO_MANAGER_V1_ERROR_ALREADY_EXISTS.rawValue, "wp_fifo_v1")
        }
    ))

    private static let timingRequests = RequestTable(wp_commit_timing_manager_v1_interface(
        destroy: destroyResource,
        get_timer: { client, resource, id, surfaceResource in
            guard let client, let resource, let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ CommitTimerObject(surface: surface) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_commit_timer_v1_interface(), requests: CommitTimerObject.requests,
                              alreadyExists: WP_COMMIT_TIMING_MANAGER_V1_ERROR_COMMIT_TIMER_EXISTS.rawValue, "wp_commit_timer_v1")
        }
    ))
}

/// wp_fifo_v1: marks the next commit as setting the barrier, or waiting for it.
final class FifoObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }
    override func resourceDestroyed() { surface?.detachAddon(self) }

    private func mark(_ change: (inout SurfaceState) -> Void) {
        guard let surface else { return postError(WP_FIFO_V1_ERROR_SURFACE_DESTROYED.rawValue, "the wl_surface is gone") }
        change(&surface.pending)
    }

    static let requests = RequestTable(wp_fifo_v1_interface(
        set_barrier: { _, resource in FifoObject.from(resource)?.mark { $0.setsBarrier = true } },
        wait_barrier: { _, resource in FifoObject.from(resource)?.mark { $0.waitsForBarrier = true } },
        destroy: destroyResource
    ))
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
        guard surface.pending.targetTime == nil else {
            return postError(WP_COMMIT_TIMER_V1_ERROR_TIMESTAMP_EXISTS.rawValue, "the next commit already has a target time")
        }
        // A time past what the clock's microseconds hold in 63 bits (146,000 years) is held there.
        let seconds = min(UInt64(high) << 32 | UInt64(low), UInt64(Int64.max) / 2_000_000)
        surface.pending.targetTime = Instant(microseconds: seconds * 1_000_000 + UInt64(nanoseconds / 1000))
    }

    static let requests = RequestTable(wp_commit_timer_v1_interface(
        set_timestamp: { _, resource, high, low, nanoseconds in
            CommitTimerObject.from(resource)?.setTimestamp(high: high, low: low, nanoseconds: nanoseconds)
        },
        destroy: destroyResource
    ))
}
