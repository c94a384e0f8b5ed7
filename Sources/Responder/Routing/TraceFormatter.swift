/// Names what a trace line mentions. The protocol layer answers with wl_surface ids,
/// app_id, title, pid and output names; the demo and tests with names of their own.
public protocol TraceNaming {
    func name(_ node: NodeID) -> String
    func name(_ client: ClientID) -> String
    func name(_ gesture: GestureID) -> String
    /// A global point, with the output it is on and where on it.
    func place(_ global: Point) -> String
}

/// One line per decision, `subject verb key=value...`, so a log can be grepped by touch id
/// (`touch 3 `), by verdict (`verdict=covered`) or by client. The words are part of the
/// interface: tests and docs/debugging.md quote them.
public enum TraceFormatter {
    public static func lines(_ event: TraceEvent, naming: some TraceNaming) -> [String] {
        switch event {
        case .hitTest(let touch, let global, let explanation):
            return lines(explaining: explanation, at: global, subject: "touch \(touch)", naming: naming)
        case .touchOwner(let touch, let owner):
            return [line(owner, subject: "touch \(touch)", naming: naming)]
        case .gestureOffered(let touch, let gesture):
            return ["touch \(touch) offered gesture=\(naming.name(gesture))"]
        case .gestureDeferred(let touch, let gesture):
            return ["touch \(touch) deferred gesture=\(naming.name(gesture)) reason=surface-holds-edge"]
        case .touchHeld(let touch, let client):
            return ["touch \(touch) held \(naming.name(client))"]
        case .touchReplayed(let touch, let client, let events):
            return ["touch \(touch) replayed events=\(events) \(naming.name(client))"]
        case .penClaimed(let pen, let gesture, let client):
            return ["pen \(pen) claimed gesture=\(naming.name(gesture))" + (client.map { " proximity-out \(naming.name($0))" } ?? " unowned")]
        case .touchClaimed(let touch, let gesture, let outcome):
            let head = "touch \(touch) claimed gesture=\(naming.name(gesture))"
            return switch outcome {
            case .cancelled(let client): ["\(head) cancelled \(naming.name(client)) (wl_touch.cancel)"]
            case .unseen(let client, let dropped): ["\(head) unseen \(naming.name(client)) dropped=\(dropped)"]
            case .pressAbandoned(let client): ["\(head) press-abandoned \(naming.name(client))"]
            case .unowned: ["\(head) unowned"]
            }
        case .touchpadGestureClaimed(let gesture, let client, let seen):
            let outcome = seen ? "cancelled \(naming.name(client)) (zwp_pointer_gesture end cancelled=1)" : "unseen \(naming.name(client))"
            return ["touchpad gesture claimed gesture=\(naming.name(gesture)) \(outcome)"]
        case .touchFiltered(let report, let device):
            return [line(report, device: device, naming: naming)]
        case .touchAccommodated(let report):
            return [line(report, naming: naming)]
        case .secondaryClick(let touch, let client, let held):
            return ["touch \(touch) secondary-click \(client.map(naming.name) ?? "nobody") held=\(held.milliseconds)ms (right button, no left)"]
        case .pointerFocus(let node, _, let cause):
            return ["pointer focus \(node.map(naming.name) ?? "none") cause=\(word(cause))"]
        case .keyboardFocus(let node, _, let cause):
            return ["keyboard focus \(node.map(naming.name) ?? "none") cause=\(word(cause))"]
        case .keyboardFocusWithheld(let node, _, let reason):
            return ["keyboard withheld \(naming.name(node)) reason=\(reason) (it wants attention)"]
        }
    }

    /// `touch N filtered filter=NAME verdict=WORD ...`: what a panel's filter did and why.
    public static func line(_ report: TouchFilterReport, device: String, naming: some TraceNaming) -> String {
        let head = "touch \(report.touch) filtered filter=\(report.filter.rawValue) device='\(device)' at=\(naming.place(report.at))"
        switch report.finding {
        case .bounce(let continues, let gap, let distance):
            return "\(head) verdict=bounce continues=\(continues) gap=\(gap.milliseconds)ms distance=\(distance.formatted)px (one touch)"
        case .heldStill(let radius): return "\(head) verdict=held-still radius=\(radius.formatted)px (no motion until it moves that far)"
        case .smoothed: return "\(head) verdict=smoothed (1€ filter)"
        case .inDeadZone(let zone): return "\(head) verdict=dead-zone zone=\(zone) (goes nowhere)"
        case .ghost(let lasted): return "\(head) verdict=ghost lasted=\(lasted.milliseconds)ms (goes nowhere)"
        case .stuck(let still): return "\(head) verdict=stuck still=\(still.milliseconds)ms (cancelled)"
        }
    }

