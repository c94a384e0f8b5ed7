import CWaylandClient
import Foundation
import WaylandProtocols

/// wl_fixed_t of a coordinate: 24.8 fixed point.
func f(_ value: Double) -> wl_fixed_t { wl_fixed_t(value * 256) }

/// What a test client saw, in order; coordinates as the raw wl_fixed_t on the wire.
enum Seen: Equatable {
    case touchDown(surface: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t)
    case touchMotion(id: Int32, x: wl_fixed_t, y: wl_fixed_t)
    case touchUp(id: Int32)
    case touchFrame
    case touchCancel
    case pointerEnter(surface: UInt32, x: wl_fixed_t, y: wl_fixed_t)
    case pointerLeave(surface: UInt32)
    case pointerMotion(x: wl_fixed_t, y: wl_fixed_t)
    case pointerButton(button: UInt32, state: UInt32)
    case pointerAxis(axis: UInt32, value: wl_fixed_t)
    case pointerFrame
    case keyboardEnter(surface: UInt32, keys: [UInt32])
    case keyboardLeave(surface: UInt32)
    case key(key: UInt32, state: UInt32)
    case modifiers(depressed: UInt32, locked: UInt32)

    /// The seat events only, without keyboard traffic, for tests about touch and pointer.
    var isKeyboard: Bool {
        switch self {
        case .keyboardEnter, .keyboardLeave, .key, .modifiers: true
        default: false
        }
    }
}

/// A real libwayland-client client: binds the globals, makes shm-backed xdg toplevels, and
/// records every seat event. Used from one thread (the test's).
final class TestClient {
    let display: OpaquePointer
    private(set) var registry: OpaquePointer?
    var compositor: OpaquePointer?
    var subcompositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var shellV6: OpaquePointer?
    var shell: OpaquePointer?
    var seat: OpaquePointer?
    var testInput: OpaquePointer?
    var screencopy: OpaquePointer?
    var decorationManager: OpaquePointer?
    var layerShell: OpaquePointer?
    var virtualKeyboardManager: OpaquePointer?
    var textInputManager: OpaquePointer?
    var dataDeviceManager: OpaquePointer?
    var primarySelectionManager: OpaquePointer?
    var relativePointerManager: OpaquePointer?
    var pointerConstraints: OpaquePointer?
    var pointerGestures: OpaquePointer?
    var tabletManager: OpaquePointer?
    var inputMethodManager: OpaquePointer?
    var outputs: [OpaquePointer] = []
    /// What each wl_output said of itself, by its proxy.
    var outputNames: [OpaquePointer: String] = [:]
    var outputModes: [OpaquePointer: (width: Int32, height: Int32)] = [:]
    /// wl_output.geometry's transform, by the output's proxy.
    var outputTransforms: [OpaquePointer: Int32] = [:]
    /// The registry names of globals the server withdrew.
    var removedGlobals: [UInt32] = []
    /// The registry name of each bound wl_output, by its proxy.
    var outputGlobals: [OpaquePointer: UInt32] = [:]
    var globals: [String: UInt32] = [:]
    /// The registry name of each global announced, by interface (the last one of each).
    var registryNames: [String: UInt32] = [:]
    var seen: [Seen] = []
    /// The events of the devices on other seats (`bindSeat`), by the seat's registry name.
    var seenOnSeat: [UInt32: [Seen]] = [:]
    private var otherSeatDevices: [OpaquePointer: UInt32] = [:]
    var keymap: (format: UInt32, fd: Int32, size: UInt32)?
    /// The time of each touch down, motion and up received, in order (milliseconds).
    var touchTimes: [UInt32] = []
    var edgeDeferralManager: OpaquePointer?
    var viewporter: OpaquePointer?
    var singlePixelBufferManager: OpaquePointer?
    var cursorShapeManager: OpaquePointer?
    var fractionalScaleManager: OpaquePointer?
    /// wp_fractional_scale_v1.preferred_scale, the latest, by the scale object's proxy.
    var preferredScales: [OpaquePointer: UInt32] = [:]
    /// wl_output.scale, by the output's proxy.
    var outputScales: [OpaquePointer: Int32] = [:]
    /// zwlr_output_manager_v1, its heads in the order announced, and its latest done serial.
    var outputManager: OpaquePointer?
    var outputHeads: [OpaquePointer] = []
    var outputManagerSerial: UInt32?
    /// The latest zwlr_output_configuration_v1 answer: "succeeded", "failed" or "cancelled".
    var outputConfigurationAnswer: String?
    var sessionLockManager: OpaquePointer?
    var presentation: OpaquePointer?
    var inputTimestampsManager: OpaquePointer?
    /// Each zwp_input_timestamps_v1.timestamp on the touch, in nanoseconds, with how many
    /// touch events (`touchTimes`) had come before it.
    var touchTimestamps: [(nanoseconds: UInt64, eventsBefore: Int)] = []
    /// wp_presentation.clock_id.
    var presentationClock: UInt32?
    /// ext_session_lock_v1's events, in order: "locked", "finished".
    var lockEvents: [String] = []
    /// ext_session_lock_surface_v1.configure's serial and size, in order.
    var lockConfigures: [(serial: UInt32, width: UInt32, height: UInt32)] = []
    var outputPowerManager: OpaquePointer?
    var idleInhibitManager: OpaquePointer?
    /// Every zwlr_output_power_v1.mode received, in order ("on", "off"), and "failed".
    var outputPowerEvents: [String] = []
    /// What tactile_edge_deferral_v1.limit said.
    var edgeDeferralLimit: UInt32?
    /// Every window made, kept as long as the client: the listeners reach a window through an
    /// unretained pointer, and a test may drop its window while events for it still come.
    private var windows: [Window] = []
    /// The serial of the latest wl_pointer.button, for requests that must name an input event.
    var lastButtonSerial: UInt32?
    /// The serial of the latest wl_pointer.enter, which wl_pointer.set_cursor names.
    var lastEnterSerial: UInt32?
    /// The latest xdg_popup.configure of each popup, by its id.
    var popupConfigures: [UInt32: (x: Int32, y: Int32, width: Int32, height: Int32)] = [:]
    /// The popups the compositor dismissed (xdg_popup.popup_done), by id.
    var popupsDone: Set<UInt32> = []
    private(set) var touch: OpaquePointer?
    private(set) var pointer: OpaquePointer?
    private(set) var keyboard: OpaquePointer?

