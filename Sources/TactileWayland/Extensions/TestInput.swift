import CWaylandServer
import Responder
import WaylandProtocols

/// tactile_test_input_v1 (protocol/tactile-test-input-v1.xml): every request becomes one
/// input event, stamped with the server's clock and routed as a device's would be. Input
/// for a server with no devices, so tests and scripts (`tactile inject`) can drive it.
/// Offered with `--test-input` only (`ServerConfiguration.offersTestInput`): any client could
/// then type and touch into every other.
final class TestInput: ServerPart {
    /// Input goes in as a device's would.
    private unowned(unsafe) let host: any PartContext
    /// Where pen_describe describes pens, as a backend would.
    private let tablets: Tablets
    private var global: Global?
    /// The script clocks of the objects that called set_time, by resource: each stamps its
    /// events on its own timeline. Dropped with the resource.
    private var clocks: [OpaquePointer: ScriptClock] = [:]

    /// A script's timeline laid onto the server's: its first time is the moment it came.
    struct ScriptClock {
        let scriptStart: UInt64
        let serverStart: Instant
        var last: Instant

        /// How far a script may run past its first time: 2^40 µs, 12 days. Further would
        /// put event times where the core's arithmetic on them overflows.
        static let longest: UInt64 = 1 << 40

        /// The server time of script time `usec`, never before the last one stamped; false
        /// for a time past `longest`.
        mutating func advance(to usec: UInt64) -> Bool {
            let offset = usec >= scriptStart ? usec - scriptStart : 0
            guard offset <= Self.longest else { return false }
            let time = Instant(microseconds: serverStart.microseconds + offset)
            if last < time { last = time }
            return true
        }
    }

    init(display: OpaquePointer, host: any PartContext, tablets: Tablets) {
        self.host = host
        self.tablets = tablets
        global = Global(display: display, interface: tactile_tactile_test_input_v1_interface(), version: 6, context: self, requests: Self.requests,
                        destroyed: { resource in
                            guard let resource, let input = Global.context(of: resource, as: TestInput.self) else { return }
                            input.clocks[resource] = nil
                        })
    }

    private static func inject(_ resource: OpaquePointer?, _ make: (Instant) -> InputEvent) {
        guard let resource, let input = Global.context(of: resource, as: TestInput.self) else { return }
        input.host.handle(make(input.clocks[resource]?.last ?? input.host.currentTime))
    }

    private func setTime(_ resource: OpaquePointer?, _ usec: UInt64) {
        guard let resource else { return }
        if clocks[resource] == nil {
            let now = host.currentTime
            clocks[resource] = ScriptClock(scriptStart: usec, serverStart: now, last: now)
        }
        guard clocks[resource]?.advance(to: usec) == true else {
            return tactile_post_error(resource, TACTILE_TEST_INPUT_V1_ERROR_INVALID_TIME.rawValue,
                                      "set_time \(usec) is more than 2^40 µs (12 days) after the first time given, \(clocks[resource]?.scriptStart ?? 0)")
        }
    }

    private static func pressState(_ resource: OpaquePointer?, _ raw: UInt32) -> PressState? {
        switch raw {
        case 0: return .released
        case 1: return .pressed
        default:
            tactile_post_error(resource, TACTILE_TEST_INPUT_V1_ERROR_INVALID_STATE.rawValue, "state \(raw) is neither 0 (released) nor 1 (pressed)")
            return nil
        }
    }

    private static func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Point {
        Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    }

