import CLibseat
import Glibc
import Logging
import TactileWayland

/// The seat session: how devices (input nodes, DRM cards) get opened, and when Tactile may
/// use them. Through libseat when a seat manager (seatd, logind, or libseat's built-in one as
/// root) answers, so an unprivileged kiosk user can run Tactile and a VT switch takes the
/// devices away and gives them back; or by plain `open` when running as root without one (a
/// bare kiosk image). The libinput and DRM backends share one: a process holds one seat.
public final class Session {
    public enum Mode: CustomStringConvertible, Sendable {
        case seat(name: String)
        case direct

        public var description: String {
            switch self {
            case .seat(let name): "libseat, seat \(name)"
            case .direct: "direct open as root (no seat manager)"
            }
        }
    }

    public private(set) var mode: Mode = .direct
    private var seat: OpaquePointer?
    /// Whether the seat is ours now (always, in direct mode).
    public private(set) var isActive = false
    /// libseat's id for each open fd, to close it through libseat again.
    private var deviceIDs: [Int32: Int32] = [:]
    private let logger: Logger
    /// Told when the seat manager takes the seat away (VT switch) or gives it back, in the
    /// order they were added: the DRM backend (master, picture) before input.
    private var observers: [(Bool) -> Void] = []
    /// The seat manager's fd on the server's loop.
    private var watch: EventSource?

    /// Opens a libseat session on `host`'s loop, waiting up to `timeoutMilliseconds` for the
    /// seat to be granted; falls back to direct access as root. Throws when neither is possible.
    public init(host: any BackendHost, logger: Logger, timeoutMilliseconds: Int32 = 5000) throws {
        self.logger = logger
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_SILENT)
        let me = Unmanaged.passUnretained(self).toOpaque()
        seat = libseat_open_seat(Self.listener, me)
        if let seat {
            var waited: Int32 = 0
            while !isActive, waited < timeoutMilliseconds {
                guard libseat_dispatch(seat, 100) >= 0 else { break }
                waited += 100
            }
            if isActive {
                mode = .seat(name: String(cString: libseat_seat_name(seat)))
                watch = host.watch(fileDescriptor: libseat_get_fd(seat)) { [unowned self] in dispatch() }
                return
            }
            logger.warning("the seat manager did not grant the seat within \(timeoutMilliseconds) ms")
            libseat_close_seat(seat)
            self.seat = nil
        }
        guard geteuid() == 0 else { throw BackendError.noDeviceAccess }
        mode = .direct
        isActive = true
    }

    deinit {
        if let seat { libseat_close_seat(seat) }
    }

    /// Calls `observer` each time the seat is taken away (false) or given back (true).
    public func observe(_ observer: @escaping (Bool) -> Void) { observers.append(observer) }

    private func dispatch() {
        guard let seat else { return }
        if libseat_dispatch(seat, 0) < 0 { logger.error("libseat dispatch failed: \(String(cString: strerror(errno)))") }
    }

    /// An fd for the device at `path`, or a negative errno, as libinput's open_restricted wants.
    public func open(_ path: String, flags: Int32) -> Int32 {
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

    public func close(_ fd: Int32) {
        if let seat, let id = deviceIDs.removeValue(forKey: fd) { libseat_close_device(seat, id) }
        Glibc.close(fd)
    }

    /// libseat keeps this pointer for the session's lifetime, so it is allocated once (and
    /// never written after, which is why sharing it is safe).
    nonisolated(unsafe) private static let listener: UnsafePointer<libseat_seat_listener> = {
        let pointer = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        pointer.initialize(to: libseat_seat_listener(
            enable_seat: { _, data in
                let session = Unmanaged<Session>.fromOpaque(data!).takeUnretainedValue()
                session.isActive = true
                for observer in session.observers { observer(true) }
            },
            disable_seat: { seat, data in
                let session = Unmanaged<Session>.fromOpaque(data!).takeUnretainedValue()
                session.isActive = false
                for observer in session.observers { observer(false) }
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
