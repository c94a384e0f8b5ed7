import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the clock of wp_presentation and input timestamps.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// A Unix socket of `type` (SOCK_STREAM, SOCK_DGRAM) bound to `path`; nil when it cannot be.
func boundUnixSocket(at path: String, type: Int32) -> Int32? {
    let fd = socket(AF_UNIX, type, 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (k, byte) in path.utf8.enumerated() { raw[k] = byte } }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
        close(fd)
        return nil
    }
    return fd
}
