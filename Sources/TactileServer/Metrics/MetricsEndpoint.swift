import Glibc
import Logging
import Responder
import TactileWayland

/// `metrics.listen`: HTTP/1.x served from the compositor's own event loop, one short exchange
/// per connection (`Connection: close`). Nothing a scraper sends can stall the loop or grow
/// without bound: every socket is non-blocking, a request is at most 8 KiB and must arrive
/// within 5 s, at most 16 connections are open at once, and a reply the peer does not read
/// is given up with its connection. A connection past the limit takes the place of the
/// oldest one still waiting for its request: half-sent requests held open (slowloris)
/// cannot keep a fleet's scraper out.
final class MetricsEndpoint {
    struct Request {
        var method: Substring
        var path: Substring
    }

    struct Response {
        var status: Int
        var reason: String
        var contentType = "text/plain; charset=utf-8"
        var body: [UInt8]
    }

    /// Where it listens, with the port the system chose for port 0.
    let address: String
    private let listener: Int32
    private var accepting: EventSource?
    private var connections: [ObjectIdentifier: Connection] = [:]
    private let port: ServerPort
    private let logger: Logger
    private let respond: (Request) -> Response
    /// Lines about misbehaving peers, kept to one of a kind every few seconds.
    private var throttle = LogThrottle()
    /// Numbers connections in the order they came, to find the oldest.
    private var opened = 0

    static let connectionLimit = 16
    static let requestLimit = 8192
    static let timeout: Int32 = 5000

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(listening address: ListenAddress, port: ServerPort, logger: Logger, respond: @escaping (Request) -> Response) throws(Failure) {
        self.port = port
        self.logger = logger
        self.respond = respond
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "\(address): no socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        let length = Self.fill(&storage, address)
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "\(address): \(reason)")
        }
        listener = fd
        var chosen = sockaddr_storage()
        var chosenLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &chosen) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &chosenLength) } }
        var actual = address
        actual.port = Self.port(of: chosen)
        self.address = actual.description
        accepting = port.watch(fileDescriptor: fd, onReadable: { [unowned self] in acceptAll() })
    }

    deinit {
        accepting = nil
        for connection in connections.values { connection.close() }
        close(listener)
    }

    private func acceptAll() {
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { logger.warning("metrics: accept failed: \(String(cString: strerror(errno)))") }
                return
            }
            // Not accept4's flags: Glibc's module shows accept4 only under _GNU_SOURCE.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let name = Self.describe(peer)
            if connections.count >= Self.connectionLimit {
                guard let oldest = connections.values.filter(\.isReading).min(by: { $0.number < $1.number }) else {
                    Glibc.close(fd)
                    peerProblem("refused", "metrics: refused a connection from \(name): \(Self.connectionLimit) already open, all answering")
                    continue
                }
                oldest.close()
                closed(oldest)
                peerProblem("evicted", "metrics: closed the oldest of \(Self.connectionLimit) connections, from \(oldest.peer), its request unfinished, for one from \(name)")
            }
            opened += 1
            let connection = Connection(fd: fd, peer: name, number: opened, endpoint: self)
            connections[ObjectIdentifier(connection)] = connection
            connection.start()
        }
    }

    fileprivate func closed(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
    }

    /// The response to what `connection` sent, once its headers have come.
    fileprivate func answer(_ head: ArraySlice<UInt8>, from peer: String) -> Response {
        let firstLine = head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let text = String(decoding: firstLine, as: UTF8.self)
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[2].hasPrefix("HTTP/1."), words[1].hasPrefix("/") else {
            peerProblem("malformed", "metrics: a malformed request from \(peer): \(Self.quoted(text)) (400)")
            return Self.plain(400, "Bad Request", "malformed request\n")
        }
        let path = words[1].prefix { $0 != "?" }
        guard words[0] == "GET" || words[0] == "HEAD" else {
            peerProblem("method", "metrics: \(Self.quoted(String(words[0]))) from \(peer) (405)")
            return Self.plain(405, "Method Not Allowed", "only GET\n")
        }
        var response = respond(Request(method: words[0], path: path))
        if words[0] == "HEAD" { response.body = [] }
        return response
    }

    fileprivate func refusedRequest(from peer: String, _ why: String) {
        peerProblem(why, "metrics: a request from \(peer) \(why): closed")
    }

    /// A line about a peer that misbehaved: the first of its kind at once, then at most one
    /// every `LogThrottle.interval` saying how many were left out, so a flood of bad requests
    /// does not flood the log too.
    private func peerProblem(_ kind: String, _ line: String) {
        guard let skipped = throttle.admit(kind, now: port.currentTime) else { return }
        logger.warning("\(line)\(skipped > 0 ? " (\(skipped) more like it since the last such line)" : "")")
    }

    static func plain(_ status: Int, _ reason: String, _ body: String) -> Response {
        Response(status: status, reason: reason, body: Array(body.utf8))
    }

    /// At most 80 characters of what a peer sent, for a log line.
    private static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(80).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "?" }.joined()
        return "'\(shown)\(text.unicodeScalars.count > 80 ? "…" : "")'"
    }

    fileprivate var serverPort: ServerPort { port }

    private static func fill(_ storage: inout sockaddr_storage, _ address: ListenAddress) -> socklen_t {
        withUnsafeMutablePointer(to: &storage) { pointer in
            if address.isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    v6.pointee.sin6_family = sa_family_t(AF_INET6)
                    v6.pointee.sin6_port = address.port.bigEndian
                    inet_pton(AF_INET6, address.host, &v6.pointee.sin6_addr)
                    return socklen_t(MemoryLayout<sockaddr_in6>.size)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                v4.pointee.sin_family = sa_family_t(AF_INET)
                v4.pointee.sin_port = address.port.bigEndian
                inet_pton(AF_INET, address.host, &v4.pointee.sin_addr)
                return socklen_t(MemoryLayout<sockaddr_in>.size)
            }
        }
    }

    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var storage = storage
        let v6 = storage.ss_family == sa_family_t(AF_INET6)
        return withUnsafePointer(to: &storage) { pointer in
            if v6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let v6 = storage.ss_family == sa_family_t(AF_INET6)
        return withUnsafePointer(to: &storage) { pointer in
            if v6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return "[\(String(cString: text))]:\(UInt16(bigEndian: v6.pointee.sin6_port))"
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var address = v4.pointee.sin_addr
                inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                return "\(String(cString: text)):\(UInt16(bigEndian: v4.pointee.sin_port))"
            }
        }
    }
}

