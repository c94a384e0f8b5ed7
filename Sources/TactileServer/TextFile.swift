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

extension TextFile {
    /// Replaces `path`'s contents with `text` all at once: written beside it and renamed
    /// over it, so a kiosk losing power mid-write keeps the old file, not half a new one. The
    /// file keeps its permissions.
    public static func replace(_ path: String, with text: String) throws(Failure) {
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        let temporary = path + ".tactile-new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw Failure(description: "cannot write \(temporary): \(reason)")
            }
            bytes = bytes.dropFirst(written)
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot replace \(path): \(reason)")
        }
    }
}

extension String {
    /// Without the spaces and tabs around it, nor a line's carriage return: a line of a
    /// configuration file, or of standard input, as typed.
    package var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
