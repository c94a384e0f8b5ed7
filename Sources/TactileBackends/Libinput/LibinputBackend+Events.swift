import GestureConfiguration
import CLibinput
import Responder
import TactileWayland

/// What the backend remembers of one device: its name for the log, its udev syspath (how
/// calibration names it), and what it can do for the seat's capabilities.
struct InputDevice {
    let name: String
    let syspath: String
    let capabilities: InputCapabilities
    let kind: InputDeviceSummary.Kind
}

extension LibinputBackend {
    func handle(_ event: OpaquePointer) {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED: deviceAdded(libinput_event_get_device(event))
        case LIBINPUT_EVENT_DEVICE_REMOVED: deviceRemoved(libinput_event_get_device(event))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
            touch(libinput_event_get_touch_event(event), type)
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON,
             LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            pointer(libinput_event_get_pointer_event(event), type)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            key(libinput_event_get_keyboard_event(event))
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END,
             LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END,
             LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            gesture(libinput_event_get_gesture_event(event), type)
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_TIP,
             LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            tabletTool(libinput_event_get_tablet_tool_event(event), type)
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON, LIBINPUT_EVENT_TABLET_PAD_RING, LIBINPUT_EVENT_TABLET_PAD_STRIP:
            tabletPad(libinput_event_get_tablet_pad_event(event), type)
        default:
            // LIBINPUT_EVENT_POINTER_AXIS repeats the three scroll events above for older
            // callers; switches and pad key events have no counterpart here.
            break
        }
    }

    private func touch(_ event: OpaquePointer, _ type: libinput_event_type) {
        if let touchCapture { return captured(event, type, by: touchCapture) }
        guard let device = libinput_event_get_device(libinput_event_touch_get_base_event(event)), let number = touchscreenIDs[device] else { return }
        guard type != LIBINPUT_EVENT_TOUCH_FRAME else { return host.handle(.touchFrame, from: number) }
        let time = Instant(microseconds: libinput_event_touch_get_time_usec(event))
        // Seat slots are unique across the seat's devices, so they serve as touch ids.
        let id = libinput_event_touch_get_seat_slot(event)
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN:
            routedTouches[id] = number
            if let origin = output(of: device).map({ Position(x: $0.rect.x, y: $0.rect.y) }), origin != filterOrigins[device] { sendTouchFilters(device) }
            host.handle(.touchDown(id: id, global: outputPoint(event), time: time), from: number)
        case LIBINPUT_EVENT_TOUCH_MOTION:
            // A touch that came down while calibration held the touches is not the seat's.
            guard routedTouches[id] != nil else { return }
            host.handle(.touchMotion(id: id, global: outputPoint(event), time: time), from: number)
        case LIBINPUT_EVENT_TOUCH_UP:
            guard routedTouches.removeValue(forKey: id) != nil else { return }
            host.handle(.touchUp(id: id, time: time), from: number)
        default:
            guard routedTouches.removeValue(forKey: id) != nil else { return }
            // Also what a touch still down on an unplugged device gets: libinput cancels it
            // before it reports the device removed.
            host.handle(.touchCancel(id: id, time: time), from: number)
        }
    }

    /// Gives the seat the device's filters, its dead zones placed on its output as it is now,
    /// and logs zones that miss the output with where the file gave them. Returns the
    /// device's entries' filters, for the log; nil for a device that is no touchscreen.
    @discardableResult
    func sendTouchFilters(_ device: OpaquePointer) -> PanelFilterSettings? {
        guard let number = touchscreenIDs[device], let info = devices[device] else { return nil }
        let output = output(of: device)
        let rect = output?.rect ?? .empty
        let panel = DeviceSettings.merged(settings, for: info.name).filters
        let (filters, offScreen) = panel.touchFilters(on: rect)
        filterOrigins[device] = Position(x: rect.x, y: rect.y)
        for zone in offScreen {
            logger.error("\(zone.origin): the dead zone \(zone.rect) lies off \(info.name)'s screen \(output?.description.name ?? "(none)") (\(rect.width)x\(rect.height)): left out")
        }
        host.setTouchFilters(filters, for: number, named: info.name)
        return panel
    }

    /// libinput scales the device's axis range onto 0...1 of the panel (its calibration
    /// matrix, in the device's own axes, applied first); the device's output turns that
    /// into the layout through its transform, so a touchscreen follows its screen's rotation
    /// with no setting.
    private func outputPoint(_ event: OpaquePointer) -> Point {
        let output = output(of: libinput_event_get_device(libinput_event_touch_get_base_event(event)))
        return output?.layoutPoint(panelFraction: libinput_event_touch_get_x_transformed(event, 1), libinput_event_touch_get_y_transformed(event, 1))
            ?? Point(x: 0, y: 0)
    }

    /// The output `device` maps to: the one its settings name, else the first; nil with none.
    func output(of device: OpaquePointer?) -> PlacedOutput? {
        let layout = host.outputLayout
        let named = device.flatMap { mappedOutputs[$0] }.flatMap { name in layout.first { $0.description.name == name } }
        return named ?? layout.first
    }

    /// libinput's touchpad gestures, one at a time: its pinch scale is already against the
    /// begin, and its angle a delta, as zwp_pointer_gestures_v1 wants them.
    private func gesture(_ event: OpaquePointer, _ type: libinput_event_type) {
        let time = Instant(microseconds: libinput_event_gesture_get_time_usec(event))
        switch type {
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_BEGIN:
            let kind: TouchpadGesture = type == LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN ? .swipe : type == LIBINPUT_EVENT_GESTURE_PINCH_BEGIN ? .pinch : .hold
            host.handle(.touchpadGestureBegin(kind, fingers: Int(libinput_event_gesture_get_finger_count(event)), time: time))
        case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_UPDATE:
            let delta = Point(x: libinput_event_gesture_get_dx(event), y: libinput_event_gesture_get_dy(event))
            let pinch = type == LIBINPUT_EVENT_GESTURE_PINCH_UPDATE
            host.handle(.touchpadGestureUpdate(
                delta: delta, scale: pinch ? libinput_event_gesture_get_scale(event) : 1,
                rotation: pinch ? libinput_event_gesture_get_angle_delta(event) : 0, time: time))
        default:
            host.handle(.touchpadGestureEnd(cancelled: libinput_event_gesture_get_cancelled(event) != 0, time: time))
        }
    }

    private func pointer(_ event: OpaquePointer, _ type: libinput_event_type) {
        let time = Instant(microseconds: libinput_event_pointer_get_time_usec(event))
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            host.handleRelativeMotion(RelativeMotion(
                dx: libinput_event_pointer_get_dx(event), dy: libinput_event_pointer_get_dy(event),
                unacceleratedDX: libinput_event_pointer_get_dx_unaccelerated(event), unacceleratedDY: libinput_event_pointer_get_dy_unaccelerated(event)
            ), time: time)
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let output = output(of: libinput_event_get_device(libinput_event_pointer_get_base_event(event)))
            let point = output?.layoutPoint(panelFraction: libinput_event_pointer_get_absolute_x_transformed(event, 1),
                                            libinput_event_pointer_get_absolute_y_transformed(event, 1))
            host.handle(.pointerMotion(global: point ?? Point(x: 0, y: 0), time: time))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            // Count 1 on press and 0 on release: two mice holding one button act as one.
            let count = libinput_event_pointer_get_seat_button_count(event)
            let pressed = libinput_event_pointer_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
            guard pressed ? count == 1 : count == 0 else { return }
            host.handle(.pointerButton(button: libinput_event_pointer_get_button(event), state: pressed ? .pressed : .released, time: time))
        default:
            host.handle(.pointerAxis(scroll(event, type), time: time))
        }
    }

    private func scroll(_ event: OpaquePointer, _ type: libinput_event_type) -> AxisMotion {
        let source: AxisMotion.Source = switch type {
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL: .wheel
        case LIBINPUT_EVENT_POINTER_SCROLL_FINGER: .finger
        default: .continuous
        }
        func value(_ axis: libinput_pointer_axis) -> (Double, Int32)? {
            guard libinput_event_pointer_has_axis(event, axis) != 0 else { return nil }
            let v120 = source == .wheel ? Int32(libinput_event_pointer_get_scroll_value_v120(event, axis)) : 0
            return (libinput_event_pointer_get_scroll_value(event, axis), v120)
        }
        let horizontal = value(LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL)
        let vertical = value(LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)
        // A finger or continuous scroll ends with a zero on each axis it ran along.
        var stops: AxisMotion.Axes = []
        if source != .wheel, horizontal?.0 == 0 { stops.insert(.horizontal) }
        if source != .wheel, vertical?.0 == 0 { stops.insert(.vertical) }
        // libinput has already turned a naturally scrolling device's values around.
        let natural = libinput_device_config_scroll_get_natural_scroll_enabled(libinput_event_get_device(event)) != 0
        return AxisMotion(
            source: source, horizontal: horizontal?.0 ?? 0, vertical: vertical?.0 ?? 0,
            horizontalValue120: horizontal?.1 ?? 0, verticalValue120: vertical?.1 ?? 0, stops: stops, inverted: natural
        )
    }

    private func key(_ event: OpaquePointer) {
        let time = Instant(microseconds: libinput_event_keyboard_get_time_usec(event))
        let pressed = libinput_event_keyboard_get_key_state(event) == LIBINPUT_KEY_STATE_PRESSED
        // As with buttons: only the first press and the last release of a key across keyboards.
        let count = libinput_event_keyboard_get_seat_key_count(event)
        guard pressed ? count == 1 : count == 0 else { return }
        host.handle(.key(key: libinput_event_keyboard_get_key(event), state: pressed ? .pressed : .released, time: time))
    }

    // MARK: Hotplug

    private func deviceAdded(_ device: OpaquePointer?) {
        guard let device else { return }
        var capabilities: InputCapabilities = []
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { capabilities.insert(.touch) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { capabilities.insert(.pointer) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { capabilities.insert(.keyboard) }
        // A tablet's pens drive the pointer of clients without a tablet seat (`InputRouter+Pen`).
        let tablet = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0
        if tablet { capabilities.insert(.pointer) }
        let pad = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_PAD) != 0
        let name = String(cString: libinput_device_get_name(device))
        let touchpad = capabilities.contains(.pointer) && libinput_device_config_tap_get_finger_count(device) > 0
        let primary: InputDeviceSummary.Kind = capabilities.contains(.touch) ? .touchscreen : tablet ? .tablet : pad ? .pad
            : touchpad ? .touchpad : capabilities.contains(.pointer) ? .pointer : capabilities.contains(.keyboard) ? .keyboard : .other
        devices[device] = InputDevice(name: name, syspath: Self.syspath(of: device) ?? name, capabilities: capabilities, kind: primary)
        var applied = configure(device, with: DeviceSettings.merged(settings, for: name))
        if capabilities.contains(.touch) {
            touchscreenIDs[device] = InputDeviceID(UInt32(touchscreenNumbering.take()))
            if let filters = sendTouchFilters(device) { applied.append(filters.summary) }
        }
        if pad { padAdded(device) }
        let kind = tablet ? "a tablet: its pens are tablet tools, or the pointer"
            : pad ? "a tablet pad: its buttons, rings and strips go to the keyboard focus" : capabilities.names
        logger.info("device added: \(name) (\(kind))\(applied.isEmpty ? "" : "; " + applied.joined(separator: ", "))")
    }

    /// By now libinput has cancelled the device's touches and released its keys and buttons,
    /// as events of their own; what is left is the seat's capabilities, after the batch.
    private func deviceRemoved(_ device: OpaquePointer?) {
        guard let device, let removed = devices.removeValue(forKey: device) else { return }
        mappedOutputs[device] = nil
        mappingRules[device] = nil
        mappedRegions[device] = nil
        filterOrigins[device] = nil
        if let number = touchscreenIDs.removeValue(forKey: device) { host.setTouchFilters(nil, for: number, named: removed.name) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0
            || libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_PAD) != 0 { tabletRemoved(device) }
        logger.info("device removed: \(removed.name)")
    }
}

extension InputCapabilities {
    var names: String {
        let names = [(InputCapabilities.touch, "touch"), (.pointer, "pointer"), (.keyboard, "keyboard")].filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "no seat capability" : names.joined(separator: ", ")
    }
}