    init(socket: String, devices: Set<String> = ["touch", "pointer", "keyboard"]) throws {
        guard let display = wl_display_connect(socket) else { throw ClientError.connectFailed(socket) }
        self.display = display
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Listeners.registry, me)
        try roundtrip()
        if let seat {
            if devices.contains("touch") {
                touch = wl_seat_get_touch(seat)
                wl_touch_add_listener(touch, Listeners.touch, me)
            }
            if devices.contains("pointer") {
                pointer = wl_seat_get_pointer(seat)
                wl_pointer_add_listener(pointer, Listeners.pointer, me)
            }
            if devices.contains("keyboard") {
                keyboard = wl_seat_get_keyboard(seat)
                wl_keyboard_add_listener(keyboard, Listeners.keyboard, me)
            }
        }
        if let wmBase { xdg_wm_base_add_listener(wmBase, Listeners.wmBase, me) }
        try roundtrip()
    }

    deinit {
        if let keymap { close(keymap.fd) }
        wl_display_disconnect(display)
    }

    /// Sends everything and waits until the server has handled it and its answers are read.
    func roundtrip() throws {
        guard wl_display_roundtrip(display) >= 0 else { throw ClientError.protocolError(lastError) }
    }

    /// The protocol error the server posted, if it did ("interface#id: code").
    var lastError: String {
        let code = wl_display_get_error(display)
        guard code != 0 else { return "none" }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
        let name = interface.map { String(cString: $0.pointee.name) } ?? "?"
        return "\(name)#\(id): \(protocolCode)"
    }

    /// Sends test-input requests, then waits until the server has routed them.
    func inject(_ requests: (OpaquePointer) -> Void) throws {
        requests(testInput!)
        try roundtrip()
    }

    /// A one-finger tap at (x, y) through test input: down and up, each with its frame.
    func tap(_ x: Double, _ y: Double, id: Int32 = 1) throws {
        try inject { input in
            tactile_test_input_v1_touch_down(input, id, f(x), f(y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, id)
            tactile_test_input_v1_touch_frame(input)
        }
    }

    /// Drops what was recorded so far and returns it.
    func take() -> [Seen] {
        defer { seen.removeAll() }
        return seen
    }

    /// An xdg_toplevel of `width × height` with a committed shm buffer, moved to (x, y) when
    /// the test protocol is there. Returns its wl_surface.
    func toplevel(width: Int32, height: Int32, at position: (Int32, Int32)? = nil, surface: OpaquePointer? = nil,
                  prepare: (_ toplevel: OpaquePointer) -> Void = { _ in }) throws -> Window {
        let window = try Window(client: self, width: width, height: height, surface: surface, prepare: prepare)
        windows.append(window)
        if let position, let testInput {
            tactile_test_input_v1_move_toplevel(testInput, window.surface, position.0, position.1)
        }
        try roundtrip()
        return window
    }

    /// A subsurface of `parent` with a committed buffer of `width × height` (cached while it
    /// is synchronized, so the parent's next commit shows it). Returns its surface and role.
    func subsurface(of parent: OpaquePointer, width: Int32, height: Int32) throws -> (surface: OpaquePointer, role: OpaquePointer) {
        let surface = wl_compositor_create_surface(compositor)!
        let role = wl_subcompositor_get_subsurface(subcompositor, surface, parent)!
        wl_surface_attach(surface, try buffer(width: width, height: height), 0, 0)
        wl_surface_commit(surface)
        return (surface, role)
    }

    /// Attaches a fresh buffer of the size (in `colour`) and commits.
    func commitBuffer(_ surface: OpaquePointer, width: Int32, height: Int32, colour: UInt32 = 0) throws {
        wl_surface_attach(surface, try buffer(width: width, height: height, colour: colour), 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        wl_surface_commit(surface)
    }

    /// Attaches `buffer`, damages all of it, commits, and waits (3 s at most) for the frame
    /// that shows it.
    func show(_ buffer: OpaquePointer?, on surface: OpaquePointer) throws {
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
        let frame = RequestedFrame(surface)
        wl_surface_commit(surface)
        let deadline = Date().addingTimeInterval(3)
        while !frame.done, Date() < deadline {
            try roundtrip()
            usleep(2_000)
        }
    }

    /// The surface a touch at (x, y) goes to, or nil; the touch is ended again.
    func surfaceHit(at x: Double, _ y: Double) throws -> UInt32? {
        try roundtrip()
        _ = take()
        try inject { input in
            tactile_test_input_v1_touch_down(input, 99, f(x), f(y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 99)
            tactile_test_input_v1_touch_frame(input)
        }
        return take().compactMap { if case .touchDown(let surface, _, _, _) = $0 { surface } else { nil } }.first
    }

    /// An ARGB8888 shm buffer of the size, every pixel `colour` (0xAARRGGBB, premultiplied;
    /// the default is transparent), or `pattern`'s colour for each (x, y).
    func buffer(width: Int32, height: Int32, colour: UInt32 = 0, pattern: ((Int, Int) -> UInt32)? = nil) throws -> OpaquePointer {
        let stride = width * 4, size = stride * height
        let fd = tactile_client_memfd_create("tactile-test-buffer")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw ClientError.noMemory }
        defer { close(fd) }
        if colour != 0 || pattern != nil, let memory = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED {
            let pixels = memory.initializeMemory(as: UInt32.self, repeating: colour, count: Int(width * height))
            if let pattern {
                for y in 0..<Int(height) { for x in 0..<Int(width) { pixels[y * Int(width) + x] = pattern(x, y) } }
            }
            munmap(memory, Int(size))
        }
        let pool = wl_shm_create_pool(shm, fd, size)
        defer { wl_shm_pool_destroy(pool) }
        return wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888.rawValue)!
    }

    func id(_ proxy: OpaquePointer?) -> UInt32 { wl_proxy_get_id(proxy) }

    func record(_ event: Seen) { seen.append(event) }

    /// A device's event: kept in `seen`, or, for a device on another seat than the first
    /// (`bindSeat`), in `seenOnSeat` under that seat's registry name.
    func record(_ event: Seen, from device: OpaquePointer?) {
        guard let device, let seatName = otherSeatDevices[device] else { return seen.append(event) }
        seenOnSeat[seatName, default: []].append(event)
    }

    /// Binds the wl_seat global `name` (one announced after the first, which `seat` holds)
    /// and its pointer and keyboard, whose events go to `seenOnSeat[name]`.
    @discardableResult
    func bindSeat(named name: UInt32) throws -> OpaquePointer {
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let other = OpaquePointer(wl_registry_bind(registry, name, tactile_client_wl_seat_interface(), 8)),
              let pointer = wl_seat_get_pointer(other), let keyboard = wl_seat_get_keyboard(other) else {
            throw ClientError.protocolError("wl_seat \(name) could not be bound")
        }
        wl_pointer_add_listener(pointer, Listeners.pointer, me)
        wl_keyboard_add_listener(keyboard, Listeners.keyboard, me)
        otherSeatDevices[pointer] = name
        otherSeatDevices[keyboard] = name
        try roundtrip()
        return other
    }

    func announce(_ registry: OpaquePointer?, _ name: UInt32, _ interface: String, _ version: UInt32) {
        globals[interface] = version
        registryNames[interface] = name
        func bind(_ iface: UnsafePointer<wl_interface>, _ v: UInt32) -> OpaquePointer? {
            OpaquePointer(wl_registry_bind(registry, name, iface, min(version, v)))
        }
        switch interface {
        case "wl_compositor": compositor = bind(tactile_client_wl_compositor_interface(), 5)
        case "wl_subcompositor": subcompositor = bind(tactile_client_wl_subcompositor_interface(), 1)
        case "wl_shm": shm = bind(tactile_client_wl_shm_interface(), 1)
        case "xdg_wm_base": wmBase = bind(tactile_xdg_wm_base_interface(), 7)
        case "zxdg_shell_v6": shellV6 = bind(tactile_zxdg_shell_v6_interface(), 1)
        case "wl_shell": shell = bind(tactile_client_wl_shell_interface(), 1)
        case "wl_data_device_manager": dataDeviceManager = bind(tactile_client_wl_data_device_manager_interface(), 3)
        case "zwp_primary_selection_device_manager_v1": primarySelectionManager = bind(tactile_zwp_primary_selection_device_manager_v1_interface(), 1)
        // The first; a later one (a transient seat) is bound only when asked (`bindSeat`).
        case "wl_seat" where seat == nil: seat = bind(tactile_client_wl_seat_interface(), 8)
        case "wl_output":
            let output = bind(tactile_client_wl_output_interface(), 4)!
            outputs.append(output)
            outputGlobals[output] = name
            wl_output_add_listener(output, Listeners.output, Unmanaged.passUnretained(self).toOpaque())
        case "tactile_test_input_v1": testInput = bind(tactile_tactile_test_input_v1_interface(), 5)
        case "zwp_relative_pointer_manager_v1": relativePointerManager = bind(tactile_zwp_relative_pointer_manager_v1_interface(), 1)
        case "zwp_pointer_constraints_v1": pointerConstraints = bind(tactile_zwp_pointer_constraints_v1_interface(), 1)
        case "zwp_pointer_gestures_v1": pointerGestures = bind(tactile_zwp_pointer_gestures_v1_interface(), 3)
        case "zwp_tablet_manager_v2": tabletManager = bind(tactile_zwp_tablet_manager_v2_interface(), 1)
        case "zwlr_screencopy_manager_v1": screencopy = bind(tactile_zwlr_screencopy_manager_v1_interface(), 3)
        case "zxdg_decoration_manager_v1": decorationManager = bind(tactile_zxdg_decoration_manager_v1_interface(), 1)
        case "zwlr_layer_shell_v1": layerShell = bind(tactile_zwlr_layer_shell_v1_interface(), 5)
        case "zwp_virtual_keyboard_manager_v1": virtualKeyboardManager = bind(tactile_zwp_virtual_keyboard_manager_v1_interface(), 1)
        case "zwp_text_input_manager_v3": textInputManager = bind(tactile_zwp_text_input_manager_v3_interface(), 1)
        case "zwp_input_method_manager_v2": inputMethodManager = bind(tactile_zwp_input_method_manager_v2_interface(), 1)
        case "tactile_edge_deferral_manager_v1": edgeDeferralManager = bind(tactile_tactile_edge_deferral_manager_v1_interface(), 1)
        case "wp_viewporter": viewporter = bind(tactile_wp_viewporter_interface(), 1)
        case "wp_fractional_scale_manager_v1": fractionalScaleManager = bind(tactile_wp_fractional_scale_manager_v1_interface(), 1)
        case "wp_cursor_shape_manager_v1": cursorShapeManager = bind(tactile_wp_cursor_shape_manager_v1_interface(), 1)
        case "wp_single_pixel_buffer_manager_v1": singlePixelBufferManager = bind(tactile_wp_single_pixel_buffer_manager_v1_interface(), 1)
        case "zwp_input_timestamps_manager_v1": inputTimestampsManager = bind(tactile_zwp_input_timestamps_manager_v1_interface(), 1)
        case "wp_presentation":
            presentation = bind(tactile_wp_presentation_interface(), 1)
            wp_presentation_add_listener(presentation, Listeners.presentation, Unmanaged.passUnretained(self).toOpaque())
        case "ext_session_lock_manager_v1": sessionLockManager = bind(tactile_ext_session_lock_manager_v1_interface(), 1)
        case "zwlr_output_power_manager_v1": outputPowerManager = bind(tactile_zwlr_output_power_manager_v1_interface(), 1)
        case "zwp_idle_inhibit_manager_v1": idleInhibitManager = bind(tactile_zwp_idle_inhibit_manager_v1_interface(), 1)
        case "zwlr_output_manager_v1":
            outputManager = bind(tactile_zwlr_output_manager_v1_interface(), 4)
            zwlr_output_manager_v1_add_listener(outputManager, Listeners.outputManager, Unmanaged.passUnretained(self).toOpaque())
        default: break
        }
    }

    func keymapReceived(format: UInt32, fd: Int32, size: UInt32) {
        if let keymap { close(keymap.fd) }
        keymap = (format, fd, size)
    }
}

