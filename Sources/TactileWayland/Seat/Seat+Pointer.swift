import CWaylandServer
import WaylandProtocols
import Responder

/// wl_pointer events, to every wl_pointer of the client, each in the form its version knows.
extension Seat {
    func pointerEnter(_ client: SeatClient, surface: OpaquePointer, at local: Point) {
        let serial = inputSerial(for: client)
        client.pointerEnterSerial = serial
        for pointer in client.pointers { wl_pointer_send_enter(pointer, serial, surface, fixed(local.x), fixed(local.y)) }
    }

    /// A pointer bound while its client has the pointer: the enter the client's other
    /// pointers heard, with its serial, so wl_pointer.set_cursor takes it from either.
    func pointerGreet(_ pointer: OpaquePointer, of client: SeatClient, surface: OpaquePointer, at local: Point) {
        let serial = client.pointerEnterSerial ?? inputSerial(for: client)
        client.pointerEnterSerial = serial
        wl_pointer_send_enter(pointer, serial, surface, fixed(local.x), fixed(local.y))
        if wl_resource_get_version(pointer) >= 5 { wl_pointer_send_frame(pointer) }
    }

    func pointerLeave(_ client: SeatClient, surface: OpaquePointer) {
        let serial = inputSerial(for: client)
        for pointer in client.pointers { wl_pointer_send_leave(pointer, serial, surface) }
    }

    func pointerMotion(_ client: SeatClient, to local: Point, time: Instant) {
        for pointer in client.pointers {
            client.stamp(pointer, time)
            wl_pointer_send_motion(pointer, time.milliseconds, fixed(local.x), fixed(local.y))
        }
    }

    func pointerButton(_ client: SeatClient, _ button: UInt32, _ state: PressState, time: Instant) {
        let serial = inputSerial(for: client)
        let wire = state == .pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        for pointer in client.pointers {
            client.stamp(pointer, time)
            wl_pointer_send_button(pointer, serial, time.milliseconds, button, wire.rawValue)
        }
    }

    func pointerAxis(_ client: SeatClient, _ motion: AxisMotion, time: Instant) {
        for pointer in client.pointers {
            client.stamp(pointer, time)
            sendAxis(motion, time, to: pointer)
        }
    }

    func pointerFrame(_ client: SeatClient) {
        for pointer in client.pointers where wl_resource_get_version(pointer) >= 5 { wl_pointer_send_frame(pointer) }
    }

    /// Source, then for each axis that moved its direction relative to the device (wl_pointer
    /// 9), discrete steps in the form the pointer's version knows and the value; then the stops.
    private func sendAxis(_ motion: AxisMotion, _ time: Instant, to pointer: OpaquePointer) {
        let version = wl_resource_get_version(pointer)
        if version >= 5 { wl_pointer_send_axis_source(pointer, motion.source.wire.rawValue) }
        let axes = [
            (WL_POINTER_AXIS_VERTICAL_SCROLL, motion.vertical, motion.verticalValue120, AxisMotion.Axes.vertical),
            (WL_POINTER_AXIS_HORIZONTAL_SCROLL, motion.horizontal, motion.horizontalValue120, .horizontal),
        ]
        for (axis, value, value120, _) in axes where value != 0 || value120 != 0 {
            if version >= TACTILE_WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION {
                tactile_wl_pointer_send_axis_relative_direction(pointer, axis.rawValue, motion.inverted ? 1 : 0)
            }
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