/// One scraper's connection: its request read as it comes, then the reply written as the
/// peer takes it, then closed.
private final class Connection {
    private var fd: Int32
    let peer: String
    /// Its place in the order connections came.
    let number: Int
    private unowned let endpoint: MetricsEndpoint
    private var received: [UInt8] = []
    private var reply: [UInt8] = []
    private var sent = 0
    private var reading: EventSource?
    private var writing: EventSource?
    private var timeout: EventSource?

    init(fd: Int32, peer: String, number: Int, endpoint: MetricsEndpoint) {
        self.fd = fd
        self.peer = peer
        self.number = number
        self.endpoint = endpoint
    }

    /// Its request has not all come yet.
    var isReading: Bool { reply.isEmpty }

    func start() {
        reading = endpoint.serverPort.watch(fileDescriptor: fd, onReadable: { [unowned self] in read() })
        timeout = endpoint.serverPort.makeTimer { [unowned self] in
            endpoint.refusedRequest(from: peer, "took more than \(MetricsEndpoint.timeout / 1000) s")
            finish()
        }
        timeout?.arm(milliseconds: MetricsEndpoint.timeout)
    }

    private func read() {
        var chunk = [UInt8](repeating: 0, count: 2048)
        while reply.isEmpty {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { finish() }
                return
            }
            // The peer closed before a whole request came.
            if count == 0 { return finish() }
            received += chunk[0..<count]
            if let end = Self.endOfHead(received) {
                return answer(endpoint.answer(received[..<end], from: peer))
            }
            if received.count > MetricsEndpoint.requestLimit {
                endpoint.refusedRequest(from: peer, "was longer than \(MetricsEndpoint.requestLimit) bytes")
                return answer(MetricsEndpoint.plain(431, "Request Header Fields Too Large", "request too long\n"))
            }
        }
    }

    /// Where the request's head ends (its blank line), if it came.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                let next = index + 1
                if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
                if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") { return next + 2 }
            }
            index += 1
        }
        return nil
    }

    private func answer(_ response: MetricsEndpoint.Response) {
        reading = nil
        received = []
        let head = "HTTP/1.1 \(response.status) \(response.reason)\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        reply = Array(head.utf8) + response.body
        write()
        if fd >= 0, sent < reply.count {
            writing = endpoint.serverPort.watchWritable(fileDescriptor: fd) { [unowned self] in write() }
        }
    }

    private func write() {
        while sent < reply.count {
            let count = reply.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { finish() }
                return
            }
            sent += count
        }
        finish()
    }

    private func finish() {
        close()
        endpoint.closed(self)
    }

    func close() {
        reading = nil
        writing = nil
        timeout = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

/// At most one log line of each kind per interval: the first at once, the next once the
/// interval has passed, with the count of those left out between.
struct LogThrottle {
    private var kinds: [String: (last: Instant, skipped: Int)] = [:]

    static let interval = Duration.seconds(10)

    /// How many lines of `kind` were left out since the last one logged, when one may be
    /// logged now; nil when this one is left out too.
    mutating func admit(_ kind: String, now: Instant) -> Int? {
        // The clock is monotonic: a line in the same microsecond as the last is within it.
        if let entry = kinds[kind], now - entry.last < Self.interval {
            kinds[kind]?.skipped += 1
            return nil
        }
        let skipped = kinds[kind]?.skipped ?? 0
        kinds[kind] = (now, 0)
        return skipped
    }
}
