import CLibinput

extension LibinputBackend {
    /// Applies what libinput can do for this device and says, for the log, what took and
    /// what the device does not support: a setting that silently does nothing on a kiosk's
    /// touchscreen is the hardest kind of mistake to find.
    func configure(_ device: OpaquePointer, with settings: DeviceSettings) -> [String] {
        var notes: [String] = []
        func note(_ what: String, _ status: libinput_config_status) {
            notes.append(status == LIBINPUT_CONFIG_STATUS_SUCCESS ? what : "\(what) refused: \(String(cString: libinput_config_status_to_str(status)))")
        }
        if let mapping = map(device, named: settings.output) { notes.append(mapping) }
        if let matrix = settings.calibration {
            if libinput_device_config_calibration_has_matrix(device) != 0 {
                note("calibration \(matrix)", libinput_device_config_calibration_set_matrix(device, matrix))
            } else {
                notes.append("calibration not supported")
            }
        }
        if let region = settings.region {
            if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0 {
                mappedRegions[device] = region
                notes.append("pens mapped to \(region) of the output")
            } else {
                notes.append("region not supported (tablets only)")
            }
        }
        if settings.accelerationSpeed != nil || settings.accelerationProfile != nil {
            if libinput_device_config_accel_is_available(device) != 0 {
                if let speed = settings.accelerationSpeed { note("acceleration speed \(speed)", libinput_device_config_accel_set_speed(device, speed)) }
                if let profile = settings.accelerationProfile {
                    let raw = profile == .flat ? LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT : LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE
                    note("acceleration \(profile.rawValue)", libinput_device_config_accel_set_profile(device, raw))
                }
            } else {
                notes.append("pointer acceleration not supported")
            }
        }
        if let tap = settings.tapToClick {
            if libinput_device_config_tap_get_finger_count(device) > 0 {
                note("tap-to-click \(tap ? "on" : "off")", libinput_device_config_tap_set_enabled(device, tap ? LIBINPUT_CONFIG_TAP_ENABLED : LIBINPUT_CONFIG_TAP_DISABLED))
            } else {
                notes.append("tap-to-click not supported")
            }
        }
        if let natural = settings.naturalScrolling {
            if libinput_device_config_scroll_has_natural_scroll(device) != 0 {
                note("natural scrolling \(natural ? "on" : "off")", libinput_device_config_scroll_set_natural_scroll_enabled(device, natural ? 1 : 0))
            } else {
                notes.append("natural scrolling not supported")
            }
        }
        return notes
    }

    /// The output a touchscreen or absolute pointer maps to, and the rule that chose it, for
    /// the log: the settings' output, else udev's WL_OUTPUT (the property weston and wlroots
    /// read, set by a udev rule), else, for a touchscreen, the one output of its size
    /// (`ScreenBySize`), else the first output. Nil for other devices.
    private func map(_ device: OpaquePointer, named configured: String?) -> String? {
        let touchscreen = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0
        let fromUdev = configured == nil ? Self.udevOutput(of: device) : nil
        let first = host.outputLayout.first?.description.name ?? "no output yet"
        if let output = configured ?? fromUdev {
            guard host.outputLayout.contains(where: { $0.description.name == output }) else {
                return "output \(output) does not exist, mapped to \(first)"
            }
            mappedOutputs[device] = output
            mappingRules[device] = fromUdev != nil ? .udev : .configuration
            return "mapped to \(output) (\(fromUdev != nil ? "udev WL_OUTPUT" : "configuration"))"
        }
        guard touchscreen else { return nil }
        var width = 0.0, height = 0.0
        guard libinput_device_get_size(device, &width, &height) == 0 else {
            return "mapped to the first output, \(first) (its size is unknown: no resolution on its axes)"
        }
        let size = "\(Self.millimetres(width))x\(Self.millimetres(height)) mm"
        let outputs = host.outputLayout.map { ($0.description.name, $0.description.physicalSize) }
        switch ScreenBySize.output(for: (width, height), among: outputs) {
        case .matched(let output):
            mappedOutputs[device] = output
            mappingRules[device] = .size
            let screen = outputs.first { $0.0 == output }!.1
            return "mapped to \(output) by its size (\(size); \(output) is \(screen.width)x\(screen.height) mm)"
        case .several(let names):
            return "mapped to the first output, \(first) (\(size), as \(names.joined(separator: " and ")) are: set devices[].output)"
        case .none:
            let sizes = outputs.map { "\($0.0) \($0.1.width)x\($0.1.height) mm" }.joined(separator: ", ")
            return "mapped to the first output, \(first) (\(size); no output of that size\(sizes.isEmpty ? "" : ": " + sizes))"
        }
    }

    private static func millimetres(_ value: Double) -> Int {
        value.isFinite ? Int(value.rounded()) : 0
    }

    /// The device's udev WL_OUTPUT property, if it has one.
    private static func udevOutput(of device: OpaquePointer) -> String? {
        guard let udev = libinput_device_get_udev_device(device) else { return nil }
        defer { udev_device_unref(udev) }
        return udev_device_get_property_value(udev, "WL_OUTPUT").map { String(cString: $0) }
    }
}
