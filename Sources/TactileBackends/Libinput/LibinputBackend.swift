import GestureConfiguration
import CLibinput
import Glibc
import Logging
import Responder
import TactileWayland

/// Where the libinput backend finds its devices and how it sets them up.
public struct LibinputOptions: Sendable {
    public enum Source: Sendable, Hashable {
        /// Every input device udev assigns to the seat, hotplug included.
        case seat(String)
        /// Exactly these /dev/input/event* nodes (libinput's path backend: no hotplug, but a
        /// device that disappears is still removed).
        case paths([String])
    }

    public var source: Source
    public var devices: [DeviceSettings]

    public init(source: Source = .seat("seat0"), devices: [DeviceSettings] = []) {
        self.source = source
        self.devices = devices
    }
}

/// Kernel input devices through libinput, turned into the core's device-neutral events.
///
/// Runs on the server's event loop: libinput's fd (and libseat's) are watched there, so every
/// event is handled between client requests, never concurrently with them.
public final class LibinputBackend {
    let host: any BackendHost
    let logger: Logger
    /// The configuration file's `devices:` entries; a reload replaces them (`reconfigure`).
    private(set) var settings: [DeviceSettings]
    private let session: Session
    private var udev: OpaquePointer?
    private(set) var context: OpaquePointer!
    /// libinput's fd and the seat manager's, on the server's loop while the backend lives.
    private var watches: [EventSource] = []
    /// The devices libinput has added and not yet removed.
    var devices: [OpaquePointer: InputDevice] = [:] {
        didSet { devicesChanged = true }
    }
    /// Since the host last heard of the devices.
    private var devicesChanged = false
    /// The output each touchscreen or absolute pointer maps to, by name (device settings'
    /// `output`); devices not listed map to the first output.
    var mappedOutputs: [OpaquePointer: String] = [:]
    /// The rule that mapped each touchscreen (the first output where none is recorded).
    var mappingRules: [OpaquePointer: TouchscreenMapping] = [:]
    /// The part of its output each tablet with a `region` setting maps to.
    var mappedRegions: [OpaquePointer: Rect] = [:]
    /// Tablet tools in proximity, by libinput's tool, and the number each physical pen was
    /// given when first seen (`LibinputBackend+Pens`).
    var pens: [OpaquePointer: Int32] = [:]
    var penNumbers: [PenIdentity: Int32] = [:]
    var penNumbering = DeviceNumbers()
    /// Each tablet pad's number, by its device (`LibinputBackend+Pads`).
    var padNumbers: [String: Int32] = [:]
    var padNumbering = DeviceNumbers()
    /// Where touches go instead of the seat while a touchscreen is calibrated
    /// (`TouchscreenControl.capture`).
    var touchCapture: ((String, CapturedTouch, Instant) -> Void)?
    /// The seat slots of touches handed to the seat and not yet lifted, with their device:
    /// cancelled when calibration takes the touches away.
    var routedTouches: [Int32: InputDeviceID] = [:]
    /// Each touchscreen's number for the seat's filters (`TouchFiltering`), and where its
    /// output was when its dead zones were placed: they follow the output when it moves.
    var touchscreenIDs: [OpaquePointer: InputDeviceID] = [:]
    var filterOrigins: [OpaquePointer: Position] = [:]
    var touchscreenNumbering = DeviceNumbers()

    /// Reads the devices of `options.source`, opened through `session` (the DRM backend's,
    /// when there is one), else through a session of its own.
    public init(host: any BackendHost, options: LibinputOptions, session: Session? = nil, logger: Logger) throws {
        self.host = host
        self.logger = logger
        settings = options.devices
        let session = try session ?? Session(host: host, logger: logger)
        self.session = session
        logger.info("input devices: \(session.mode)")
        let me = Unmanaged.passUnretained(self).toOpaque()
        switch options.source {
        case .seat(let requested):
            guard let udev = udev_new() else { throw BackendError.contextCreationFailed("udev_new failed") }
            self.udev = udev
            guard let context = libinput_udev_create_context(Self.interface, me, udev) else {
                throw BackendError.contextCreationFailed("libinput_udev_create_context failed")
            }
            self.context = context
            // A libseat session holds exactly one seat; its devices are the only ones it opens.
            var seatName = requested
            if case .seat(let granted) = session.mode, granted != requested {
                logger.warning("the seat manager granted seat \(granted), not \(requested): using \(granted)")
                seatName = granted
            }
            installLogHandler()
            guard libinput_udev_assign_seat(context, seatName) == 0 else {
                throw BackendError.contextCreationFailed("cannot assign seat \(seatName) (is udev running?)")
            }
        case .paths(let paths):
            guard let context = libinput_path_create_context(Self.interface, me) else {
                throw BackendError.contextCreationFailed("libinput_path_create_context failed")
            }
            self.context = context
            installLogHandler()
            for path in paths where libinput_path_add_device(context, path) == nil {
                throw BackendError.deviceUnusable(path: path)
            }
        }
        watches.append(host.watchInput(fileDescriptor: libinput_get_fd(context)) { [unowned self] in dispatch() })
        // Away from our VT, libinput lets go of the devices; libinput cancels the touches and
        // releases the keys still down as it does.
        // Weak: a shared session outlives this backend.
        session.observe { [weak self] active in
            guard let self else { return }
            logger.info(active ? "seat enabled: resuming input" : "seat disabled (VT switch?): suspending input")
            if active { _ = libinput_resume(context) } else { libinput_suspend(context) }
            // The devices' removal (or return) waits in libinput's queue, not on its fd.
            dispatch()
        }
        // The devices present now; until they come, the seat has no capabilities.
        dispatch()
    }

