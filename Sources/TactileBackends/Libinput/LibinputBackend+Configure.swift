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
        // The settings' output, else udev's WL_OUTPUT (the property weston and wlroots read, set
        // by a udev rule for the touchscreen).
        let fromUdev = settings.output == nil ? Self.udevOutput(of: device) : nil
        if let output = settings.output ?? fromUdev {
            if host.outputLayout.contains(where: { $0.description.name == output }) {
                mappedOutputs[device] = output
                notes.append("mapped to \(output)\(fromUdev != nil ? " (udev WL_OUTPUT)" : "")")
            } else {
                let first = host.outputLayout.first?.description.name ?? "no output"
                notes.append("output \(output) does not exist, mapped to \(first)")
            }
        }
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

    /// The device's udev WL_OUTPUT property, if it has one.
    private static func udevOutput(of device: OpaquePointer) -> String? {
        guard let udev = libinput_device_get_udev_device(device) else { return nil }
        defer { udev_device_unref(udev) }
        return udev_device_get_property_value(udev, "WL_OUTPUT").map { String(cString: $0) }
    }
}
