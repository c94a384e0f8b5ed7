import CCrypt
import Glibc

/// The staff PIN as the configuration keeps it: a salted hash in crypt(3)'s format, as
/// /etc/shadow keeps passwords (libxcrypt's yescrypt), so a configuration file that leaks
/// does not give the PIN away, and two kiosks with one PIN do not show it.
public enum StaffPin {
    /// How long a PIN is: 4 to 12 digits.
    public static let lengths: ClosedRange<Int> = 4...12

    /// Whether `text` is a PIN: digits only, 4 to 12 of them.
    public static func isPIN(_ text: String) -> Bool {
        lengths.contains(text.utf8.count) && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A new salted hash of `pin`, with a fresh random salt; nil when libcrypt cannot make one.
    public static func hash(_ pin: String) -> String? {
        guard isPIN(pin), let setting = crypt_gensalt_ra(method, cost, nil, 0) else { return nil }
        defer { free(setting) }
        return crypted(pin, setting: String(cString: setting))
    }

    /// Whether `pin` is the one `hash` was made from. Compared in constant time.
    public static func matches(_ pin: String, hash: String) -> Bool {
        guard isPIN(pin), let made = crypted(pin, setting: hash) else { return false }
        let a = Array(made.utf8), b = Array(hash.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether `hash` is a whole hash this libcrypt can check a PIN against: a setting alone
    /// (`$y$j75$salt`) would check, but no PIN would ever match it.
    public static func isHash(_ hash: String) -> Bool {
        guard hash.hasPrefix("$"), crypt_checksalt(hash) == CRYPT_SALT_OK, let made = crypted("0000", setting: hash),
              let cut = hash.lastIndex(of: "$"), let madeCut = made.lastIndex(of: "$") else { return false }
        return made.count == hash.count && made[..<madeCut] == hash[..<cut] && hash.index(after: cut) < hash.endIndex
    }

    /// yescrypt, at a cost that checks a PIN in a few milliseconds: a PIN is short whatever
    /// the hash, the lockout is what stops guessing on the glass, and the check runs on the
    /// compositor's loop.
    private static let method = "$y$"
    private static let cost: UInt = 1

    private static func crypted(_ pin: String, setting: String) -> String? {
        var data: UnsafeMutableRawPointer?
        var size: Int32 = 0
        defer { free(data) }
        guard let out = crypt_ra(pin, setting, &data, &size), out.pointee != CChar(UInt8(ascii: "*")) else { return nil }
        return String(cString: out)
    }
}
