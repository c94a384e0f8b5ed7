import CWaylandServer
import Responder
import WaylandProtocols

/// wp_fifo_v1 and wp_commit_timer_v1 (`Fifo.swift`, `CommitTimer.swift`): content updates
/// that wait (for the refresh after the previous one was shown, or for a time) are held back
/// by the surface's `PacedSurface` and queue on their surface, in order (`Surface.queue`),
/// and are applied from here: when an output the surface is on shows a frame (its barrier
/// clears), and by a timer for target times and for surfaces no output is showing (which
/// the protocol lets the compositor not hold back: a barrier older than a refresh clears).
/// One surface's queue never holds another's updates.
final class FramePacing: ServerPart {
    private unowned(unsafe) let context: any PartContext
    private let outputs: Outputs
    private var tracked: [WeakPaced] = []
    private var timer: EventSource?
    private var globals: [Global] = []

    private struct WeakPaced { weak var paced: PacedSurface? }

    init(display: OpaquePointer, context: any PartContext, outputs: Outputs) {
        self.context = context
        self.outputs = outputs
        globals = [
            Global(display: display, interface: tactile_wp_fifo_manager_v1_interface(), version: 1, context: self, requests: FifoObject.managerRequests),
            Global(display: display, interface: tactile_wp_commit_timing_manager_v1_interface(), version: 1, context: self,
                   requests: CommitTimerObject.managerRequests),
        ]
        timer = EventSource.timer(on: wl_display_get_event_loop(display), loopOwner: nil) { [unowned self] in tick() }
    }

    func stop() { timer = nil }

    var now: Instant { context.currentTime }

    /// The refresh interval the barrier is held for at most: the first output's.
    private var refresh: Duration {
        let milliHertz = max(1000, Int(outputs.primary?.description.refresh ?? 60_000))
        return .microseconds(Int64(1_000_000_000 / milliHertz))
    }

    /// `surface` has a barrier set or updates waiting (only its `PacedSurface` holds updates
    /// back): it is watched until it has neither.
    func watch(_ surface: Surface) {
        guard let paced = surface.addon(PacedSurface.self) else { return }
        watch(paced)
    }

    func watch(_ paced: PacedSurface) {
        if !tracked.contains(where: { $0.paced === paced }) { tracked.append(WeakPaced(paced: paced)) }
        arm()
    }

    /// `output` showed a frame: the barriers of the surfaces on it set before it was composed
    /// clear (the update that set one was in that frame).
    func framePresented(on output: Output, _ frame: PresentedFrame) {
        guard let composedAt = output.composedAt else { return }
        for (paced, surface) in live where surface.enteredOutputs.contains(output.id) {
            if let since = paced.barrierSince, !(composedAt < since) { paced.clearBarrier() }
        }
        arm()
    }

    /// The surfaces still paced, with their add-on; the rest are forgotten.
    private var live: [(PacedSurface, Surface)] {
        tracked.removeAll { $0.paced.map { !$0.isPacing } ?? true }
        return tracked.compactMap { entry in entry.paced.flatMap { paced in paced.surface.map { (paced, $0) } } }
    }

    private func tick() {
        let now = context.currentTime
        for (paced, surface) in live {
            if let since = paced.barrierSince, now - since >= hold(surface) { paced.clearBarrier() } else { surface.applyReadyUpdates() }
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
    /// Runs at every commit that sets a barrier and every frame shown: it builds no arrays
    /// beyond `live`.
    private func arm() {
        let now = context.currentTime
        var next: Instant?
        for (paced, surface) in live {
            if let since = paced.barrierSince {
                let wake = since.advanced(by: hold(surface))
                next = min(next ?? wake, wake)
            }
            for update in surface.waitingUpdates {
                if let wake = update[CommitTarget.self].time { next = min(next ?? wake, wake) }
            }
        }
        guard let next else { return }
        let wait = (Int64(next.microseconds) - Int64(now.microseconds)) / 1000 + 1
        timer?.arm(milliseconds: Int32(clamping: max(1, wait)))
    }

    /// The pacing add-on of `surface`, attached by the first fifo or commit timer made for it.
    func paced(_ surface: Surface) -> PacedSurface {
        if let paced = surface.addon(PacedSurface.self) { return paced }
        let paced = PacedSurface(pacing: self, surface: surface)
        surface.attachAddon(paced)
        return paced
    }
}

/// What holds a surface's updates back: fifo's barrier (set when an update that sets it is
/// applied, cleared by frame pacing) and commit target times. It lives as long as the
/// surface, not as the fifo or timer object: destroying those leaves the state they made.
final class PacedSurface: SurfaceAddon {
    private unowned(unsafe) let pacing: FramePacing
    /// When an applied update set the barrier; nil while there is none.
    private(set) var barrierSince: Instant?
    private(set) weak var surface: Surface?

    init(pacing: FramePacing, surface: Surface) {
        self.pacing = pacing
        self.surface = surface
    }

    func mayApply(_ state: SurfaceState) -> Bool {
        (!state[FifoRequests.self].waitsForBarrier || barrierSince == nil)
            && (state[CommitTarget.self].time.map { !(pacing.now < $0) } ?? true)
    }

    func applied(_ surface: Surface) {
        guard surface.current[FifoRequests.self].setsBarrier else { return }
        barrierSince = pacing.now
        pacing.watch(self)
    }

    /// Whether frame pacing still has something to do for the surface.
    var isPacing: Bool {
        guard let surface, surface.resource != nil else { return false }
        return barrierSince != nil || !surface.waitingUpdates.isEmpty
    }

    /// The refresh after the barrier was set has come: waiting updates may apply.
    func clearBarrier() {
        barrierSince = nil
        surface?.applyReadyUpdates()
    }
}
