import Glibc

/// Writes to a file descriptor at once, past the C library's buffer: what a script or a
/// person must read before the server's log starts (the socket's name, the demo's words).
enum Unbuffered {
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