    private static let requests = RequestTable(tactile_test_input_v1_interface(
        destroy: destroyResource,
        touch_down: { _, r, id, x, y in inject(r) { .touchDown(id: id, global: point(x, y), time: $0) } },
        touch_motion: { _, r, id, x, y in inject(r) { .touchMotion(id: id, global: point(x, y), time: $0) } },
        touch_up: { _, r, id in inject(r) { .touchUp(id: id, time: $0) } },
        touch_cancel: { _, r, id in inject(r) { .touchCancel(id: id, time: $0) } },
        touch_frame: { _, r in inject(r) { _ in .touchFrame } },
        pointer_motion: { _, r, x, y in inject(r) { .pointerMotion(global: point(x, y), time: $0) } },
        pointer_button: { _, r, button, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .pointerButton(button: button, state: state, time: $0) }
        },
        pointer_axis: { _, r, h, v, h120, v120 in
            let motion = AxisMotion(source: .wheel, horizontal: wl_fixed_to_double(h), vertical: wl_fixed_to_double(v),
                                    horizontalValue120: h120, verticalValue120: v120)
            inject(r) { .pointerAxis(motion, time: $0) }
        },
        key: { _, r, key, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .key(key: key, state: state, time: $0) }
        },
        move_toplevel: { _, r, surface, x, y in
            guard let input = Global.context(of: r, as: TestInput.self) else { return }
            guard input.host.placeToplevel(surface, at: Position(x: Int(x), y: Int(y))) else {
                return tactile_post_error(r, TACTILE_TEST_INPUT_V1_ERROR_NOT_TOPLEVEL.rawValue, "move_toplevel needs a toplevel surface (xdg_toplevel or wl_shell)")
            }
        },
        pointer_motion_relative: { _, r, dx, dy, rawDX, rawDY in
            guard let input = Global.context(of: r, as: TestInput.self) else { return }
            let motion = RelativeMotion(dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy),
                                        unacceleratedDX: wl_fixed_to_double(rawDX), unacceleratedDY: wl_fixed_to_double(rawDY))
            input.host.handleRelativeMotion(motion, time: input.host.currentTime)
        },
        touchpad_gesture_begin: { _, r, kind, fingers in
            let kinds: [TouchpadGesture] = [.swipe, .pinch, .hold]
            guard kind < kinds.count else {
                return tactile_post_error(r, TACTILE_TEST_INPUT_V1_ERROR_INVALID_GESTURE.rawValue, "touchpad gesture \(kind) is not 0 (swipe), 1 (pinch) or 2 (hold)")
            }
            // Out-of-range counts reach the core, which refuses them as a device's would be.
            inject(r) { .touchpadGestureBegin(kinds[Int(kind)], fingers: Int(clamping: fingers), time: $0) }
        },
        touchpad_gesture_update: { _, r, dx, dy, scale, rotation in
            inject(r) { .touchpadGestureUpdate(delta: point(dx, dy), scale: wl_fixed_to_double(scale), rotation: wl_fixed_to_double(rotation), time: $0) }
        },
        touchpad_gesture_end: { _, r, cancelled in
            inject(r) { .touchpadGestureEnd(cancelled: cancelled != 0, time: $0) }
        },
        pen_proximity_in: { _, r, pen, x, y in inject(r) { .penProximity(pen: pen, entering: true, global: point(x, y), time: $0) } },
        pen_proximity_out: { _, r, pen in
            // Where it left does not matter: a pen leaving moves nothing.
            inject(r) { .penProximity(pen: pen, entering: false, global: Point(x: 0, y: 0), time: $0) }
        },
        pen_tip: { _, r, pen, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .penTip(pen: pen, down: state == .pressed, time: $0) }
        },
        pen_motion: { _, r, pen, x, y, pressure, tiltX, tiltY in
            let axes = PenAxes(pressure: wl_fixed_to_double(pressure), tiltX: wl_fixed_to_double(tiltX), tiltY: wl_fixed_to_double(tiltY))
            inject(r) { .penMotion(pen: pen, global: point(x, y), axes: axes, time: $0) }
        },
        pen_button: { _, r, pen, button, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .penButton(pen: pen, button: button, state: state, time: $0) }
        },
        pen_describe: { _, r, pen, type, capabilities in
            guard let input = Global.context(of: r, as: TestInput.self) else { return }
            guard let kind = PenTool.Kind(rawValue: type) else {
                return tactile_post_error(r, TACTILE_TEST_INPUT_V1_ERROR_INVALID_TOOL.rawValue, "pen type 0x\(String(type, radix: 16)) is not a zwp_tablet_tool_v2 type")
            }
            var senses: PenTool.Senses = []
            for (sense, bit) in PenTool.Senses.capabilities where capabilities & (1 << bit) != 0 { senses.insert(sense) }
            input.tablets.describe(pen, as: PenTool(kind: kind, senses: senses, tablet: PenTool.standard.tablet))
        },
        pen_motion_axes: { _, r, pen, x, y, pressure, tiltX, tiltY, distance, rotation, slider, wheel, clicks in
            let d = wl_fixed_to_double
            let axes = PenAxes(pressure: d(pressure), distance: d(distance), tiltX: d(tiltX), tiltY: d(tiltY), rotation: d(rotation), slider: d(slider),
                               wheel: d(wheel), wheelClicks: clicks)
            inject(r) { .penMotion(pen: pen, global: point(x, y), axes: axes, time: $0) }
        },
        pad_button: { _, r, pad, button, state in
            guard let state = pressState(r, state) else { return }
            inject(r) { .pad(pad: pad, .button(button, state), time: $0) }
        },
        pad_ring: { _, r, pad, ring, degrees, touching in
            inject(r) { .pad(pad: pad, .ring(ring, degrees: touching != 0 ? wl_fixed_to_double(degrees) : nil, byFinger: true), time: $0) }
        },
        pad_strip: { _, r, pad, strip, position, touching in
            inject(r) { .pad(pad: pad, .strip(strip, position: touching != 0 ? wl_fixed_to_double(position) : nil, byFinger: true), time: $0) }
        },
        pointer_scroll: { _, r, source, h, v, h120, v120, natural in
            let motion = AxisMotion(source: source == 1 ? .finger : .wheel, horizontal: wl_fixed_to_double(h), vertical: wl_fixed_to_double(v),
                                    horizontalValue120: source == 1 ? 0 : h120, verticalValue120: source == 1 ? 0 : v120, inverted: natural != 0)
            inject(r) { .pointerAxis(motion, time: $0) }
        },
        set_time: { _, r, hi, lo in
            Global.context(of: r, as: TestInput.self)?.setTime(r, UInt64(hi) << 32 | UInt64(lo))
        }
    ))
}
