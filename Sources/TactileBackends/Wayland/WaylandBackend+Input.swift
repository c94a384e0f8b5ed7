import CWaylandClient
import CWaylandServer
import Glibc
import Responder
import TactileWayland
import WaylandProtocols

/// The parent's wl_seat as we hold it, and what is down on it: what we must release or
/// cancel ourselves when the parent stops telling us (focus leaves, a device goes).
struct ParentSeat {
    var seat: OpaquePointer?
    var seatName: UInt32?
    var version: UInt32 = 0
    var pointer: OpaquePointer?
    var keyboard: OpaquePointer?
    var touch: OpaquePointer?
    /// The window the parent's pointer is in (wl_pointer.enter, until leave).
    var pointerOutput: OutputID?
    var heldButtons: Set<UInt32> = []
    var heldKeys: Set<UInt32> = []
    /// Each touch down now, with the window it went down on: its motion is relative to it.
    var touches: [Int32: OutputID] = [:]
    /// Touch events sent since the last touch frame.
    var touchFrameOwed = false
    /// The scroll of the pointer frame being assembled (wl_seat 5 groups axis events in frames).
    var axis: AxisMotion?
    /// zwp_input_timestamps_v1 for the pointer, keyboard and touch (by device), where the
    /// parent has them.
    var stamps: [OpaquePointer: OpaquePointer] = [:]
    /// The time the parent gave the event about to come, in nanoseconds (kept in µs).
    var stamp: Instant?

    mutating func release() {
        // Only on the way out (the connection closes next), so no release requests are needed.
        for proxy in Array(stamps.values) + [pointer, keyboard, touch, seat].compactMap({ $0 }) {
            wl_proxy_destroy(proxy)
        }
        self = ParentSeat()
    }
}

extension WaylandBackend {
    /// Coordinates beyond this far outside a window are a hostile parent's, clamped.
    static let coordinateLimit = Double(4 * NestedWindow.maximumSide)

    /// Asks the parent for the nanosecond times of `device`'s events, where it offers them.
    private func timeEvents(of device: OpaquePointer?, _ request: (OpaquePointer?, OpaquePointer?) -> OpaquePointer?) {
        guard let manager = globals.inputTimestamps, let device, let stamps = request(manager, device) else { return }
        zwp_input_timestamps_v1_add_listener(stamps, NestedListeners.timestamp, Unmanaged.passUnretained(self).toOpaque())
        input.stamps[device] = stamps
    }

    /// A device going: its timestamps object goes first (the protocol asks so).
    private func stopTiming(_ device: OpaquePointer) {
        if let stamps = input.stamps.removeValue(forKey: device) { zwp_input_timestamps_v1_destroy(stamps) }
    }

    /// When the parent says the event now arriving happened: its nanosecond timestamp, sent
    /// just before it, where that is in our clock (not in the future, less than a second
    /// old); else now.
    func eventTime() -> Instant {
        let now = host.currentTime
        defer { input.stamp = nil }
        guard let stamp = input.stamp, stamp.microseconds <= now.microseconds, now.microseconds - stamp.microseconds < 1_000_000 else { return now }
        return stamp
    }

