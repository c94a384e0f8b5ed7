import CLibinput
import Responder
import TactileWayland

/// libinput's tablet pads: each pad device numbered when added and described to the server
/// (tablet-v2's pad, on a tablet of its own device: libinput does not pair a pad with its
/// pen's device without libwacom's data), its buttons, rings and strips passed on. Buttons
/// libinput reserves for mode switching come as ordinary buttons; Tactile keeps one mode.
extension LibinputBackend {
    func padAdded(_ device: OpaquePointer) {
        let sysname = String(cString: libinput_device_get_sysname(device))
        let pad = padNumbering.take()
        padNumbers[sysname] = pad
        func count(_ value: Int32) -> UInt32 { UInt32(clamping: max(0, value)) }
        host.describePad(pad, as: PadDescription(tablet: Self.tablet(device), buttons: count(libinput_device_tablet_pad_get_num_buttons(device)),
                                                 rings: count(libinput_device_tablet_pad_get_num_rings(device)),
                                                 strips: count(libinput_device_tablet_pad_get_num_strips(device))))
    }

    func tabletPad(_ event: OpaquePointer, _ type: libinput_event_type) {
        let device = libinput_event_get_device(libinput_event_tablet_pad_get_base_event(event))
        guard let device, let pad = padNumbers[String(cString: libinput_device_get_sysname(device))] else { return }
        let time = Instant(microseconds: libinput_event_tablet_pad_get_time_usec(event))
        let action: PadAction
        switch type {
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON:
            let pressed = libinput_event_tablet_pad_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
            action = .button(libinput_event_tablet_pad_get_button_number(event), pressed ? .pressed : .released)
        case LIBINPUT_EVENT_TABLET_PAD_RING:
            // libinput's -1: the finger left the ring.
            let degrees = libinput_event_tablet_pad_get_ring_position(event)
            action = .ring(libinput_event_tablet_pad_get_ring_number(event), degrees: degrees < 0 ? nil : degrees,
                           byFinger: libinput_event_tablet_pad_get_ring_source(event) == LIBINPUT_TABLET_PAD_RING_SOURCE_FINGER)
        case LIBINPUT_EVENT_TABLET_PAD_STRIP:
            let position = libinput_event_tablet_pad_get_strip_position(event)
            action = .strip(libinput_event_tablet_pad_get_strip_number(event), position: position < 0 ? nil : position,
                            byFinger: libinput_event_tablet_pad_get_strip_source(event) == LIBINPUT_TABLET_PAD_STRIP_SOURCE_FINGER)
        default:
            return
        }
        host.handle(.pad(pad: pad, action, time: time))
    }
}
