/// What a screen says of itself in its EDID (the connector's "EDID" property): the maker's
/// three-letter PNP id, the model's name and the serial number, for wl_output's make and
/// model and for configuration entries that follow one screen whatever connector it is on. Read with
/// bounds checks only: a blob from a broken monitor or KVM switch gives nil, not a crash.
struct EDID: Equatable {
    let make: String
    let model: String
    /// Empty when the screen gives none.
    let serial: String

    /// nil unless `bytes` starts with the EDID header and holds the 128-byte base block.
    init?(_ bytes: [UInt8]) {
        let header: [UInt8] = [0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        guard bytes.count >= 128, Array(bytes[0..<8]) == header else { return nil }
        // Bytes 8-9, big-endian: three letters of five bits each, 1 meaning "A".
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        let letters = [id >> 10 & 0x1f, id >> 5 & 0x1f, id & 0x1f]
        guard letters.allSatisfy({ (1...26).contains($0) }) else { return nil }
        make = String(letters.map { Character(Unicode.Scalar(UInt8($0) + 0x40)) })
        // The monitor-name descriptor (tag 0xFC) if there is one, else the product code
        // (bytes 10-11, little-endian).
        let descriptors = stride(from: 54, through: 108, by: 18).map { Array(bytes[$0..<($0 + 18)]) }
        func text(tagged tag: UInt8) -> String? {
            descriptors.first { $0[0] == 0 && $0[1] == 0 && $0[3] == tag }.map { descriptor in
                String(decoding: descriptor[5...].prefix { $0 != 0x0a && $0 != 0 }.filter { (0x20...0x7e).contains($0) }, as: UTF8.self)
                    .trimmingSpaces()
            }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let product = UInt16(bytes[11]) << 8 | UInt16(bytes[10])
        model = text(tagged: 0xfc) ?? "0x" + String(product, radix: 16, uppercase: true)
        // The serial-number descriptor (tag 0xFF), else the 32-bit number of bytes 12-15
        // (little-endian) when it is not zero.
        let number = (12..<16).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[$1]) }
        serial = text(tagged: 0xff) ?? (number == 0 ? "" : "0x" + String(number, radix: 16, uppercase: true))
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
