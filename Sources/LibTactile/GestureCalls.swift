import Glibc
import GestureConfiguration
import Responder
import TactileABI

// The gesture half of tactile.h: recognizers from C structs or from the configuration
// file's YAML, their relations, their deadlines.

@_cdecl("tactile_gesture_desc_init")
public func tactile_gesture_desc_init(_ desc: UnsafeMutablePointer<tactile_gesture_desc>?, _ kind: tactile_gesture_kind) -> tactile_status {
    guard let desc, (TACTILE_GESTURE_EDGE_SWIPE.rawValue...TACTILE_GESTURE_TAP.rawValue).contains(kind.rawValue) else { return TACTILE_ERROR_INVALID }
    var d = tactile_gesture_desc()
    d.kind = kind
    d.cancels_touches_in_view = 1
    d.delays_touches_ended = 1
    switch kind {
    case TACTILE_GESTURE_EDGE_SWIPE: (d.start_band, d.distance) = (24, 80)
    case TACTILE_GESTURE_SWIPE: (d.fingers, d.distance, d.gather_time_ms) = (3, 100, 150)
    case TACTILE_GESTURE_PINCH: (d.fingers, d.scale, d.max_translation, d.gather_time_ms) = (2, 1.25, 80, 150)
    case TACTILE_GESTURE_LONG_PRESS: (d.duration_ms, d.slop) = (500, 10)
    default: (d.taps, d.interval_ms, d.max_duration_ms, d.slop, d.max_distance) = (1, 300, 300, 10, 40)
    }
    desc.pointee = d
    return TACTILE_OK
}

