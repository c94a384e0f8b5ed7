import CWaylandServer
import Logging
import Responder

/// When each client hears its frame callback's `done`, and when composition need not wait
/// for its deadline any more.
///
/// A frame shown at a vblank completes the callbacks it carried. A client its compositor
/// just sent touch events draws the next frame from the touch it has when `done` comes, so
/// its callbacks are held until its draw budget (`ClientDrawTime`) before the next
/// composition's deadline (`RepaintSchedule.notBefore`): its frame then shows the newest
/// touch that can still make that vblank, as Mutter's and KWin's late compositing do for the
/// compositor's own work. Other clients (an animation no one touches) hear at once: a held
/// callback costs a wake-up, which pays only while a finger moves.
///
/// Every surface sent `done` is awaited for the coming refresh; once each has committed,
/// composition composes at once rather than at its deadline, so a one-client frame wakes
/// the server twice (its commit, its vblank), not three times.
final class ClientFrameClock {
    /// Callbacks due but held, with when each goes.
    private var held: [(callback: FrameCallback, at: Instant)] = []
    /// Surfaces sent `done` (or about to be) whose commit has not come yet this refresh.
    private var awaited: [WeakSurface] = []
    private var timer: EventSource?
    private let loop: OpaquePointer
    private let now: () -> Instant
    private let logger: Logger
    /// Every awaited surface has committed: composition need not wait for its deadline.
    var everyAwaitedAnswered: () -> Void = {}
    /// Callbacks sent, given back for reuse (`SpareFrameCallbacks`).
    var sent: (inout [FrameCallback]) -> Void = { $0.removeAll() }
    private var spent: [FrameCallback] = []

    private struct WeakSurface { weak var surface: Surface? }

    /// Touch sent to a client within this long before its frame was shown counts as a
    /// finger still moving (a touchscreen reports every 4 to 17 ms while one does).
    static let touchRecent = Duration.milliseconds(100)

    init(loop: OpaquePointer, logger: Logger, now: @escaping () -> Instant) {
        self.loop = loop
        self.logger = logger
        self.now = now
    }

    func stop() { timer = nil }

    /// Whether a composition waits for an awaited surface's commit or a held callback.
    var isAwaiting: Bool {
        !held.isEmpty || awaited.contains { $0.surface != nil }
    }

    /// A frame was shown at a vblank (or without one: `deadline` nil) and `due` are the
    /// callbacks it carried; the next composition is at `deadline`. Each callback goes now
    /// or at its surface's release time; `due` is emptied.
    func frameShown(_ due: inout [FrameCallback], deadline: Instant?) {
        let now = now()
        awaited.removeAll(keepingCapacity: true)
        for callback in due {
            guard let surface = callback.surface else {
                callback.complete(at: now.milliseconds)
                continue
            }
            let touched = surface.owner.touchSentAt.map { now - $0 < Self.touchRecent } ?? false
            if touched, let at = surface.drawTime.release(before: deadline, now: now) {
                held.append((callback, at))
                expect(surface, since: at)
            } else {
                callback.complete(at: now.milliseconds)
                expect(surface, since: now)
            }
        }
        due.removeAll { callback in held.contains { $0.callback === callback } }
        sent(&due)
        arm()
    }

    /// Held callbacks whose time came go.
    private func fire() {
        let now = now()
        for entry in held where !(now < entry.at) {
            entry.callback.complete(at: now.milliseconds)
            spent.append(entry.callback)
        }
        held.removeAll { !(now < $0.at) }
        sent(&spent)
        arm()
    }

    private func arm() {
        guard let next = held.map(\.at).min() else { return }
        if timer == nil { timer = EventSource.deadline(on: loop, loopOwner: nil) { [unowned self] in fire() } }
        timer?.arm(at: next)
    }

    private func expect(_ surface: Surface, since: Instant) {
        if !awaited.contains(where: { $0.surface === surface }) { awaited.append(WeakSurface(surface: surface)) }
        surface.frameAwaitedSince = since
    }

    /// `surface` committed while awaited: its draw time is measured (a commit more than a
    /// refresh after `done` answers no callback: the client had nothing to draw), and, once
    /// no surface is awaited any more, composition goes ahead.
    func answered(_ surface: Surface, refresh: Duration) {
        guard let since = surface.frameAwaitedSince else { return }
        let now = now()
        surface.frameAwaitedSince = nil
        if since < now, now - since < refresh, let budget = surface.drawTime.drew(in: now - since) {
            logger.debug("\(surface.owner.id) draws in \(budget.milliseconds) ms: its frame callbacks go that long before the composition")
        }
        // A commit before its held `done` (a client drawing on input, not on callbacks) is no
        // answer to measure; the callback still goes at its time.
        awaited.removeAll { $0.surface == nil || $0.surface === surface }
        if !isAwaiting { everyAwaitedAnswered() }
    }
}
