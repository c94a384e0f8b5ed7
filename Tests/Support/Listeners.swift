import CWaylandClient
import WaylandProtocols

/// Listener tables for the test client, allocated once at stable addresses. Each callback
/// finds its TestClient (or Window) in the user data.
enum Listeners {
    private static func make<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    /// A surface's protocol id; 0 for one the client destroyed while the event was in flight
    /// (libwayland-client then hands over NULL).
    private static func surfaceID(_ surface: OpaquePointer?) -> UInt32 {
        surface.map { wl_proxy_get_id($0) } ?? 0
    }

    private static func client(_ data: UnsafeMutableRawPointer?) -> TestClient {
        Unmanaged<TestClient>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static let registry = make(wl_registry_listener(
        global: { data, registry, name, interface, version in
            client(data).announce(registry, name, String(cString: interface!), version)
        },
        global_remove: { data, _, name in client(data).removedGlobals.append(name) }
    ))

    /// zwlr_output_manager_v1's heads (their own events unheard) and serial.
    nonisolated(unsafe) static let outputManager = make(zwlr_output_manager_v1_listener(
        head: { data, _, head in client(data).outputHeads.append(head!) },
        done: { data, _, serial in client(data).outputManagerSerial = serial },
        finished: { _, _ in }
    ))

    /// wp_fractional_scale_v1's preferred scale.
    nonisolated(unsafe) static let fractionalScale = make(wp_fractional_scale_v1_listener(
        preferred_scale: { data, object, scale in client(data).preferredScales[object!] = scale }
    ))

    /// zwlr_output_configuration_v1's answer.
    nonisolated(unsafe) static let outputConfiguration = make(zwlr_output_configuration_v1_listener(
        succeeded: { data, _ in client(data).outputConfigurationAnswer = "succeeded" },
        failed: { data, _ in client(data).outputConfigurationAnswer = "failed" },
        cancelled: { data, _ in client(data).outputConfigurationAnswer = "cancelled" }
    ))

    nonisolated(unsafe) static let touchTimestamps = make(zwp_input_timestamps_v1_listener(
        timestamp: { data, _, secHi, secLo, nsec in
            let client = client(data)
            let nanoseconds = (UInt64(secHi) << 32 | UInt64(secLo)) * 1_000_000_000 + UInt64(nsec)
            client.touchTimestamps.append((nanoseconds, client.touchTimes.count))
        }
    ))

    nonisolated(unsafe) static let presentation = make(wp_presentation_listener(
        clock_id: { data, _, clock in client(data).presentationClock = clock }
    ))

    nonisolated(unsafe) static let sessionLock = make(ext_session_lock_v1_listener(
        locked: { data, _ in client(data).lockEvents.append("locked") },
        finished: { data, _ in client(data).lockEvents.append("finished") }
    ))

    nonisolated(unsafe) static let lockSurface = make(ext_session_lock_surface_v1_listener(
        configure: { data, _, serial, width, height in client(data).lockConfigures.append((serial, width, height)) }
    ))

    nonisolated(unsafe) static let outputPower = make(zwlr_output_power_v1_listener(
        mode: { data, _, mode in client(data).outputPowerEvents.append(mode == 1 ? "on" : "off") },
        failed: { data, _ in client(data).outputPowerEvents.append("failed") }
    ))

    /// wl_output's name, mode and transform, by the output's proxy.
    nonisolated(unsafe) static let output = make(wl_output_listener(
        geometry: { data, output, _, _, _, _, _, _, _, transform in client(data).outputTransforms[output!] = transform },
        mode: { data, output, _, width, height, _ in client(data).outputModes[output!] = (width, height) },
        done: { _, _ in },
        scale: { data, output, scale in client(data).outputScales[output!] = scale },
        name: { data, output, name in client(data).outputNames[output!] = String(cString: name!) },
        description: { _, _, _ in }
    ))

    /// wl_surface.enter and leave, on the window's list of outputs.
    nonisolated(unsafe) static let surface = make(wl_surface_listener(
        enter: { data, _, output in
            Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue().outputs.append(output!)
        },
        leave: { data, _, output in
            Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue().outputs.removeAll { $0 == output! }
        }
    ))

    nonisolated(unsafe) static let touch = make(wl_touch_listener(
        down: { data, _, _, time, surface, id, x, y in
            client(data).touchTimes.append(time)
            client(data).record(.touchDown(surface: surfaceID(surface), id: id, x: x, y: y))
        },
        up: { data, _, _, time, id in
            client(data).touchTimes.append(time)
            client(data).record(.touchUp(id: id))
        },
        motion: { data, _, time, id, x, y in
            client(data).touchTimes.append(time)
            client(data).record(.touchMotion(id: id, x: x, y: y))
        },
        frame: { data, _ in client(data).record(.touchFrame) },
        cancel: { data, _ in client(data).record(.touchCancel) },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }
    ))