/// A recognizer from its description, checked as the YAML's keys are: a zero field takes
/// the YAML's default.
private func recognizer(_ d: tactile_gesture_desc) -> Result<any GestureRecognizer & Sendable, Failure> {
    func invalid(_ text: String) -> Result<any GestureRecognizer & Sendable, Failure> { .failure(Failure(status: TACTILE_ERROR_INVALID, message: text)) }
    func number(_ value: Double, _ name: String, default fallback: Double, atLeast minimum: Double) -> Double? {
        let v = value == 0 ? fallback : value
        return v.isFinite && v >= minimum ? v : nil
    }
    func milliseconds(_ value: UInt32, default fallback: UInt32) -> Duration? {
        let v = value == 0 ? fallback : value
        return v <= 60000 ? .milliseconds(Int(v)) : nil
    }
    func count(_ value: Int32, default fallback: Int32, in range: ClosedRange<Int32>) -> Int? {
        let v = value == 0 ? fallback : value
        return range.contains(v) ? Int(v) : nil
    }
    let swipeDirection: Swipe.Direction?? = switch d.direction {
    case TACTILE_DIRECTION_ANY: .some(nil)
    case TACTILE_DIRECTION_LEFT: .left
    case TACTILE_DIRECTION_RIGHT: .right
    case TACTILE_DIRECTION_UP: .up
    case TACTILE_DIRECTION_DOWN: .down
    default: nil
    }
    let pinchDirection: Pinch.Direction?? = switch d.direction {
    case TACTILE_DIRECTION_ANY: .some(nil)
    case TACTILE_DIRECTION_APART: .apart
    case TACTILE_DIRECTION_TOGETHER: .together
    default: nil
    }
    switch d.kind {
    case TACTILE_GESTURE_EDGE_SWIPE:
        let edge: Edge
        switch d.edge {
        case TACTILE_EDGE_LEFT: edge = .left
        case TACTILE_EDGE_RIGHT: edge = .right
        case TACTILE_EDGE_TOP: edge = .top
        case TACTILE_EDGE_BOTTOM: edge = .bottom
        default: return invalid("\(d.edge.rawValue) is not a tactile_edge")
        }
        guard let band = number(d.start_band, "start_band", default: 24, atLeast: 1), let distance = number(d.distance, "distance", default: 80, atLeast: 1) else {
            return invalid("an edge swipe's start_band and distance are at least 1")
        }
        return .success(EdgeSwipe(edge: edge, startBand: band, distance: distance))
    case TACTILE_GESTURE_SWIPE:
        guard let direction = swipeDirection else { return invalid("a swipe's direction is any, left, right, up or down") }
        guard let fingers = count(d.fingers, default: 3, in: 1...10), let distance = number(d.distance, "distance", default: 100, atLeast: 1),
              let gather = milliseconds(d.gather_time_ms, default: 150) else {
            return invalid("a swipe has 1 to 10 fingers, a distance of at least 1 and a gather time of at most 60000 ms")
        }
        return .success(Swipe(fingers: fingers, direction: direction, distance: distance, gatherTime: gather))
    case TACTILE_GESTURE_PINCH:
        guard let direction = pinchDirection else { return invalid("a pinch's direction is any, apart or together") }
        guard let fingers = count(d.fingers, default: 2, in: 2...10), let scale = number(d.scale, "scale", default: 1.25, atLeast: 1.01),
              let translation = number(d.max_translation, "max_translation", default: 80, atLeast: 1), let gather = milliseconds(d.gather_time_ms, default: 150) else {
            return invalid("a pinch has 2 to 10 fingers, a scale of at least 1.01, a max_translation of at least 1 and a gather time of at most 60000 ms")
        }
        return .success(Pinch(fingers: fingers, scale: scale, direction: direction, maximumTranslation: translation, gatherTime: gather))
    case TACTILE_GESTURE_LONG_PRESS:
        guard let duration = milliseconds(d.duration_ms, default: 500), d.slop.isFinite, d.slop >= 0 else {
            return invalid("a long press lasts at most 60000 ms and its slop is a number of at least 0")
        }
        return .success(LongPress(duration: duration, slop: d.slop == 0 ? 10 : d.slop))
    case TACTILE_GESTURE_TAP:
        guard let taps = count(d.taps, default: 1, in: 1...10), let interval = milliseconds(d.interval_ms, default: 300),
              let longest = milliseconds(d.max_duration_ms, default: 300), d.slop.isFinite, d.slop >= 0, d.max_distance.isFinite, d.max_distance >= 0 else {
            return invalid("a tap has 1 to 10 taps, times of at most 60000 ms, and a slop and max_distance of at least 0")
        }
        return .success(Tap(count: taps, interval: interval, maximumDuration: longest, slop: d.slop == 0 ? 10 : d.slop,
                            maximumDistance: d.max_distance == 0 ? 40 : d.max_distance))
    default:
        return invalid("\(d.kind.rawValue) is not a tactile_gesture_kind")
    }
}

extension Router {
    /// Installs the recognizers on the root, related by name; their names and commands are
    /// kept as C strings for the gesture callback. Returns the first one's handle.
    func install(_ bindings: [GestureBinding]) -> tactile_gesture {
        let first = tactile_gesture(gestures.count + 1)
        // Names come checked from the YAML's reader, or alone from C: none is unknown.
        for (binding, id) in zip(bindings, core.install(bindings).ids) {
            var command: String?
            if case .run(let text) = binding.action { command = text }
            gestures.append(Gesture(id: id, name: strdup(binding.name), command: command.map { strdup($0) },
                                    when: command == nil ? nil : strdup(binding.actsWhen.rawValue)))
        }
        return first
    }
}

@_cdecl("tactile_gesture_add")
public func tactile_gesture_add(_ handle: OpaquePointer?, _ desc: UnsafePointer<tactile_gesture_desc>?, _ out: UnsafeMutablePointer<tactile_gesture>?) -> tactile_status {
    withRouter(handle) { router in
        out?.pointee = 0
        guard let d = desc?.pointee else { return router.fail(TACTILE_ERROR_INVALID, "the description is NULL") }
        switch recognizer(d) {
        case .failure(let f): return router.fail(f)
        case .success(let made):
            let name = d.name.map { String(cString: $0) } ?? "gesture \(router.gestures.count + 1)"
            let options = GestureOptions(cancelsTouchesInView: d.cancels_touches_in_view != 0, delaysTouchesBegan: d.delays_touches_began != 0,
                                         delaysTouchesEnded: d.delays_touches_ended != 0)
            let handle = router.install([GestureBinding(name: name, recognizer: made, options: options)])
            out?.pointee = handle
            return TACTILE_OK
        }
    }
}