    /// The configuration file was read again: each touchscreen's filters follow its new
    /// `devices:` entries from its next first touch on. libinput's own settings (output,
    /// calibration, acceleration) keep what they were given at the device's arrival.
    public func reconfigure(devices entries: [DeviceSettings]) {
        settings = entries
        for device in touchscreenIDs.keys {
            if let filters = sendTouchFilters(device), let name = devices[device]?.name { logger.info("device \(name): \(filters.summary)") }
        }
    }

    deinit {
        if let context { libinput_unref(context) }
        if let udev { udev_unref(udev) }
    }

    /// Reads what the kernel has sent and routes every event libinput makes of it. Clients
    /// hear of the seat's capabilities once the batch is done, so devices arriving together
    /// (at start-up, back from a VT switch) make one wl_seat.capabilities, not one each.
    func dispatch() {
        if libinput_dispatch(context) != 0 { logger.error("libinput dispatch failed: \(String(cString: strerror(errno)))") }
        while let event = libinput_get_event(context) {
            handle(event)
            libinput_event_destroy(event)
        }
        host.setSeatCapabilities(devices.values.reduce(into: []) { $0.formUnion($1.capabilities) })
        if devicesChanged {
            devicesChanged = false
            host.inputDevicesChanged(devices.values.map { InputDeviceSummary(name: $0.name, kind: $0.kind) }.sorted { $0.name < $1.name })
            host.touchscreensChanged(self)
        }
    }

    private func installLogHandler() {
        libinput_log_set_priority(context, LIBINPUT_LOG_PRIORITY_INFO)
        libinput_log_set_handler(context, libinputLogHandler)
    }

    fileprivate func open(_ path: String, flags: Int32) -> Int32 {
        let fd = session.open(path, flags: flags)
        if fd < 0 { logger.warning("cannot open \(path): \(String(cString: strerror(-fd)))") }
        return fd
    }

    fileprivate func close(_ fd: Int32) { session.close(fd) }

    /// libinput keeps this pointer for the context's lifetime, so it is allocated once (and
    /// never written after, which is why sharing it is safe).
    nonisolated(unsafe) private static let interface: UnsafePointer<libinput_interface> = {
        let pointer = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        pointer.initialize(to: libinput_interface(
            open_restricted: { path, flags, data in
                Unmanaged<LibinputBackend>.fromOpaque(data!).takeUnretainedValue().open(String(cString: path!), flags: flags)
            },
            close_restricted: { fd, data in
                Unmanaged<LibinputBackend>.fromOpaque(data!).takeUnretainedValue().close(fd)
            }
        ))
        return UnsafePointer(pointer)
    }()
}

/// libinput's messages, into our log. A file-level constant: as a static member its va_list
/// type crashes the Swift 6.3.1 compiler when another module loads the class.
private let libinputLogHandler: libinput_log_handler = { context, priority, format, arguments in
    guard let context, let format, let arguments, let data = libinput_get_user_data(context) else { return }
    let backend = Unmanaged<LibinputBackend>.fromOpaque(data).takeUnretainedValue()
    var buffer = [UInt8](repeating: 0, count: 512)
    let length = buffer.withUnsafeMutableBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { Int(vsnprintf($0.baseAddress, $0.count, format, arguments)) }
    }
    let message = String(decoding: buffer.prefix(min(max(length, 0), buffer.count - 1)), as: UTF8.self).trimmingSuffix("\n")
    switch priority {
    case LIBINPUT_LOG_PRIORITY_ERROR: backend.logger.error("libinput: \(message)")
    // libinput's info (how it classified each device) is detail next to our own line per
    // device, so it goes to debug.
    default: backend.logger.debug("libinput: \(message)")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
