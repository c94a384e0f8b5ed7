import CLibseat
import Glibc
import Logging

/// How input devices get opened: through libseat when a seat manager (seatd, logind) answers,
/// so an unprivileged kiosk user can run Tactile and devices are revoked on a VT switch; or by
/// plain `open` when running as root without one (a bare kiosk image, the QEMU test guest).
final class DeviceAccess {
    enum Mode: CustomStringConvertible {
        case seat(name: String)
        case direct

        var description: String {
            switch self {
            case .seat(let name): "libseat, seat \(name)"
            case .direct: "direct open as root (no seat manager)"
            }
        }
    }

    private(set) var mode: Mode = .direct
    private var seat: OpaquePointer?
    private var enabled = false
    /// libseat's id for each open fd, to close it through libseat again.
    private var deviceIDs: [Int32: Int32] = [:]
    private let logger: Logger
    /// Called when the seat manager takes the seat away (VT switch) or gives it back.
    var onActiveChanged: ((Bool) -> Void)?

    /// Opens a libseat session, waiting up to `timeoutMilliseconds` for the seat to be
    /// granted; falls back to direct access as root. Throws when neither is possible.
    init(logger: Logger, timeoutMilliseconds: Int32 = 5000) throws {
        self.logger = logger
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_SILENT)
        let me = Unmanaged.passUnretained(self).toOpaque()
        seat = libseat_open_seat(Self.listener, me)
        if let seat {
            var waited: Int32 = 0
            while !enabled, waited < timeoutMilliseconds {
                guard libseat_dispatch(seat, 100) >= 0 else { break }
                waited += 100
            }
            if enabled {
                mode = .seat(name: String(cString: libseat_seat_name(seat)))
                return
            }
            logger.warning("the seat manager did not grant the seat within \(timeoutMilliseconds) ms")
            libseat_close_seat(seat)
            self.seat = nil
        }
        guard geteuid() == 0 else { throw BackendError.noDeviceAccess }
        mode = .direct
    }

    deinit {
        if let seat { libseat_close_seat(seat) }
    }

    /// The fd to watch for the seat manager's messages; nil in direct mode.
    var fileDescriptor: Int32? {
        seat.map { libseat_get_fd($0) }
    }

    func dispatch() {
        guard let seat else { return }
        if libseat_dispatch(seat, 0) < 0 { logger.error("libseat dispatch failed: \(String(cString: strerror(errno)))") }
    }

    /// An fd for the device at `path`, or a negative errno, as libinput's open_restricted wants.
    func open(_ path: String, flags: Int32) -> Int32 {
        guard let seat else {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            return fd >= 0 ? fd : -errno
        }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        guard id >= 0 else { return -errno }
        // libinput expects to read without blocking, whichever seat manager opened the node.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        deviceIDs[fd] = id
        return fd
    }

    func close(_ fd: Int32) {
        if let seat, let id = deviceIDs.removeValue(forKey: fd) { libseat_close_device(seat, id) }
        Glibc.close(fd)
    }

    /// libseat keeps this pointer for the session's lifetime, so it is allocated once (and
    /// never written after, which is why sharing it is safe).
    nonisolated(unsafe) private static let listener: UnsafePointer<libseat_seat_listener> = {
        let pointer = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        pointer.initialize(to: libseat_seat_listener(
            enable_seat: { _, data in
                let access = Unmanaged<DeviceAccess>.fromOpaque(data!).takeUnretainedValue()
                access.enabled = true
                access.onActiveChanged?(true)
            },
            disable_seat: { seat, data in
                let access = Unmanaged<DeviceAccess>.fromOpaque(data!).takeUnretainedValue()
                access.enabled = false
                access.onActiveChanged?(false)
                libseat_disable_seat(seat)
            }
        ))
        return UnsafePointer(pointer)
    }()
}

public enum BackendError: Error, CustomStringConvertible {
    case noDeviceAccess
    case contextCreationFailed(String)
    case deviceUnusable(path: String)

    public var description: String {
        switch self {
        case .noDeviceAccess:
            "cannot open input devices: no seat manager answered (start seatd, or run in a logind session) and not running as root"
        case .contextCreationFailed(let what): "could not create the libinput context: \(what)"
        case .deviceUnusable(let path): "libinput cannot use \(path) (does it exist, is it an input device, may we open it?)"
        }
    }
}
