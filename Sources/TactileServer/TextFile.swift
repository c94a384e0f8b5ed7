import Glibc

/// A text file read whole, with the system's reason when it cannot be: the configuration
/// file and `tactile inject`'s scripts. Read with the C library, not Foundation, which the
/// server binary does not carry (it is most of a kiosk's memory that no kiosk uses).
public enum TextFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `path`'s bytes as UTF-8 (invalid sequences replaced).
    public static func read(_ path: String) -> Result<String, Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(description: String(cString: strerror(errno)))) }
        defer { close(fd) }
        return read(fd: fd)
    }

    /// What `fd` gives until its end (standard input, a pipe).
    public static func read(fd: Int32) -> Result<String, Failure> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(description: String(cString: strerror(errno))))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }
}
