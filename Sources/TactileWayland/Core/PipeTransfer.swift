import Glibc

/// Bytes written into a pipe without blocking the server's loop: what the pipe takes now,
/// the rest as the reader drains it. The fd is closed when all is written or the reader
/// went; `done` hears of either.
final class PipeWriter {
    private let data: [UInt8]
    private var offset = 0
    private let fd: Int32
    private var source: EventSource?
    private let done: (PipeWriter) -> Void
    private(set) var isDone = false

    /// Takes over `fd`.
    init(data: [UInt8], fd: Int32, loop: OpaquePointer, done: @escaping (PipeWriter) -> Void) {
        self.data = data
        self.fd = fd
        self.done = done
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if writeSome() { source = EventSource.writable(fd, on: loop, loopOwner: nil) { [unowned self] in _ = writeSome() } }
    }

    deinit {
        source = nil
        if !isDone { close(fd) }
    }

    /// Whether there is more to write once the pipe drains.
    private func writeSome() -> Bool {
        while offset < data.count {
            let written = data[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EAGAIN {
                return true
            } else {
                break
            }
        }
        source = nil
        isDone = true
        close(fd)
        done(self)
        return false
    }
}

/// A pipe read to its end without blocking the server's loop, up to `limit` bytes: `done`
/// hears the bytes, or nil past the limit or on an error. The fd is closed then.
final class PipeReader {
    private let fd: Int32
    private let limit: Int
    private var data: [UInt8] = []
    private var source: EventSource?
    private let done: (PipeReader, [UInt8]?) -> Void

    /// Takes over `fd`, which must be non-blocking.
    init(fd: Int32, limit: Int, loop: OpaquePointer, done: @escaping (PipeReader, [UInt8]?) -> Void) {
        self.fd = fd
        self.limit = limit
        self.done = done
        source = EventSource.readable(fd, on: loop, loopOwner: nil) { [unowned self] in readSome() }
    }

    deinit {
        if source != nil {
            source = nil
            close(fd)
        }
    }

    private func readSome() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0, data.count + count <= limit {
                data += chunk.prefix(count)
            } else if count < 0, errno == EAGAIN {
                return
            } else {
                source = nil
                close(fd)
                return done(self, count == 0 ? data : nil)
            }
        }
    }
}
