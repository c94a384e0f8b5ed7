import Foundation
import Responder

/// A screen's pixels: an output as `grim -t ppm` captured it from a running server, or the
/// QEMU guest's emulated screen from its screendump. The pixel oracle of the composition tests.
struct Screenshot: Equatable {
    let width: Int
    let height: Int
    private let pixels: [UInt8]

    /// Runs grim against `socket` (the whole layout, or `region` as grim's "X,Y WxH"), with
    /// the cursor when `cursor` is set.
    init(socket: String, region: String? = nil, cursor: Bool = false) throws {
        let path = NSTemporaryDirectory() + "tactile-grim-\(UUID().uuidString.prefix(8)).ppm"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["-t", "ppm"] + (cursor ? ["-c"] : []) + (region.map { ["-g", $0] } ?? []) + [path]
        let result = try runProcess("/usr/bin/grim", arguments, environment: ["WAYLAND_DISPLAY": socket])
        guard result.status == 0 else { throw ClientError.protocolError("grim failed (\(result.status)): \(result.output)") }
        try self.init(ppm: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Runs grim against `socket` to keep a PNG at `path` (for people to look at; tests read
    /// PPMs): the screenshots in docs/ come from here.
    static func savePNG(socket: String, cursor: Bool = false, at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try runProcess("/usr/bin/grim", ["-t", "png"] + (cursor ? ["-c"] : []) + [path], environment: ["WAYLAND_DISPLAY": socket])
        guard result.status == 0 else { throw ClientError.protocolError("grim failed (\(result.status)): \(result.output)") }
    }

    /// A binary PPM (P6, maxval 255).
    init(ppm data: Data) throws {
        var fields: [String] = []
        var index = data.startIndex
        while fields.count < 4, index < data.endIndex {
            while index < data.endIndex, data[index] == 0x20 || data[index] == 0x0a { index += 1 }
            let start = index
            while index < data.endIndex, data[index] != 0x20, data[index] != 0x0a { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), data.endIndex - index >= w * h * 3 else {
            throw ClientError.protocolError("not a P6 PPM: \(fields)")
        }
        (width, height, pixels) = (w, h, Array(data[index..<(index + w * h * 3)]))
    }

    /// 0xRRGGBB at (x, y).
    func colour(at x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 3
        return UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
    }

    /// How many pixels are `colour`.
    func count(of colour: UInt32) -> Int {
        (0..<height).reduce(0) { sum, y in sum + (0..<width).count { self.colour(at: $0, y) == colour } }
    }

    /// How many pixels differ from `other`'s (of the same size).
    func differences(from other: Screenshot) -> Int {
        stride(from: 0, to: min(pixels.count, other.pixels.count), by: 3).count { pixels[$0..<$0 + 3] != other.pixels[$0..<$0 + 3] }
    }

    /// The colours seen, sampling every `step` pixels each way: `[0]` on a dark panel.
    func colours(every step: Int = 7) -> Set<UInt32> {
        Set(stride(from: 0, to: height, by: step).flatMap { y in stride(from: 0, to: width, by: step).map { colour(at: $0, y) } })
    }
}
