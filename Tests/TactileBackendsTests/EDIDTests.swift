@testable import TactileBackends
import Testing

/// A screen's EDID as the DRM backend reads it for wl_output's make and model, and what a
/// broken one gives: nothing, never a trap.
@Suite struct EDIDTests {
    /// A 128-byte base block: header, PNP id `id`, product code, and the name descriptor if given.
    static func block(id: (Character, Character, Character), product: UInt16, name: String?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128)
        bytes[0..<8] = [0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        let letters = [id.0, id.1, id.2].map { UInt16($0.asciiValue! - 0x40) }
        let packed = letters[0] << 10 | letters[1] << 5 | letters[2]
        (bytes[8], bytes[9]) = (UInt8(packed >> 8), UInt8(packed & 0xff))
        (bytes[10], bytes[11]) = (UInt8(product & 0xff), UInt8(product >> 8))
        if let name {
            // The second descriptor: 0, 0, 0, tag 0xFC, 0, then 13 bytes of name ended by a newline.
            let text = Array(name.utf8.prefix(13)) + (name.utf8.count < 13 ? [0x0a] : [])
            bytes[72..<77] = [0, 0, 0, 0xfc, 0]
            for (i, byte) in text.enumerated() { bytes[77 + i] = byte }
        }
        return bytes
    }

    @Test func theMakerAndTheMonitorsName() {
        // QEMU's EDID: Red Hat's PNP id, "QEMU Monitor".
        let edid = EDID(Self.block(id: ("R", "H", "T"), product: 0x1234, name: "QEMU Monitor"))
        #expect(edid?.make == "RHT" && edid?.model == "QEMU Monitor", "\(String(describing: edid))")
    }

    @Test func theSerialFromItsDescriptorElseItsNumber() {
        var bytes = Self.block(id: ("D", "E", "L"), product: 0xA0B1, name: "U2415")
        #expect(EDID(bytes)?.serial == "", "none given")
        bytes[12..<16] = [0x78, 0x56, 0x34, 0x12]
        #expect(EDID(bytes)?.serial == "0x12345678")
        bytes[90..<108] = [0, 0, 0, 0xff, 0] + Array("7MT0185K\n    ".utf8)
        #expect(EDID(bytes)?.serial == "7MT0185K", "the descriptor wins")
    }

    @Test func withoutANameTheProductCode() {
        let edid = EDID(Self.block(id: ("D", "E", "L"), product: 0xA0B1, name: nil))
        #expect(edid?.make == "DEL" && edid?.model == "0xA0B1", "\(String(describing: edid))")
    }

    @Test func brokenBlobsGiveNothing() {
        let good = Self.block(id: ("R", "H", "T"), product: 1, name: "X")
        #expect(EDID([]) == nil)
        #expect(EDID(Array(good.prefix(127))) == nil, "truncated")
        var badHeader = good
        badHeader[3] = 0
        #expect(EDID(badHeader) == nil)
        var badLetters = good
        (badLetters[8], badLetters[9]) = (0xff, 0xff)
        #expect(EDID(badLetters) == nil, "letters out of A...Z")
        var noisyName = good
        noisyName[77..<90] = [0x01, 0xff, 0x20, 0x41, 0x0a, 0x42, 0, 0, 0, 0, 0, 0, 0]
        #expect(EDID(noisyName)?.model == "A", "control bytes dropped, ends at the newline")
    }
}
