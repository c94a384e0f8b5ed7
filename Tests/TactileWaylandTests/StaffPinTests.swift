@testable import TactileWayland
import Testing

/// The staff PIN as the configuration keeps it: salted (two hashes of one PIN differ, so two
/// kiosks do not give it away), checked only against the PIN it was made from, and refused
/// when it is no PIN.
struct StaffPinTests {
    @Test func aHashMatchesItsPINAndNoOther() throws {
        let hash = try #require(StaffPin.hash("4711"))
        #expect(hash.hasPrefix("$y$"), "yescrypt: \(hash)")
        #expect(!hash.contains("4711"))
        #expect(StaffPin.matches("4711", hash: hash))
        for wrong in ["4712", "47110", "0471", "", "4711 ", "abcd"] { #expect(!StaffPin.matches(wrong, hash: hash), "\(wrong)") }
        #expect(StaffPin.isHash(hash))
    }

    @Test func eachHashHasItsOwnSalt() throws {
        #expect(try #require(StaffPin.hash("123456")) != (try #require(StaffPin.hash("123456"))))
    }

    @Test func onlyFourToTwelveDigitsAreAPIN() {
        #expect(StaffPin.isPIN("0000") && StaffPin.isPIN("123456789012"))
        for text in ["123", "1234567890123", "12a4", "１２３４", "-1234", ""] { #expect(!StaffPin.isPIN(text), "\(text)") }
        #expect(StaffPin.hash("12") == nil)
    }

    @Test func whatIsNoHashIsRefused() {
        for text in ["1234", "", "$", "$y$", "*", "$6$"] { #expect(!StaffPin.isHash(text), "\(text)") }
        #expect(!StaffPin.matches("1234", hash: "garbage"))
        #expect(!StaffPin.matches("1234", hash: "*"))
    }
}
