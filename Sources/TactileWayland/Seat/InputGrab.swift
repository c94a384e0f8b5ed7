import Responder

/// Something that takes input from normal routing for a while, as wlroots' grab interfaces
/// do: a pointer lock, the input method's keyboard grab, an interactive move or resize, a
/// popup grab. The seat keeps the grabs in force (`InputGrabs`): every input event passes
/// through them, newest first, before the router sees it, and every routing step's outcome
/// passes them after. The defaults beside the protocol forward everything unchanged, so a
/// grab implements only what it takes or watches.
protocol InputGrab: AnyObject {
    /// An input event about to be routed (`modifiersChanged`: a real key changed the seat's
    /// modifiers). Returns the event to route on, or nil when the grab took it.
    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent?
    /// After an input event was routed: the router's state shows it.
    func eventRouted(_ event: InputEvent)
    /// After any routing step (input, a scene change, a timer): a press (touch down, button)
    /// went to `pressed`.
    func pressDelivered(to pressed: ClientID)
}

extension InputGrab {
    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? { event }
    func eventRouted(_ event: InputEvent) {}
    func pressDelivered(to pressed: ClientID) {}
}

/// The grabs in force on the seat, the newest last. A grab may end itself (or another) while
/// it is told of an event: each pass walks the grabs as they were when it began.
final class InputGrabs {
    private var grabs: [any InputGrab] = []

    func begin(_ grab: any InputGrab) {
        guard !grabs.contains(where: { $0 === grab }) else { return }
        grabs.append(grab)
    }

    func end(_ grab: any InputGrab) {
        grabs.removeAll { $0 === grab }
    }

    /// The event the router sees, nil when a grab took it.
    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        var passed = event
        for grab in grabs.reversed() {
            guard let next = grab.intercept(passed, modifiersChanged: modifiersChanged) else { return nil }
            passed = next
        }
        return passed
    }

    func eventRouted(_ event: InputEvent) {
        for grab in grabs.reversed() { grab.eventRouted(event) }
    }

    func pressDelivered(to pressed: ClientID) {
        for grab in grabs.reversed() { grab.pressDelivered(to: pressed) }
    }
}
