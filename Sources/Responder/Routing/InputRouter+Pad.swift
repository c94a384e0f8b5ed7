extension InputRouter {
    /// A tablet pad goes where the keys go: its buttons, rings and strips are shortcuts and
    /// brush controls for the app being worked in, not pointing, so the keyboard focus hears
    /// them (as sway and GNOME do), whatever the pens are over. A ring's angle is brought
    /// into 0..<360 and a strip's position into 0...1, so no client hears a value its
    /// protocol has no room for.
    mutating func padEvent(_ pad: Int32, _ action: PadAction, _ time: Instant, _ event: InputEvent, _ sink: inout some DeliverySink) {
        latestTime = time
        var action = action
        switch action {
        case .button: break
        case .ring(let ring, let degrees?, let byFinger):
            guard degrees.isFinite else { return sink.report(.ignored(event, because: .nonFiniteAxes)) }
            action = .ring(ring, degrees: degrees.wrappedDegrees, byFinger: byFinger)
        case .strip(let strip, let position?, let byFinger):
            guard position.isFinite else { return sink.report(.ignored(event, because: .nonFiniteAxes)) }
            action = .strip(strip, position: min(max(position, 0), 1), byFinger: byFinger)
        case .ring(_, nil, _), .strip(_, nil, _): break
        }
        guard let focus = keyboard.focus else { return sink.report(.ignored(event, because: .noKeyboardFocus)) }
        sink.deliver(.pad(focus.client, surface: focus.node, pad: pad, action, time: time))
    }
}
