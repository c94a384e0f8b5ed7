import Glibc
import Logging
import TactileWayland

/// systemd's service notification (sd_notify, for `Type=notify` units): READY once Tactile
/// listens with its outputs up, WATCHDOG pings from the event loop itself (so a wedged loop
/// misses them and systemd restarts Tactile), STOPPING on the way out. Without
/// NOTIFY_SOCKET in the environment it does nothing. The protocol is a datagram of
/// `KEY=VALUE` lines to that socket (a path, or an abstract name after `@`).
public final class Supervision {
    private let socket: Int32?
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    private let logger: Logger
    private var watchdog: EventSource?

    public init(environment: [String: String], logger: Logger) {
        self.logger = logger
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            socket = nil
            return
        }
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, byte) in bytes.enumerated() { raw[k] = byte }
            // An abstract socket's name starts with a NUL where the '@' stands.
            if bytes.first == UInt8(ascii: "@") { raw[0] = 0 }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        socket = fd >= 0 ? fd : nil
        if fd < 0 { logger.warning("NOTIFY_SOCKET=\(path): no socket to tell systemd on: \(String(cString: strerror(errno)))") }
    }

    deinit { if let socket { close(socket) } }

    /// Tactile listens and its outputs are up; with WATCHDOG_USEC (for this process, as
    /// WATCHDOG_PID says when set), pings start, at half the interval.
    public func ready(_ status: String, environment: [String: String], server: WaylandServer) {
        send("READY=1\nSTATUS=\(status)")
        guard socket != nil, let interval = environment["WATCHDOG_USEC"].flatMap(UInt64.init), interval >= 2000,
              environment["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true
        else { return }
        let period = Int32(clamping: interval / 2000)
        watchdog = server.port.makeTimer { [unowned self] in
            send("WATCHDOG=1")
            watchdog?.arm(milliseconds: period)
        }
        watchdog?.arm(milliseconds: period)
        logger.info("systemd watchdog: a ping every \(period) ms")
    }

    public func stopping() {
        watchdog = nil
        send("STOPPING=1")
    }

    private func send(_ message: String) {
        guard let socket else { return }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                sendto(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL), address, addressLength)
            }
        }
        if sent < 0 { logger.warning("could not tell systemd \(message.split(separator: "\n").first ?? ""): \(String(cString: strerror(errno)))") }
    }
}
