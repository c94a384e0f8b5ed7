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
    /// Callbacks due but held, with when each goes, soonest first.
    private var held: [(callback: FrameCallback, at: Instant)] = []
    /// The refreshes counted, one per shown frame; a surface sent `done` in the current one
    /// is awaited until it commits (`Surface.frameAwaitedIn`).
    private var refresh = 0
    /// Surfaces sent `done` (or about to be) this refresh whose commit has not come yet. One
    /// that goes away meanwhile stays counted: the composition then waits for its deadline.
    private var awaiting = 0
    private var timer: EventSource?
    private let loop: OpaquePointer
    private let now: () -> Instant
    private let logger: Logger
    /// Every awaited surface has committed: composition need not wait for its deadline.
    var everyAwaitedAnswered: () -> Void = {}
    /// Callbacks sent, given back for reuse (`SpareFrameCallbacks`).
    var sent: (inout [FrameCallback]) -> Void = { $0.removeAll() }
    private var spent: [FrameCallback] = []

    /// Touch sent to a client within this long before its frame was shown counts as a
    /// finger still moving (a touchscreen reports every 4 to 17 ms while one does).
    static let touchRecent = Duration.milliseconds(100)
    /// Held callbacks due this close together go with one wake-up.
    static let coalesced = Duration.microseconds(250)

    init(loop: OpaquePointer, logger: Logger, now: @escaping () -> Instant) {
        self.loop = loop
        self.logger = logger
        self.now = now
    }

    func stop() { timer = nil }

    /// Whether a composition waits for an awaited surface's commit or a held callback.
    var isAwaiting: Bool { !held.isEmpty || awaiting > 0 }

    /// A frame was shown at a vblank (or without one: `deadline` nil) and `due` are the
    /// callbacks it carried; the next composition is at `deadline`. Each callback goes now
    /// or at its surface's release time; `due` is emptied. Linear in the callbacks (a
    /// client may ask for thousands), bar sorting the held ones.
    func frameShown(_ due: inout [FrameCallback], deadline: Instant?) {
        let now = now()
        refresh &+= 1
        awaiting = 0
        let heldBefore = held.count
        var going = 0
        for index in due.indices {
            let callback = due[index]
            if let surface = callback.surface {
                let touched = surface.owner.touchSentAt.map { now - $0 < Self.touchRecent } ?? false
                if touched, let at = surface.drawTime.release(before: deadline, now: now) {
                    held.append((callback, at))
                    expect(surface, since: at)
                    continue
                }
                expect(surface, since: now)
            }
            callback.complete(at: now.milliseconds)
            due[going] = callback
            going += 1
        }
        due.removeSubrange(going...)
        if held.count > heldBefore { held.sort { $0.at < $1.at } }
        sent(&due)
        arm()
    }

    /// Held callbacks whose time came (or comes within `coalesced`) go.
    private func fire() {
        let now = now()
        let cutoff = now.advanced(by: Self.coalesced)
        let count = held.prefix { !(cutoff < $0.at) }.count
        for entry in held[..<count] {
            entry.callback.complete(at: now.milliseconds)
            spent.append(entry.callback)
        }
        held.removeFirst(count)
        sent(&spent)
        arm()
    }

    private func arm() {
        guard let next = held.first?.at else { return }
        if timer == nil { timer = EventSource.deadline(on: loop, loopOwner: nil) { [unowned self] in fire() } }
        timer?.arm(at: next)
    }

    private func expect(_ surface: Surface, since: Instant) {
        if surface.frameAwaitedIn != refresh {
            surface.frameAwaitedIn = refresh
            awaiting += 1
        }
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
        if surface.frameAwaitedIn == self.refresh {
            surface.frameAwaitedIn = nil
            awaiting -= 1
        }
        if !isAwaiting { everyAwaitedAnswered() }
    }
}
