import CLibinput
import Responder
import TactileWayland

/// Calibration's side of the backend: touchscreens named by syspath, their libinput matrices,
/// and their touches handed to a calibrator instead of the seat.
extension LibinputBackend: TouchscreenControl {
    public var touchscreens: [TouchscreenDescription] {
        devices.compactMap { device, info in
            guard info.capabilities.contains(.touch) else { return nil }
            return TouchscreenDescription(
                syspath: info.syspath, name: info.name, output: output(of: device)?.description.name ?? "",
                mappedBy: mappingRules[device] ?? .first, calibratable: libinput_device_config_calibration_has_matrix(device) != 0)
        }.sorted { $0.syspath < $1.syspath }
    }

    public func calibration(of syspath: String) -> [Float]? {
        guard let device = touchscreen(syspath), libinput_device_config_calibration_has_matrix(device) != 0 else { return nil }
        var matrix = [Float](repeating: 0, count: 6)
        _ = matrix.withUnsafeMutableBufferPointer { libinput_device_config_calibration_get_matrix(device, $0.baseAddress) }
        return matrix
    }

    public func setCalibration(_ matrix: [Float], of syspath: String) -> Bool {
        guard matrix.count == 6, matrix.allSatisfy(\.isFinite), let device = touchscreen(syspath) else { return false }
        return libinput_device_config_calibration_set_matrix(device, matrix) == LIBINPUT_CONFIG_STATUS_SUCCESS
    }

    public func map(_ syspath: String, to output: String) {
        guard let device = touchscreen(syspath), let info = devices[device] else { return }
        mappedOutputs[device] = output
        mappingRules[device] = .touch
        logger.info("device \(info.name): mapped to \(output) (by touch)")
        sendTouchFilters(device)
    }

    /// Touches already handed to the seat are cancelled there as calibration takes over: the
    /// app under them must not wait for a lift that goes elsewhere.
    public func capture(_ receiver: ((String, CapturedTouch, Instant) -> Void)?) {
        if receiver != nil, !routedTouches.isEmpty {
            let now = host.currentTime
            for (id, device) in routedTouches.sorted(by: { $0.key < $1.key }) {
                host.handle(.touchCancel(id: id, time: now), from: device)
                host.handle(.touchFrame, from: device)
            }
            routedTouches = [:]
        }
        touchCapture = receiver
    }

    /// A touch event for the calibrator: its position on the panel as libinput's matrix
    /// (the identity, while calibrating) leaves it, before the output's transform.
    func captured(_ event: OpaquePointer, _ type: libinput_event_type, by receiver: (String, CapturedTouch, Instant) -> Void) {
        guard let device = libinput_event_get_device(libinput_event_touch_get_base_event(event)), let info = devices[device] else { return }
        let time = Instant(microseconds: libinput_event_touch_get_time_usec(event))
        let id = libinput_event_touch_get_seat_slot(event)
        func position() -> Point {
            Point(x: libinput_event_touch_get_x_transformed(event, 1), y: libinput_event_touch_get_y_transformed(event, 1))
        }
        let touch: CapturedTouch = switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN: .down(id: id, at: position())
        case LIBINPUT_EVENT_TOUCH_MOTION: .motion(id: id, to: position())
        case LIBINPUT_EVENT_TOUCH_UP: .up(id: id)
        case LIBINPUT_EVENT_TOUCH_FRAME: .frame
        default: .cancel
        }
        receiver(info.syspath, touch, time)
    }

    private func touchscreen(_ syspath: String) -> OpaquePointer? {
        devices.first { $0.value.syspath == syspath && $0.value.capabilities.contains(.touch) }?.key
    }

    /// The device's udev syspath (/sys/devices/…/eventN), if udev knows it.
    static func syspath(of device: OpaquePointer) -> String? {
        guard let udev = libinput_device_get_udev_device(device) else { return nil }
        defer { udev_device_unref(udev) }
        return udev_device_get_syspath(udev).map { String(cString: $0) }
    }
}