    func bindSeat(name: UInt32, proxy: OpaquePointer?, version: UInt32) {
        guard let proxy else { return }
        input.seat = proxy
        input.seatName = name
        input.version = version
        wl_seat_add_listener(proxy, NestedListeners.seat, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The parent's seat gained or lost devices: we hold one of each it has, and Tactile's
    /// seat offers the same.
    func seatCapabilitiesChanged(_ raw: UInt32) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let has = { (capability: wl_seat_capability) in raw & capability.rawValue != 0 }
        if has(WL_SEAT_CAPABILITY_POINTER), input.pointer == nil, let seat = input.seat {
            input.pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(input.pointer, NestedListeners.pointer, me)
            timeEvents(of: input.pointer, { zwp_input_timestamps_manager_v1_get_pointer_timestamps($0, $1) })
        } else if !has(WL_SEAT_CAPABILITY_POINTER), let pointer = input.pointer {
            pointerLeft()
            stopTiming(pointer)
            if input.version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
            input.pointer = nil
        }
        if has(WL_SEAT_CAPABILITY_KEYBOARD), input.keyboard == nil, let seat = input.seat {
            input.keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(input.keyboard, NestedListeners.keyboard, me)
            timeEvents(of: input.keyboard, { zwp_input_timestamps_manager_v1_get_keyboard_timestamps($0, $1) })
        } else if !has(WL_SEAT_CAPABILITY_KEYBOARD), let keyboard = input.keyboard {
            keyboardLeft()
            stopTiming(keyboard)
            if input.version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
            input.keyboard = nil
        }
        if has(WL_SEAT_CAPABILITY_TOUCH), input.touch == nil, let seat = input.seat {
            input.touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(input.touch, NestedListeners.touch, me)
            timeEvents(of: input.touch, { zwp_input_timestamps_manager_v1_get_touch_timestamps($0, $1) })
        } else if !has(WL_SEAT_CAPABILITY_TOUCH), let touch = input.touch {
            touchCancelled()
            stopTiming(touch)
            if input.version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
            input.touch = nil
        }
        var capabilities: InputCapabilities = []
        if input.pointer != nil { capabilities.insert(.pointer) }
        if input.keyboard != nil { capabilities.insert(.keyboard) }
        if input.touch != nil { capabilities.insert(.touch) }
        logger.info("the parent's seat: \(capabilities.names)")
        host.setSeatCapabilities(capabilities)
    }

    /// A surface-local position on `placed`'s window, in the global layout. The window
    /// shows the output's frame as its panel would, one window unit per output pixel, so
    /// the position goes through the output's transform and scale; a hostile parent's
    /// far-off coordinates are clamped.
    func global(_ x: wl_fixed_t, _ y: wl_fixed_t, on placed: PlacedOutput) -> Point {
        let limit = Self.coordinateLimit
        let clamp = { (v: wl_fixed_t) in min(max(Double(v) / 256, -limit), limit) }
        let window = placed.description.pixelSize
        return placed.layoutPoint(panelFraction: clamp(x) / Double(max(1, window.width)), clamp(y) / Double(max(1, window.height)))
    }

    func placed(_ output: OutputID?) -> PlacedOutput? {
        guard let output else { return nil }
        return host.outputLayout.first { $0.id == output }
    }

    // MARK: Pointer

    /// The pointer came into one of our windows: Tactile's cursor moves there, and the
    /// parent shows no cursor of its own (Tactile's clients draw theirs, and Tactile shows them).
    func pointerEntered(serial: UInt32, surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        guard let (window, placed) = window(of: surface) else { return }
        input.pointerOutput = window.output
        if let pointer = input.pointer { wl_pointer_set_cursor(pointer, serial, nil, 0, 0) }
        host.handle(.pointerMotion(global: global(x, y, on: placed), time: host.currentTime))
    }

    /// The pointer left our windows: buttons still held are released, as the parent will not
    /// tell us when they go up.
    func pointerLeft() {
        input.pointerOutput = nil
        for button in input.heldButtons.sorted() {
            host.handle(.pointerButton(button: button, state: .released, time: host.currentTime))
        }
        input.heldButtons.removeAll()
        input.axis = nil
    }

    func pointerMoved(x: wl_fixed_t, y: wl_fixed_t) {
        guard let placed = placed(input.pointerOutput) else { return }
        host.handle(.pointerMotion(global: global(x, y, on: placed), time: eventTime()))
    }

    func pointerButton(_ button: UInt32, state: UInt32) {
        guard input.pointerOutput != nil, button <= InputEvent.maximumKeyCode else { return }
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        // Only changes: a press of a held button or a release of one never pressed says nothing.
        guard pressed ? input.heldButtons.insert(button).inserted : input.heldButtons.remove(button) != nil else { return }
        host.handle(.pointerButton(button: button, state: pressed ? .pressed : .released, time: eventTime()))
    }

    /// Scroll events gather until the pointer frame (wl_seat 5 and later); an older seat has
    /// no frames, so each axis event is a scroll of its own.
    func pointerAxis(_ change: (inout AxisMotion) -> Void) {
        guard input.pointerOutput != nil else { return }
        var motion = input.axis ?? AxisMotion(source: .wheel)
        change(&motion)
        input.axis = motion
        if input.version < 5 { pointerFrame() }
    }

    func pointerAxis(_ axis: UInt32, value: wl_fixed_t) {
        let amount = Double(value) / 256
        pointerAxis { motion in
            if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue { motion.horizontal += amount } else { motion.vertical += amount }
        }
    }

    func pointerAxisSource(_ raw: UInt32) {
        let source: AxisMotion.Source? = switch raw {
        case WL_POINTER_AXIS_SOURCE_WHEEL.rawValue: .wheel
        case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: .finger
        case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: .continuous
        case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: .wheelTilt
        default: nil
        }
        guard let source else { return }
        pointerAxis { $0.source = source }
    }

    func pointerAxisStop(_ axis: UInt32) {
        pointerAxis { $0.stops.insert(axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue ? .horizontal : .vertical) }
    }

    /// wl_pointer.axis_value120, or axis_discrete (whole clicks) before wl_seat 8.
    func pointerAxisValue120(_ axis: UInt32, _ value120: Int32) {
        pointerAxis { motion in
            if axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue {
                motion.horizontalValue120 = motion.horizontalValue120.addingReportingOverflow(value120).partialValue
            } else {
                motion.verticalValue120 = motion.verticalValue120.addingReportingOverflow(value120).partialValue
            }
        }
    }

    func pointerFrame() {
        guard let motion = input.axis else { return }
        input.axis = nil
        host.handle(.pointerAxis(motion, time: eventTime()))
    }

    // MARK: Keyboard

    func keyboardKey(_ key: UInt32, state: UInt32) {
        guard key <= InputEvent.maximumKeyCode else { return }
        let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
        guard pressed ? input.heldKeys.insert(key).inserted : input.heldKeys.remove(key) != nil else { return }
        host.handle(.key(key: key, state: pressed ? .pressed : .released, time: eventTime()))
    }

    /// Our window lost the parent's keyboard focus: the keys still held are released, or
    /// Tactile's clients would see them stuck (the parent sends their release elsewhere).
    func keyboardLeft() {
        for key in input.heldKeys.sorted() {
            host.handle(.key(key: key, state: .released, time: host.currentTime))
        }
        input.heldKeys.removeAll()
    }

    // MARK: Touch

    func touchDown(id: Int32, surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        guard input.touches[id] == nil, let (window, placed) = window(of: surface) else { return }
        input.touches[id] = window.output
        input.touchFrameOwed = true
        host.handle(.touchDown(id: id, global: global(x, y, on: placed), time: eventTime()))
    }

    func touchMoved(id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard let placed = placed(input.touches[id]) else { return }
        input.touchFrameOwed = true
        host.handle(.touchMotion(id: id, global: global(x, y, on: placed), time: eventTime()))
    }

    func touchUp(id: Int32) {
        guard input.touches.removeValue(forKey: id) != nil else { return }
        input.touchFrameOwed = true
        host.handle(.touchUp(id: id, time: eventTime()))
    }

    func touchFrame() {
        guard input.touchFrameOwed else { return }
        input.touchFrameOwed = false
        host.handle(.touchFrame)
    }

    /// The parent took our touches (a gesture of its own won them): every touch down now is
    /// cancelled, as a device giving up on it would be.
    func touchCancelled() {
        guard !input.touches.isEmpty else { return }
        let time = host.currentTime
        for id in input.touches.keys.sorted() { host.handle(.touchCancel(id: id, time: time)) }
        input.touches.removeAll()
        input.touchFrameOwed = false
        host.handle(.touchFrame)
    }
}