    /// `touch N accommodated by=NAME verdict=WORD ...`: what a touch accommodation did and why.
    public static func line(_ report: AccommodationReport, naming: some TraceNaming) -> String {
        let head = "touch \(report.touch) accommodated by=\(report.accommodation.rawValue) at=\(naming.place(report.at))"
        switch report.finding {
        case .counted(let held): return "\(head) verdict=counted held=\(held.milliseconds)ms (its down goes on now)"
        case .liftedTooSoon(let lasted): return "\(head) verdict=too-short lasted=\(lasted.milliseconds)ms (goes nowhere)"
        case .movedAway(let distance): return "\(head) verdict=moved-away distance=\(distance.formatted)px (goes nowhere)"
        case .repeatOf(let first, let after, let distance):
            return "\(head) verdict=repeat of=\(first) after=\(after.milliseconds)ms distance=\(distance.formatted)px (goes nowhere)"
        case .tap(let place, let lasted, let slid):
            return "\(head) verdict=tap place=\(place.rawValue) lasted=\(lasted.milliseconds)ms slid=\(slid.formatted)px"
        case .delayed(let delay): return "\(head) verdict=delayed by=\(delay.milliseconds)ms (a touch, not a tap)"
        case .exempt(let reason): return "\(head) verdict=exempt reason=\(reason.rawValue)"
        }
    }

    /// A hit test's lines: where, then every node looked at with its verdict. `subject` is
    /// `touch N` for a touch-down, `point` for the inspector's question.
    public static func lines(explaining explanation: HitTestExplanation, at global: Point, subject: String, naming: some TraceNaming) -> [String] {
        var lines = ["\(subject) down at=\(naming.place(global))"]
        lines += explanation.steps.map { "\(subject) hit-test \(naming.name($0.node)) local=\(coordinates($0.local)) verdict=\(word($0.verdict))" }
        if explanation.result == nil { lines.append("\(subject) hit-test result=nothing") }
        return lines
    }

    public static func line(_ owner: TraceEvent.TouchOwner, subject: String, naming: some TraceNaming) -> String {
        switch owner {
        case .surface(let node, _, let local): "\(subject) owner \(naming.name(node)) local=\(coordinates(local))"
        case .emulatedPointer(let client): "\(subject) owner emulated-pointer \(naming.name(client)) (no wl_touch)"
        case .nobody(.noSurface): "\(subject) owner nobody reason=no-surface"
        case .nobody(.noTouchBinding): "\(subject) owner nobody reason=no-wl_touch"
        case .nobody(.palm): "\(subject) owner nobody reason=palm"
        }
    }

    /// An arena step of a recognizer: began, recognized, ended, cancelled or failed. `changed`
    /// is progress, not a decision, and makes no line.
    public static func line(_ event: GestureEvent, naming: some TraceNaming) -> String? {
        guard event.state != .changed, event.state != .possible else { return nil }
        return "gesture \(naming.name(event.gesture)) \(event.state)"
    }

    public static func word(_ verdict: HitVerdict) -> String {
        switch verdict {
        case .unmapped: "unmapped"
        case .hidden: "hidden"
        case .inputDisabled: "input-disabled"
        case .transparent: "transparent"
        case .ignoredByOverride: "ignored-by-hook"
        case .pruned: "pruned"
        case .clipped: "clipped"
        case .notInside: "outside-input-region"
        case .captured: "captured"
        case .hit: "hit"
        case .covered: "covered"
        }
    }

    static func word(_ cause: FocusCause) -> String {
        switch cause {
        case .pointerMoved: "pointer-moved"
        case .sceneChanged: "scene-changed"
        case .buttonsReleased: "buttons-released"
        case .surfaceRemoved: "surface-removed"
        case .compositorGrab: "compositor-grab"
        case .pressAbandoned: "press-abandoned"
        case .touched: "touched"
        case .clicked: "clicked"
        case .policy(let why): "policy(\(why))"
        }
    }

    /// Whole numbers without a fraction, as most input positions are.
    public static func coordinates(_ p: Point) -> String {
        "\(number(p.x)),\(number(p.y))"
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : twoDecimals(value)
    }
}

/// Two decimals, without Foundation.
private func twoDecimals(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let hundredths = (value * 100).rounded()
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = min(abs(hundredths), 9e17)
    let whole = (magnitude / 100).rounded(.down)
    let fraction = Int(magnitude - whole * 100)
    return "\(sign)\(Int64(whole)).\(fraction < 10 ? "0" : "")\(fraction)"
}
