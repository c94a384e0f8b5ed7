import Foundation
import Glibc

/// A VNC viewer as small as RFB 3.8 allows (no authentication, raw pixels): what a helper
/// far away sees of a kiosk through wayvnc, and the clicks it sends back.
final class RFBViewer {
    let width: Int
    let height: Int
    private let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `port` on loopback, retrying while the server starts.
    init(port: UInt16, seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var connected: Int32 = -1
        repeat {
            connected = Self.connect(port)
            if connected < 0 { Thread.sleep(forTimeInterval: 0.1) }
        } while connected < 0 && Date() < deadline
        guard connected >= 0 else { throw Failure(description: "no VNC server on port \(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connected, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let version = try Self.read(connected, 12)
        guard String(decoding: version, as: UTF8.self).hasPrefix("RFB 003.") else { throw Failure(description: "not RFB: \(version)") }
        try Self.write(connected, Array("RFB 003.008\n".utf8))
        let types = try Self.read(connected, Int(try Self.read(connected, 1)[0]))
        guard types.contains(1) else { throw Failure(description: "the server wants authentication: security types \(types)") }
        try Self.write(connected, [1])
        guard try Self.read(connected, 4) == [0, 0, 0, 0] else { throw Failure(description: "security handshake failed") }
        try Self.write(connected, [1])  // shared
        let initial = try Self.read(connected, 24)
        fd = connected
        width = Int(initial[0]) << 8 | Int(initial[1])
        height = Int(initial[2]) << 8 | Int(initial[3])
        let nameLength = Int(initial[20]) << 24 | Int(initial[21]) << 16 | Int(initial[22]) << 8 | Int(initial[23])
        _ = try Self.read(connected, nameLength)
        // 32 bits a pixel, little-endian, true colour: red at bit 16, green 8, blue 0.
        try Self.write(connected, [0, 0, 0, 0, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0])
        try Self.write(connected, [2, 0, 0, 1, 0, 0, 0, 0])  // raw encoding only
    }

    deinit { close(fd) }

    /// The whole screen, as 0xRRGGBB rows.
    func capture() throws -> Screenshot {
        try write([3, 0, 0, 0, 0, 0] + Self.u16(width) + Self.u16(height))
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var covered = 0
        while covered < width * height {
            let type = try read(1)[0]
            switch type {
            case 0:
                let header = try read(3)
                let count = Int(header[1]) << 8 | Int(header[2])
                for _ in 0..<count {
                    let rect = try read(12)
                    let (x, y) = (Int(rect[0]) << 8 | Int(rect[1]), Int(rect[2]) << 8 | Int(rect[3]))
                    let (w, h) = (Int(rect[4]) << 8 | Int(rect[5]), Int(rect[6]) << 8 | Int(rect[7]))
                    guard rect[8...11] == [0, 0, 0, 0] else { throw Failure(description: "encoding \(Array(rect[8...11])) is not raw") }
                    let raw = try read(w * h * 4)
                    for row in 0..<h {
                        for column in 0..<w where x + column < width && y + row < height {
                            let from = (row * w + column) * 4, to = ((y + row) * width + x + column) * 3
                            (pixels[to], pixels[to + 1], pixels[to + 2]) = (raw[from + 2], raw[from + 1], raw[from])
                        }
                    }
                    covered += w * h
                }
            case 2: continue  // bell
            case 3:
                let header = try read(7)
                _ = try read(Int(header[3]) << 24 | Int(header[4]) << 16 | Int(header[5]) << 8 | Int(header[6]))
            default: throw Failure(description: "server message \(type)")
            }
        }
        return try Screenshot(ppm: Data(Array("P6\n\(width) \(height)\n255\n".utf8) + pixels))
    }

    /// Moves the pointer to (x, y) with `buttons` held (bit 0: the left one).
    func pointer(_ x: Int, _ y: Int, buttons: UInt8 = 0) throws {
        try write([5, buttons] + Self.u16(x) + Self.u16(y))
    }

    private static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }

    private static func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        sin.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if result != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    private func read(_ count: Int) throws -> [UInt8] { try Self.read(fd, count) }

    private func write(_ bytes: [UInt8]) throws { try Self.write(fd, bytes) }

    private static func read(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { throw Failure(description: "the VNC server closed or went quiet (\(got) of \(count) bytes)") }
            got += n
        }
        return bytes
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "the VNC server closed") }
            sent += n
        }
    }
}

/// A TCP port on loopback nothing listens on now, for a server a test starts.
func freeTCPPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var sin = sockaddr_in()
    sin.sin_family = sa_family_t(AF_INET)
    sin.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &sin) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw RFBViewer.Failure(description: "no free port: \(String(cString: strerror(errno)))") }
    return UInt16(bigEndian: sin.sin_port)
}
