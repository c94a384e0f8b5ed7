import Glibc

/// An X display Tactile holds for the Xwayland it starts: its number, its lock file
/// (/tmp/.X<N>-lock, with Tactile's pid, as X servers write it) and the two sockets X clients
/// connect to (the abstract one and /tmp/.X11-unix/X<N>), made before Xwayland runs so that
/// the first X client can start it (`-listenfd`). Released when the value goes.
final class XDisplay {
    let number: Int
    /// Listening, close-on-exec; Xwayland inherits them.
    let sockets: [Int32]
    private let lockPath: String
    private let socketPath: String

    var name: String { ":\(number)" }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The first free display from 0 (32 tried): one whose lock file is ours to make, or
    /// names a process that is gone.
    init() throws(Failure) {
        // Shared by every user's X servers, as X makes it: world-writable and sticky. mkdir's
        // mode passes through the umask (1755 would keep other users' servers out: cage run
        // as nobody by scripts/peer-bench found it), so the mode is set again once made.
        if mkdir("/tmp/.X11-unix", 0o1777) == 0 { chmod("/tmp/.X11-unix", 0o1777) }
        for number in 0..<32 {
            let lock = "/tmp/.X\(number)-lock"
            guard Self.takeLock(lock) else { continue }
            let path = "/tmp/.X11-unix/X\(number)"
            guard let abstract = Self.listen(at: path, abstract: true) else {
                unlink(lock)
                continue
            }
            // A socket file left by a server that died.
            unlink(path)
            guard let file = Self.listen(at: path, abstract: false) else {
                close(abstract)
                unlink(lock)
                continue
            }
            self.number = number
            sockets = [abstract, file]
            lockPath = lock
            socketPath = path
            return
        }
        throw Failure(description: "no free X display among :0 to :31 (every /tmp/.X<N>-lock is held)")
    }

    deinit {
        for socket in sockets { close(socket) }
        unlink(socketPath)
        unlink(lockPath)
    }

    /// Makes the lock file, or takes over one whose process is gone.
    private static func takeLock(_ path: String) -> Bool {
        for _ in 0..<2 {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
            if fd >= 0 {
                // The pid right-aligned in 10 columns, as X servers write it ("%10d\n").
                let pid = "\(getpid())"
                let text = Array((String(repeating: " ", count: max(0, 10 - pid.count)) + pid + "\n").utf8)
                _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                return true
            }
            guard errno == EEXIST, let holder = lockHolder(path), kill(holder, 0) != 0, errno == ESRCH else { return false }
            unlink(path)
        }
        return false
    }

    private static func lockHolder(_ path: String) -> pid_t? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 11)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { pid_t($0) }
    }

    private static func listen(at path: String, abstract: Bool) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = (abstract ? [0] : []) + Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, byte) in bytes.enumerated() { raw[k] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, 1) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
