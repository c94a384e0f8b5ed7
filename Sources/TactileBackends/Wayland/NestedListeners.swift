import CWaylandClient
import CWaylandServer
import Glibc
import Responder
import TactileWayland
import WaylandProtocols

/// The listener tables the backend gives libwayland-client, allocated once at stable
/// addresses and never written after (which is why sharing them is safe). Each callback finds
/// its `WaylandBackend` (or `NestedWindow`) in the user data and does nothing else.
enum NestedListeners {
    private static func make<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    private static func backend(_ data: UnsafeMutableRawPointer?) -> WaylandBackend {
        Unmanaged<WaylandBackend>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func window(_ data: UnsafeMutableRawPointer?) -> NestedWindow {
        Unmanaged<NestedWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static let registry = make(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            backend(data).globalAnnounced(name, String(cString: interface), version)
        },
        global_remove: { data, _, name in backend(data).globalRemoved(name) }
    ))

    nonisolated(unsafe) static let wmBase = make(xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    // MARK: Windows

    nonisolated(unsafe) static let xdgSurface = make(xdg_surface_listener(configure: { data, _, serial in
        window(data).surfaceConfigured(serial: serial)
    }))

    nonisolated(unsafe) static let toplevel = make(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in window(data).toplevelConfigured(width: width, height: height) },
        close: { data, _ in
            let window = window(data)
            if let output = window.output { window.backend.closed(output) }
        },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }
    ))

    nonisolated(unsafe) static let frameDone = make(wl_callback_listener(done: { data, _, _ in window(data).frameDone() }))

    nonisolated(unsafe) static let presentation = make(wp_presentation_listener(clock_id: { data, _, clock in
        backend(data).globals.presentationClock = clock
    }))

    nonisolated(unsafe) static let feedback = make(wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, _, secondsHigh, secondsLow, nanoseconds, _, sequenceHigh, sequenceLow, flags in
            let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
            let time = Instant(microseconds: seconds &* 1_000_000 &+ UInt64(nanoseconds / 1000))
            let sequence = UInt64(sequenceHigh) << 32 | UInt64(sequenceLow)
            // zero_copy (0x8) says how the parent showed our buffer, not how we showed our clients'.
            window(data).feedbackEnded(PresentedFrame(time: time, sequence: sequence, flags: PresentedFrame.Flags(rawValue: flags & 0x7)))
        },
        discarded: { data, _ in window(data).feedbackEnded(nil) }
    ))

    // MARK: The parent's linux-dmabuf

    nonisolated(unsafe) static let dmabufFeedback = make(zwp_linux_dmabuf_feedback_v1_listener(
        done: { data, _ in Unmanaged<ParentDmabuf.Feedback>.fromOpaque(data!).takeUnretainedValue().done = true },
        format_table: { data, _, fd, size in
            defer { close(fd) }
            let feedback = Unmanaged<ParentDmabuf.Feedback>.fromOpaque(data!).takeUnretainedValue()
            // 16 bytes an entry: format, padding, modifier. A parent's nonsense size reads nothing.
            guard size > 0, size % 16 == 0, size <= 1 << 24, let table = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0),
                  table != UnsafeMutableRawPointer(bitPattern: -1) else { return }
            defer { munmap(table, Int(size)) }
            feedback.table = (0..<Int(size) / 16).map { index in
                (table.loadUnaligned(fromByteOffset: index * 16, as: UInt32.self), table.loadUnaligned(fromByteOffset: index * 16 + 8, as: UInt64.self))
            }
        },
        main_device: { data, _, device in
            guard let device, device.pointee.size == MemoryLayout<dev_t>.size, let bytes = device.pointee.data else { return }
            Unmanaged<ParentDmabuf.Feedback>.fromOpaque(data!).takeUnretainedValue().device = bytes.loadUnaligned(as: dev_t.self)
        },
        tranche_done: { _, _ in },
        tranche_target_device: { _, _, _ in },
        tranche_formats: { _, _, _ in },
        tranche_flags: { _, _, _ in }
    ))

    nonisolated(unsafe) static let dmabufParams = make(zwp_linux_buffer_params_v1_listener(
        created: { data, _, buffer in Unmanaged<ParentDmabuf.Answer>.fromOpaque(data!).takeUnretainedValue().buffer = buffer },
        failed: { data, _ in Unmanaged<ParentDmabuf.Answer>.fromOpaque(data!).takeUnretainedValue().failed = true }
    ))

    nonisolated(unsafe) static let bufferRelease = make(wl_buffer_listener(release: { data, buffer in window(data).released(buffer) }))

    // MARK: Seat

    nonisolated(unsafe) static let seat = make(wl_seat_listener(
        capabilities: { data, _, capabilities in backend(data).seatCapabilitiesChanged(capabilities) },
        name: { _, _, _ in }
    ))

    nonisolated(unsafe) static let pointer = make(wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in backend(data).pointerEntered(serial: serial, surface: surface, x: x, y: y) },
        leave: { data, _, _, _ in backend(data).pointerLeft() },
        motion: { data, _, _, x, y in backend(data).pointerMoved(x: x, y: y) },
        button: { data, _, _, _, button, state in backend(data).pointerButton(button, state: state) },
        axis: { data, _, _, axis, value in backend(data).pointerAxis(axis, value: value) },
        frame: { data, _ in backend(data).pointerFrame() },
        axis_source: { data, _, source in backend(data).pointerAxisSource(source) },
        axis_stop: { data, _, _, axis in backend(data).pointerAxisStop(axis) },
        axis_discrete: { data, _, axis, discrete in
            // Sent only below wl_seat 8, where axis_value120 replaces it.
            backend(data).pointerAxisValue120(axis, discrete.multipliedReportingOverflow(by: 120).partialValue)
        },
        axis_value120: { data, _, axis, value120 in backend(data).pointerAxisValue120(axis, value120) }
    ))

    nonisolated(unsafe) static let keyboard = make(wl_keyboard_listener(
        // Tactile has its own keymap; the parent's fd is only closed.
        keymap: { _, _, _, fd, _ in close(fd) },
        enter: { _, _, _, _, _ in },
        leave: { data, _, _, _ in backend(data).keyboardLeft() },
        key: { data, _, _, _, key, state in backend(data).keyboardKey(key, state: state) },
        // Tactile computes modifiers from the keys it routes.
        modifiers: { _, _, _, _, _, _, _ in },
        repeat_info: { _, _, _, _ in }
    ))

    /// Each comes just before the event it times.
    nonisolated(unsafe) static let timestamp = make(zwp_input_timestamps_v1_listener(timestamp: { data, _, secondsHigh, secondsLow, nanoseconds in
        let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
        backend(data).input.stamp = Instant(microseconds: seconds &* 1_000_000 &+ UInt64(nanoseconds / 1000))
    }))

    nonisolated(unsafe) static let tabletSeat = make(zwp_tablet_seat_v2_listener(
        tablet_added: { data, _, tablet in backend(data).tabletAdded(tablet) },
        tool_added: { data, _, tool in backend(data).toolAdded(tool) },
        // Pads are not forwarded: a nested window's pads belong to the parent's focus.
        pad_added: { _, _, pad in zwp_tablet_pad_v2_destroy(pad) }
    ))

    nonisolated(unsafe) static let tablet = make(zwp_tablet_v2_listener(
        name: { data, tablet, name in backend(data).describeTablet(tablet) { $0.name = name.map { String(cString: $0) } ?? "" } },
        id: { data, tablet, vendor, product in backend(data).describeTablet(tablet) { ($0.vendor, $0.product) = (vendor, product) } },
        path: { data, tablet, path in backend(data).describeTablet(tablet) { $0.path = path.map { String(cString: $0) } ?? "" } },
        done: { _, _ in },
        removed: { data, tablet in backend(data).tabletRemoved(tablet) }
    ))

    nonisolated(unsafe) static let tool = make(zwp_tablet_tool_v2_listener(
        type: { data, tool, type in backend(data).toolType(tool, type) },
        hardware_serial: { data, tool, high, low in backend(data).changeTool(tool) { $0.serial = UInt64(high) << 32 | UInt64(low) } },
        hardware_id_wacom: { data, tool, high, low in backend(data).changeTool(tool) { $0.hardwareID = UInt64(high) << 32 | UInt64(low) } },
        capability: { data, tool, capability in backend(data).toolCapability(tool, capability) },
        done: { _, _ in },
        removed: { data, tool in backend(data).toolRemoved(tool) },
        proximity_in: { data, tool, _, tablet, surface in backend(data).toolNear(tool, tablet: tablet, surface: surface) },
        proximity_out: { data, tool in backend(data).changeTool(tool) { $0.leaving = true } },
        down: { data, tool, _ in backend(data).changeTool(tool) { $0.tip = true } },
        up: { data, tool in backend(data).changeTool(tool) { $0.tip = false } },
        motion: { data, tool, x, y in backend(data).changeTool(tool) { $0.position = (x, y) } },
        pressure: { data, tool, pressure in backend(data).changeTool(tool) { $0.axes.pressure = WaylandBackend.fraction(pressure) } },
        distance: { data, tool, distance in backend(data).changeTool(tool) { $0.axes.distance = WaylandBackend.fraction(distance) } },
        tilt: { data, tool, x, y in backend(data).changeTool(tool) { ($0.axes.tiltX, $0.axes.tiltY) = (wl_fixed_to_double(x), wl_fixed_to_double(y)) } },
        rotation: { data, tool, degrees in backend(data).changeTool(tool) { $0.axes.rotation = wl_fixed_to_double(degrees) } },
        slider: { data, tool, position in backend(data).changeTool(tool) { $0.axes.slider = Double(position) / 65535 } },
        wheel: { data, tool, degrees, clicks in
            backend(data).changeTool(tool) { ($0.axes.wheel, $0.axes.wheelClicks) = ($0.axes.wheel + wl_fixed_to_double(degrees), $0.axes.wheelClicks &+ clicks) }
        },
        button: { data, tool, _, button, state in
            backend(data).changeTool(tool) { $0.buttons.append((button, state == ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue ? .pressed : .released)) }
        },
        frame: { data, tool, _ in backend(data).toolFrame(tool) }
    ))

    nonisolated(unsafe) static let touch = make(wl_touch_listener(
        down: { data, _, _, _, surface, id, x, y in backend(data).touchDown(id: id, surface: surface, x: x, y: y) },
        up: { data, _, _, _, id in backend(data).touchUp(id: id) },
        motion: { data, _, _, id, x, y in backend(data).touchMoved(id: id, x: x, y: y) },
        frame: { data, _ in backend(data).touchFrame() },
        cancel: { data, _ in backend(data).touchCancelled() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }
    ))
}
