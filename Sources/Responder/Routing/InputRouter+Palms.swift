/// Palm rejection: a hand resting on a screen tablet while its pen signs. While a pen is in
/// proximity over a client's surface, that client's new touches are held back; the pen's tip
/// touching makes them palms (dropped, never seen), as does hovering on past `palmWindow`
/// after a touch landed; the pen leaving sooner releases them as the touches they were.
/// libinput's own arbitration, between a tablet's pen and the same device's touches, stays.
enum PalmVerdict {
    /// Held until the pen decides.
    case maybe
    /// The pen's tip is down over the client: a finger now is the hand.
    case palm
}

extension InputRouter {
    /// How long after a touch lands the pen above it may leave and still leave it a touch.
    public static let palmWindow: Duration = .milliseconds(300)

    /// For a touch landing on `client`'s surface: what the pens over that client make of it,
    /// nil when none hovers there (or palm rejection is off).
    mutating func palmVerdict(for client: ClientID) -> PalmVerdict? {
        guard policy.rejectsPalms, !pens.isEmpty else { return nil }
        var verdict: PalmVerdict?
        for index in pens.indices where penClient(index) == client {
            if pens[index].tipDown { return .palm }
            verdict = .maybe
        }
        return verdict
    }

    /// The client a pen is over: the one it is a tool of, else the one under it.
    private mutating func penClient(_ index: Int) -> ClientID? {
        if case .tablet(let focus) = pens[index].target { return focus.client }
        return scene.hitTest(at: pens[index].position).flatMap { scene.node($0.node)?.client }
    }

    /// A pen's tip touched: every touch held as maybe a palm is one.
    mutating func penTouchedDown(_ sink: inout some DeliverySink) {
        for k in touches.indices where touches[k].palmSince != nil { dropPalm(at: k, &sink) }
        removeSettledLiftedTouches()
    }

    /// The last pen left at `time`: touches held for less than `palmWindow` were touches
    /// after all and go out now, as they happened (frames included); older ones were palms.
    mutating func lastPenLeft(at time: Instant, _ sink: inout some DeliverySink) {
        guard touches.contains(where: { $0.palmSince != nil }) else { return }
        for k in touches.indices {
            guard let since = touches[k].palmSince else { continue }
            if time - since <= Self.palmWindow {
                touches[k].palmSince = nil
            } else {
                dropPalm(at: k, &sink)
            }
        }
        releaseHeldTouches(&sink)
        endTouchGroup(&sink)
    }

    private mutating func dropPalm(at k: Int, _ sink: inout some DeliverySink) {
        touches[k].palmSince = nil
        touches[k].owner = .nobody
        touches[k].held.removeAll()
        touches[k].owesHeldFrame = false
        sink.report(.touchDropped(id: touches[k].id, because: .palm))
    }
}