/// An xdg toplevel and its surface, configured and mapped.
final class Window {
    let surface: OpaquePointer
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    var configureSerial: UInt32?
    /// The size of the latest xdg_toplevel.configure.
    var configuredSize: (width: Int32, height: Int32)?
    /// The states of the latest xdg_toplevel.configure (xdg_toplevel.state values).
    var configuredStates: [UInt32] = []
    /// The compositor sent xdg_toplevel.close.
    var closeRequested = false
    /// The outputs the surface is on (wl_surface.enter, less leave).
    var outputs: [OpaquePointer] = []

    /// A toplevel of `surface`, or of a new one; `prepare` sets what goes with the initial
    /// commit (an app id, a tag).
    init(client: TestClient, width: Int32, height: Int32, surface: OpaquePointer? = nil, prepare: (_ toplevel: OpaquePointer) -> Void = { _ in }) throws {
        self.surface = surface ?? wl_compositor_create_surface(client.compositor)!
        xdgSurface = xdg_wm_base_get_xdg_surface(client.wmBase, self.surface)!
        toplevel = xdg_surface_get_toplevel(xdgSurface)!
        xdg_surface_add_listener(xdgSurface, Listeners.xdgSurface, Unmanaged.passUnretained(self).toOpaque())
        xdg_toplevel_add_listener(toplevel, Listeners.toplevel, Unmanaged.passUnretained(self).toOpaque())
        // A test listening to a newer wl_surface itself has its own listener there.
        if wl_proxy_get_listener(self.surface) == nil {
            wl_surface_add_listener(self.surface, Listeners.surface, Unmanaged.passUnretained(self).toOpaque())
        }
        prepare(toplevel)
        wl_surface_commit(self.surface)
        try client.roundtrip()
        if let configureSerial { xdg_surface_ack_configure(xdgSurface, configureSerial) }
        wl_surface_attach(self.surface, try client.buffer(width: width, height: height), 0, 0)
        wl_surface_commit(self.surface)
    }
}

enum ClientError: Error {
    case connectFailed(String)
    case protocolError(String)
    case noMemory
}

extension TestClient {
    /// Binds the global named `name` (which must be offered) at `version`, for a test of a
    /// protocol the client does not bind by itself.
    func bind(_ name: String, _ interface: UnsafePointer<wl_interface>, version: UInt32 = 1) throws -> OpaquePointer {
        guard let registryName = registryNames[name] else { throw ClientError.protocolError("\(name) is not offered") }
        return OpaquePointer(wl_registry_bind(registry, registryName, interface, version))
    }
}
