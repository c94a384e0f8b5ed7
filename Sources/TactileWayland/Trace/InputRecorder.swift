import Responder

/// `tactile record`: the input the seat takes, as the script lines `tactile inject` reads,
/// for every report that asked (tactile_inspector_v1.record). Events are heard as they come
/// from the backend, before grabs and routing, so a recording replays what the devices did
/// rather than what one client was shown.
public final class InputRecorder {
    private struct Listener {
        weak var report: InspectorReport?
        /// The time of the first event it heard: its lines' `@T` count from there.
        var start: Instant?
        /// The last event's time, which a touch frame (it has none of its own) takes.
        var last: Instant?
    }

    private var listeners: [Listener] = []

    func record(_ report: InspectorReport) {
        listeners.append(Listener(report: report))
    }

    func sees(_ event: InputEvent) {
        guard !listeners.isEmpty else { return }
        listeners.removeAll { $0.report?.resource == nil }
        guard let line = Self.line(event) else { return }
        for k in listeners.indices {
            let time = Self.time(of: event) ?? listeners[k].last ?? .zero
            let start = listeners[k].start ?? time
            listeners[k].start = start
            listeners[k].last = time
            let offset = time < start ? 0 : time.microseconds - start.microseconds
            listeners[k].report?.send("@\(offset) \(line)")
        }
    }

    /// The event as an inject line, without its time; nil for one the script cannot say.
    static func line(_ event: InputEvent) -> String? {
        switch event {
        case .touchDown(let id, let p, _): "touch down \(id) \(number(p.x)) \(number(p.y))"
        case .touchMotion(let id, let p, _): "touch motion \(id) \(number(p.x)) \(number(p.y))"
        case .touchUp(let id, _): "touch up \(id)"
        case .touchCancel(let id, _): "touch cancel \(id)"
        case .touchFrame: "touch frame"
        case .pointerMotion(let p, _): "pointer motion \(number(p.x)) \(number(p.y))"
        case .pointerButton(let button, let state, _): "pointer button \(buttonName(button)) \(state == .pressed ? "pressed" : "released")"
        case .pointerAxis(let motion, _): "pointer scroll \(number(motion.horizontal)) \(number(motion.vertical))"
        case .key(let key, let state, _): "key \(key) \(state == .pressed ? "pressed" : "released")"
        case .touchpadGestureBegin(let kind, let fingers, _): "touchpad \(kind.rawValue) \(fingers)"
        case .touchpadGestureUpdate(let delta, let scale, let rotation, _):
            "touchpad update \(number(delta.x)) \(number(delta.y)) \(number(scale)) \(number(rotation))"
        case .touchpadGestureEnd(let cancelled, _): cancelled ? "touchpad end cancelled" : "touchpad end"
        case .penProximity(let pen, true, let p, _, _): "pen in \(pen) \(number(p.x)) \(number(p.y))"
        case .penProximity(let pen, false, _, _, _): "pen out \(pen)"
        case .penTip(let pen, let down, _): "pen tip \(pen) \(down ? "down" : "up")"
        case .penMotion(let pen, let p, let a, _):
            if a.distance == 0, a.rotation == 0, a.slider == 0, a.wheel == 0, a.wheelClicks == 0 {
                "pen motion \(pen) \(number(p.x)) \(number(p.y)) \(number(a.pressure)) \(number(a.tiltX)) \(number(a.tiltY))"
            } else {
                "pen motion \(pen) " + [p.x, p.y, a.pressure, a.tiltX, a.tiltY, a.distance, a.rotation, a.slider, a.wheel].map(number).joined(separator: " ")
                    + " \(a.wheelClicks)"
            }
        case .penButton(let pen, let button, let state, _): "pen button \(pen) \(button) \(state == .pressed ? "pressed" : "released")"
        case .pad(let pad, .button(let button, let state), _): "pad button \(pad) \(button) \(state == .pressed ? "pressed" : "released")"
        case .pad(let pad, .ring(let ring, let degrees, _), _): "pad ring \(pad) \(ring) \(degrees.map(number) ?? "stop")"
        case .pad(let pad, .strip(let strip, let position, _), _): "pad strip \(pad) \(strip) \(position.map(number) ?? "stop")"
        }
    }

    private static func time(of event: InputEvent) -> Instant? {
        switch event {
        case .touchFrame: nil
        case .touchDown(_, _, let t), .touchMotion(_, _, let t), .touchUp(_, let t), .touchCancel(_, let t), .pointerMotion(_, let t),
             .pointerButton(_, _, let t), .pointerAxis(_, let t), .key(_, _, let t), .touchpadGestureBegin(_, _, let t),
             .touchpadGestureUpdate(_, _, _, let t), .touchpadGestureEnd(_, let t), .penProximity(_, _, _, _, let t), .penTip(_, _, let t),
             .penMotion(_, _, _, let t), .penButton(_, _, _, let t), .pad(_, _, let t):
            t
        }
    }

    /// Three decimals, as much as wl_fixed carries (1/256), without trailing zeros: how
    /// every position of a recording is written (`tactile record --window` too).
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // Ties to even, as printf's %.3f rounds. Past 2^53 thousandths a Double has no
        // fraction left to write: such a value is written as Swift writes it.
        let thousandths = (value * 1000).rounded(.toNearestOrEven)
        guard abs(thousandths) < 0x1p53 else { return "\(value)" }
        let whole = Int64(thousandths)
        guard whole != 0 else { return "0" }
        let magnitude = whole.magnitude
        var text = (whole < 0 ? "-" : "") + String(magnitude / 1000)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return text }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
        return text
    }

    private static func buttonName(_ button: UInt32) -> String {
        [0x110: "left", 0x111: "right", 0x112: "middle"][button] ?? "\(button)"
    }
}
