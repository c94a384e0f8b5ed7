import CLibinput
import Responder
import TactileWayland

/// What tells one physical pen from another: its tablet, kind, tool id and serial (0 for a
/// pen without one, which libinput cannot tell apart either).
struct PenIdentity: Hashable {
    let device: String
    let kind: UInt32
    let toolID: UInt64
    let serial: UInt64
}

/// libinput's tablet tools (pens, erasers, brushes): each physical pen numbered once and
/// described to the server (tablet-v2's tool and tablet) when first seen, its position mapped
/// to the output as a touchscreen's is (through the output's transform), or to the region of
/// it the device's settings give, its pressure and tilt passed on.
extension LibinputBackend {
    func tabletTool(_ event: OpaquePointer, _ type: libinput_event_type) {
        guard let tool = libinput_event_tablet_tool_get_tool(event) else { return }
        let time = Instant(microseconds: libinput_event_tablet_tool_get_time_usec(event))
        let key = tool
        if type == LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY {
            if libinput_event_tablet_tool_get_proximity_state(event) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN {
                let pen = number(tool, on: libinput_event_get_device(libinput_event_tablet_tool_get_base_event(event)))
                pens[key] = pen
                // The axes it comes with, in the proximity itself: the first a client hears.
                host.handle(.penProximity(pen: pen, entering: true, global: penPoint(event), axes: axes(event), time: time))
            } else if let pen = pens.removeValue(forKey: key) {
                host.handle(.penProximity(pen: pen, entering: false, global: penPoint(event), time: time))
            }
            return
        }
        guard let pen = pens[key] else { return }
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            // The axes changed with the tip, as libinput says: the position first.
            host.handle(.penMotion(pen: pen, global: penPoint(event), axes: axes(event), time: time))
            let down = libinput_event_tablet_tool_get_tip_state(event) == LIBINPUT_TABLET_TOOL_TIP_DOWN
            host.handle(.penTip(pen: pen, down: down, time: time))
        case LIBINPUT_EVENT_TABLET_TOOL_BUTTON:
            let pressed = libinput_event_tablet_tool_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
            host.handle(.penButton(pen: pen, button: libinput_event_tablet_tool_get_button(event), state: pressed ? .pressed : .released, time: time))
        default:
            host.handle(.penMotion(pen: pen, global: penPoint(event), axes: axes(event), time: time))
        }
    }

    /// The pen's number, given and described when the pen is first seen.
    private func number(_ tool: OpaquePointer, on device: OpaquePointer?) -> Int32 {
        let sysname = device.map { String(cString: libinput_device_get_sysname($0)) } ?? ""
        let identity = PenIdentity(device: sysname, kind: libinput_tablet_tool_get_type(tool).rawValue,
                                   toolID: libinput_tablet_tool_get_tool_id(tool), serial: libinput_tablet_tool_get_serial(tool))
        if let known = penNumbers[identity] { return known }
        let pen = penNumbering.take()
        penNumbers[identity] = pen
        var senses: PenTool.Senses = []
        if libinput_tablet_tool_has_pressure(tool) != 0 { senses.insert(.pressure) }
        if libinput_tablet_tool_has_tilt(tool) != 0 { senses.insert(.tilt) }
        if libinput_tablet_tool_has_distance(tool) != 0 { senses.insert(.distance) }
        if libinput_tablet_tool_has_rotation(tool) != 0 { senses.insert(.rotation) }
        if libinput_tablet_tool_has_slider(tool) != 0 { senses.insert(.slider) }
        if libinput_tablet_tool_has_wheel(tool) != 0 { senses.insert(.wheel) }
        let tablet = device.map(Self.tablet) ?? TabletDescription(name: "tablet")
        host.describePen(pen, as: PenTool(kind: Self.penKind(libinput_tablet_tool_get_type(tool)), serial: identity.serial, hardwareID: identity.toolID,
                                          senses: senses, tablet: tablet))
        return pen
    }

    static func tablet(_ device: OpaquePointer) -> TabletDescription {
        TabletDescription(name: String(cString: libinput_device_get_name(device)), vendor: libinput_device_get_id_vendor(device),
                          product: libinput_device_get_id_product(device), path: "/dev/input/\(String(cString: libinput_device_get_sysname(device)))")
    }

    /// A tablet (or pad) was unplugged: its pens still in proximity leave, and clients see
    /// its pens' tools, its pad and the tablet removed. A pen plugged in again is a new one.
    func tabletRemoved(_ device: OpaquePointer) {
        let sysname = String(cString: libinput_device_get_sysname(device))
        let gone = Set(penNumbers.filter { $0.key.device == sysname }.map(\.value))
        for (tool, pen) in pens where gone.contains(pen) {
            pens[tool] = nil
            host.handle(.penProximity(pen: pen, entering: false, global: Point(x: 0, y: 0), time: host.currentTime))
        }
        penNumbers = penNumbers.filter { $0.key.device != sysname }
        padNumbers[sysname] = nil
        host.tabletRemoved(Self.tablet(device))
    }

    private static func penKind(_ type: libinput_tablet_tool_type) -> PenTool.Kind {
        switch type {
        case LIBINPUT_TABLET_TOOL_TYPE_ERASER: .eraser
        case LIBINPUT_TABLET_TOOL_TYPE_BRUSH: .brush
        case LIBINPUT_TABLET_TOOL_TYPE_PENCIL: .pencil
        case LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: .airbrush
        case LIBINPUT_TABLET_TOOL_TYPE_MOUSE: .mouse
        case LIBINPUT_TABLET_TOOL_TYPE_LENS: .lens
        default: .pen
        }
    }

    /// Onto the tablet's region of its output when it has one, else onto the whole panel.
    private func penPoint(_ event: OpaquePointer) -> Point {
        let device = libinput_event_get_device(libinput_event_tablet_tool_get_base_event(event))
        guard let output = output(of: device) else { return Point(x: 0, y: 0) }
        let (x, y) = (libinput_event_tablet_tool_get_x_transformed(event, 1), libinput_event_tablet_tool_get_y_transformed(event, 1))
        if let region = device.flatMap({ mappedRegions[$0] }) { return output.layoutPoint(fraction: x, y, of: region) }
        return output.layoutPoint(panelFraction: x, y)
    }

    private func axes(_ event: OpaquePointer) -> PenAxes {
        PenAxes(pressure: libinput_event_tablet_tool_get_pressure(event), distance: libinput_event_tablet_tool_get_distance(event),
                tiltX: libinput_event_tablet_tool_get_tilt_x(event), tiltY: libinput_event_tablet_tool_get_tilt_y(event),
                rotation: libinput_event_tablet_tool_get_rotation(event), slider: libinput_event_tablet_tool_get_slider_position(event),
                wheel: libinput_event_tablet_tool_get_wheel_delta(event),
                wheelClicks: Int32(clamping: libinput_event_tablet_tool_get_wheel_delta_discrete(event)))
    }
}