    nonisolated(unsafe) static let pointer = make(wl_pointer_listener(
        enter: { data, pointer, serial, surface, x, y in
            client(data).lastEnterSerial = serial
            client(data).record(.pointerEnter(surface: surfaceID(surface), x: x, y: y), from: pointer)
        },
        leave: { data, pointer, _, surface in client(data).record(.pointerLeave(surface: surfaceID(surface)), from: pointer) },
        motion: { data, pointer, _, x, y in client(data).record(.pointerMotion(x: x, y: y), from: pointer) },
        button: { data, pointer, serial, _, button, state in
            client(data).lastButtonSerial = serial
            client(data).record(.pointerButton(button: button, state: state), from: pointer)
        },
        axis: { data, pointer, _, axis, value in client(data).record(.pointerAxis(axis: axis, value: value), from: pointer) },
        frame: { data, pointer in client(data).record(.pointerFrame, from: pointer) },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }
    ))

    nonisolated(unsafe) static let keyboard = make(wl_keyboard_listener(
        keymap: { data, _, format, fd, size in client(data).keymapReceived(format: format, fd: fd, size: size) },
        enter: { data, keyboard, _, surface, keys in
            let count = (keys?.pointee.size ?? 0) / MemoryLayout<UInt32>.size
            let values = (0..<count).map { keys!.pointee.data.load(fromByteOffset: $0 * 4, as: UInt32.self) }
            client(data).record(.keyboardEnter(surface: surfaceID(surface), keys: values), from: keyboard)
        },
        leave: { data, keyboard, _, surface in client(data).record(.keyboardLeave(surface: surfaceID(surface)), from: keyboard) },
        key: { data, keyboard, _, _, key, state in client(data).record(.key(key: key, state: state), from: keyboard) },
        modifiers: { data, keyboard, _, depressed, _, locked, _ in client(data).record(.modifiers(depressed: depressed, locked: locked), from: keyboard) },
        repeat_info: { _, _, _, _ in }
    ))

    nonisolated(unsafe) static let edgeDeferral = make(tactile_edge_deferral_v1_listener(limit: { data, _, pixels in
        client(data).edgeDeferralLimit = pixels
    }))

    nonisolated(unsafe) static let wmBase = make(xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    nonisolated(unsafe) static let xdgSurface = make(xdg_surface_listener(configure: { data, _, serial in
        Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue().configureSerial = serial
    }))

    nonisolated(unsafe) static let popup = make(xdg_popup_listener(
        configure: { data, popup, x, y, width, height in
            client(data).popupConfigures[wl_proxy_get_id(popup)] = (x, y, width, height)
        },
        popup_done: { data, popup in client(data).popupsDone.insert(wl_proxy_get_id(popup)) },
        repositioned: { _, _, _ in }
    ))

    nonisolated(unsafe) static let toplevel = make(xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            let window = Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue()
            window.configuredSize = (width, height)
            window.configuredStates = states.map { Array(UnsafeBufferPointer(start: $0.pointee.data?.assumingMemoryBound(to: UInt32.self),
                                                                             count: $0.pointee.size / 4)) } ?? []
        },
        close: { data, _ in Unmanaged<Window>.fromOpaque(data!).takeUnretainedValue().closeRequested = true },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }
    ))
}
