import CLibinput
import Responder
import TactileWayland

/// libinput's tablet tools (pens, erasers, brushes): each numbered while it is in proximity,
/// its position mapped to the output as a touchscreen's is (through the output's transform),
/// its pressure and tilt passed on.
extension LibinputBackend {
    func tabletTool(_ event: OpaquePointer, _ type: libinput_event_type) {
        guard let tool = libinput_event_tablet_tool_get_tool(event) else { return }
        let time = Instant(microseconds: libinput_event_tablet_tool_get_time_usec(event))
        let key = tool
        if type == LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY {
            if libinput_event_tablet_tool_get_proximity_state(event) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN {
                let pen = nextPen
                nextPen = nextPen == Int32.max ? 1 : nextPen + 1
                pens[key] = pen
                host.handle(.penProximity(pen: pen, entering: true, global: penPoint(event), time: time))
                host.handle(.penMotion(pen: pen, global: penPoint(event), axes: axes(event), time: time))
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

    private func penPoint(_ event: OpaquePointer) -> Point {
        let output = output(of: libinput_event_get_device(libinput_event_tablet_tool_get_base_event(event)))
        return output?.layoutPoint(panelFraction: libinput_event_tablet_tool_get_x_transformed(event, 1),
                                   libinput_event_tablet_tool_get_y_transformed(event, 1)) ?? Point(x: 0, y: 0)
    }

    private func axes(_ event: OpaquePointer) -> PenAxes {
        PenAxes(pressure: libinput_event_tablet_tool_get_pressure(event), distance: libinput_event_tablet_tool_get_distance(event),
                tiltX: libinput_event_tablet_tool_get_tilt_x(event), tiltY: libinput_event_tablet_tool_get_tilt_y(event))
    }
}