@_cdecl("tactile_gesture_recognize_simultaneously")
public func tactile_gesture_recognize_simultaneously(_ handle: OpaquePointer?, _ a: tactile_gesture, _ b: tactile_gesture) -> tactile_status {
    withRouter(handle) { router in
        guard let first = router.gesture(a), let second = router.gesture(b) else { return router.fail(TACTILE_ERROR_INVALID, "no gesture \(a) or \(b) in this router") }
        router.core.recognizeSimultaneously(first.id, second.id)
        return TACTILE_OK
    }
}

@_cdecl("tactile_gesture_require_failure")
public func tactile_gesture_require_failure(_ handle: OpaquePointer?, _ gesture: tactile_gesture, _ other: tactile_gesture) -> tactile_status {
    withRouter(handle) { router in
        guard let first = router.gesture(gesture), let second = router.gesture(other) else {
            return router.fail(TACTILE_ERROR_INVALID, "no gesture \(gesture) or \(other) in this router")
        }
        router.core.require(first.id, toFail: second.id)
        return TACTILE_OK
    }
}

@_cdecl("tactile_gestures_load_yaml")
public func tactile_gestures_load_yaml(_ handle: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int, _ file: UnsafePointer<CChar>?) -> tactile_status {
    withRouter(handle) { router in
        guard let text, length >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "the text is NULL") }
        let bytes = UnsafeRawBufferPointer(start: text, count: length)
        let name = file.map { String(cString: $0) } ?? "(text)"
        let bindings: [GestureBinding]
        do {
            bindings = try YAMLReader.gestures(fromYAML: String(decoding: bytes, as: UTF8.self), file: name)
        } catch let error as ConfigurationError {
            return router.fail(TACTILE_ERROR_CONFIGURATION, error.description)
        } catch {
            return router.fail(TACTILE_ERROR_CONFIGURATION, "\(name): \(error)")
        }
        // Gestures touchpads make reach the core only from the server's libinput backend.
        if let touchpad = bindings.first(where: { $0.device == .touchpad }) {
            return router.fail(TACTILE_ERROR_CONFIGURATION, "\(name): gesture '\(touchpad.name)': device: touchpad is not taken by libtactile (touchscreens only)")
        }
        _ = router.install(bindings)
        return TACTILE_OK
    }
}

@_cdecl("tactile_router_set_gesture_callback")
public func tactile_router_set_gesture_callback(_ handle: OpaquePointer?, _ callback: tactile_gesture_fn?, _ data: UnsafeMutableRawPointer?) -> tactile_status {
    withRouter(handle) { router in
        router.gestureEvents = callback.map { ($0, data) }
        return TACTILE_OK
    }
}

@_cdecl("tactile_next_deadline")
public func tactile_next_deadline(_ handle: OpaquePointer?) -> UInt64 {
    guard let router = idleRouter(handle) else { return 0 }
    let earliest = [router.core.nextGestureDeadline, router.filters.nextDeadline, router.accommodations.nextDeadline].compactMap { $0 }.min()
    return earliest.map { max(1, $0.microseconds) } ?? 0
}

@_cdecl("tactile_fire_deadlines")
public func tactile_fire_deadlines(_ handle: OpaquePointer?, _ now: UInt64) -> tactile_status {
    withRouter(handle) { router in
        // What the filters held goes first, through the accommodations, then what they
        // held: a lift let go may decide a recognizer.
        router.busy = true
        var output = FilteredOutput(router: router)
        router.filters.fireDeadlines(at: Instant(microseconds: now), into: &output)
        router.accommodations.fireDeadlines(at: Instant(microseconds: now), into: &output)
        router.busy = false
        if let ignored = output.sink.ignored { _ = router.fail(TACTILE_ERROR_IGNORED, "ignored: \(ignored)") }
        return router.route { sink in router.core.fireGestureDeadlines(at: Instant(microseconds: now), sink: &sink) }
    }
}
