import CWaylandServer
import Responder

/// The core's decisions, written as wl_touch / wl_pointer / wl_keyboard events to every
/// matching resource of the client, with the serials and modifiers only this layer knows.
struct ProtocolSink: DeliverySink {
    /// Unchecked: every object of a server dies with its display, at the latest while the
    /// server shuts down, when a checked reference would already trap.
    unowned(unsafe) let server: WaylandServer

    mutating func deliver(_ delivery: Delivery) {
        guard let client = server.clientsByID[delivery.client] else { return }
        switch delivery {
        case .touchDown(_, let node, let id, let local, let time):
            guard let surface = surface(node) else { return }
            let serial = inputSerial(for: client)
            for touch in client.touches { wl_touch_send_down(touch, serial, time.milliseconds, surface, id, fixed(local.x), fixed(local.y)) }
            server.pressDelivered(to: client.id)
        case .touchMotion(_, _, let id, let local, let time):
            for touch in client.touches { wl_touch_send_motion(touch, time.milliseconds, id, fixed(local.x), fixed(local.y)) }
        case .touchUp(_, let id, let time):
            let serial = inputSerial(for: client)
            for touch in client.touches { wl_touch_send_up(touch, serial, time.milliseconds, id) }
        case .touchFrame:
            for touch in client.touches { wl_touch_send_frame(touch) }
        case .touchCancel:
            for touch in client.touches { wl_touch_send_cancel(touch) }
        case .pointerEnter(_, let node, let local):
            guard let surface = surface(node) else { return }
            let serial = inputSerial(for: client)
            for pointer in client.pointers { wl_pointer_send_enter(pointer, serial, surface, fixed(local.x), fixed(local.y)) }
        case .pointerLeave(_, let node):
            guard let surface = surface(node) else { return }
            let serial = inputSerial(for: client)
            for pointer in client.pointers { wl_pointer_send_leave(pointer, serial, surface) }
        case .pointerMotion(_, _, let local, let time):
            for pointer in client.pointers { wl_pointer_send_motion(pointer, time.milliseconds, fixed(local.x), fixed(local.y)) }
        case .pointerButton(_, let button, let state, let time):
            let serial = inputSerial(for: client)
            let wire = state == .pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
            for pointer in client.pointers { wl_pointer_send_button(pointer, serial, time.milliseconds, button, wire.rawValue) }
            if state == .pressed { server.pressDelivered(to: client.id) }
        case .pointerAxis(_, let motion, let time):
            for pointer in client.pointers { sendAxis(motion, time, to: pointer) }
        case .pointerFrame:
            for pointer in client.pointers where wl_resource_get_version(pointer) >= 5 { wl_pointer_send_frame(pointer) }
        case .keyboardEnter(_, let node, let keys):
            guard let surface = surface(node) else { return }
            let serial = inputSerial(for: client)
            withArray(keys) { array in
                for keyboard in client.keyboards { wl_keyboard_send_enter(keyboard, serial, surface, array) }
            }
            sendModifiers(to: client)
        case .keyboardLeave(_, let node):
            guard let surface = surface(node) else { return }
            let serial = inputSerial(for: client)
            for keyboard in client.keyboards { wl_keyboard_send_leave(keyboard, serial, surface) }
        case .key(_, let key, let state, let time):
            let serial = inputSerial(for: client)
            let wire = state == .pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
            for keyboard in client.keyboards { wl_keyboard_send_key(keyboard, serial, time.milliseconds, key, wire.rawValue) }
        }
    }

    /// Acted on by the server once the routing step is over (`afterGestureRouting`).
    mutating func gesture(_ event: GestureEvent) {
        server.pendingGestureEvents.append(event)
    }

    /// Refused input becomes a log line on stderr; nothing reaches a client.
    mutating func report(_ diagnostic: Diagnostic) {
        server.log(diagnostic)
    }

    func sendModifiers(to client: ClientState) {
        guard let mods = server.keymap?.modifiers else { return }
        let serial = server.nextSerial()
        for keyboard in client.keyboards {
            wl_keyboard_send_modifiers(keyboard, serial, mods.depressed, mods.latched, mods.locked, mods.group)
        }
    }

    /// A fresh serial for an event to `client`, remembered as one it may start a grab with.
    private func inputSerial(for client: ClientState) -> UInt32 {
        let serial = server.nextSerial()
        client.inputSerials.record(serial)
        return serial
    }

    private func surface(_ node: NodeID) -> OpaquePointer? {
        server.surface(at: node)?.resource
    }

    /// Source, discrete steps in the form the pointer's version knows, the value, and the stop.
    private func sendAxis(_ motion: AxisMotion, _ time: Instant, to pointer: OpaquePointer) {
        let version = wl_resource_get_version(pointer)
        if version >= 5 { wl_pointer_send_axis_source(pointer, motion.source.wire.rawValue) }
        let axes = [
            (WL_POINTER_AXIS_VERTICAL_SCROLL, motion.vertical, motion.verticalValue120, AxisMotion.Axes.vertical),
            (WL_POINTER_AXIS_HORIZONTAL_SCROLL, motion.horizontal, motion.horizontalValue120, .horizontal),
        ]
        for (axis, value, value120, _) in axes where value != 0 || value120 != 0 {
            if value120 != 0, version >= 8 {
                wl_pointer_send_axis_value120(pointer, axis.rawValue, value120)
            } else if value120 != 0, value120 % 120 == 0, version >= 5 {
                // Older clients count whole notches only; a high-resolution wheel's part of a
                // notch reaches them as the smooth value alone.
                wl_pointer_send_axis_discrete(pointer, axis.rawValue, value120 / 120)
            }
            wl_pointer_send_axis(pointer, time.milliseconds, axis.rawValue, fixed(value))
        }
        if version >= 5 {
            for (axis, _, _, name) in axes where motion.stops.contains(name) { wl_pointer_send_axis_stop(pointer, time.milliseconds, axis.rawValue) }
        }
    }
}

extension AxisMotion.Source {
    var wire: wl_pointer_axis_source {
        switch self {
        case .wheel: WL_POINTER_AXIS_SOURCE_WHEEL
        case .finger: WL_POINTER_AXIS_SOURCE_FINGER
        case .continuous: WL_POINTER_AXIS_SOURCE_CONTINUOUS
        case .wheelTilt: WL_POINTER_AXIS_SOURCE_WHEEL_TILT
        }
    }
}

/// wl_fixed_t: 24.8 fixed point, rounded to the nearest 1/256.
func fixed(_ value: Double) -> wl_fixed_t { wl_fixed_from_double(value) }

/// A wl_array of the values, alive for the call.
func withArray<R>(_ values: [UInt32], _ body: (UnsafeMutablePointer<wl_array>) -> R) -> R {
    var array = wl_array()
    wl_array_init(&array)
    defer { wl_array_release(&array) }
    for value in values {
        guard let slot = wl_array_add(&array, MemoryLayout<UInt32>.size) else { break }
        slot.storeBytes(of: value, as: UInt32.self)
    }
    return body(&array)
}
