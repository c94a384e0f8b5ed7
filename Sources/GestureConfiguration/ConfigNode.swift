/// A composed YAML document (aliases already resolved), as the configuration readers walk it.
/// The server and libtactile both compose with libyaml (`compose(yaml:file:)`), which spares
/// them Foundation. The server read its file with Yams before; these accessors answer as
/// Yams' did, so that a file means what it meant then and is refused in the same words.
public struct ConfigNode: Sendable {
    public enum Content: Sendable {
        case scalar(Scalar)
        case mapping([(key: ConfigNode, value: ConfigNode)])
        case sequence([ConfigNode])
    }

    public struct Scalar: Sendable {
        public var text: String
        /// Unquoted and not a block scalar: only such text is read as a number.
        public var isPlain: Bool

        public init(text: String, isPlain: Bool) {
            self.text = text
            self.isPlain = isPlain
        }
    }

    /// Where a node starts, both counted from 1 as Yams reports them (columns in Unicode
    /// scalars).
    public struct Mark: Sendable, Equatable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    public var content: Content
    /// The tag the text gave (`!!str`, or the string tag every quoted scalar takes); nil
    /// where the value's type follows from its text.
    public var tag: String?
    public var mark: Mark?

    public init(_ content: Content, tag: String? = nil, mark: Mark? = nil) {
        self.content = content
        self.tag = tag
        self.mark = mark
    }

    public static let stringTag = "tag:yaml.org,2002:str"

    public var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    public var mapping: [(key: ConfigNode, value: ConfigNode)]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    public var sequence: [ConfigNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// Any scalar's text; and, as Yams reads YAML 1.1's value key, a mapping's `=` entry.
    public var string: String? {
        switch content {
        case .scalar(let scalar): return scalar.text
        case .mapping(let pairs): return pairs.first { $0.key.tag == nil && $0.key.scalar?.text == "=" }?.value.string
        case .sequence: return nil
        }
    }

    /// YAML 1.1's words as Yams takes them: true, yes, on, false, no, off in any case, unless
    /// quoted or tagged a string.
    public var bool: Bool? {
        guard let scalar, tag != Self.stringTag else { return nil }
        switch scalar.text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// Decimal, 0x, 0b, 0o or 0 (octal) prefixed, or base 60 (`1:30`), with `_` between
    /// digits, as Yams reads them.
    public var int: Int? {
        guard let scalar, scalar.isPlain else { return nil }
        let signed = Self.withoutUnderscores(scalar.text)
        if signed == "0" { return 0 }
        let negative = signed.hasPrefix("-")
        let digits = signed.dropFirst(negative || signed.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return Self.sexagesimalInt(signed) }
        return Int(signed)
    }

    /// Any number Swift's `Double` parses, `.inf` and `.nan` spelt YAML's ways, or base 60,
    /// as Yams reads them (so whole numbers too).
    public var float: Double? {
        guard let scalar, scalar.isPlain else { return nil }
        switch scalar.text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = Self.withoutUnderscores(scalar.text)
            return text.contains(":") ? Self.sexagesimalDouble(text) : Double(text)
        }
    }

    private static func withoutUnderscores(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "_" }))
    }

    /// Base 60 places, the last first: Yams sums them in that order, so a fraction rounds
    /// the same.
    private static func places(_ text: String) -> (negative: Bool, places: ReversedCollection<[Substring]>) {
        let negative = text.hasPrefix("-")
        return (negative, text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0).split(separator: ":", omittingEmptySubsequences: false).reversed())
    }

    /// A whole number too large for Int is not one (where Yams would trap).
    private static func sexagesimalInt(_ text: String) -> Int? {
        let (negative, places) = places(text)
        var value = 0
        var base = 1
        for (k, place) in places.enumerated() {
            guard let digit = Int(place, radix: 10) else { return nil }
            if k > 0 {
                guard case (let next, false) = base.multipliedReportingOverflow(by: 60) else { return nil }
                base = next
            }
            guard case (let term, false) = digit.multipliedReportingOverflow(by: base), case (let sum, false) = value.addingReportingOverflow(term) else { return nil }
            value = sum
        }
        return negative ? (value == .min ? nil : -value) : value
    }

    private static func sexagesimalDouble(_ text: String) -> Double? {
        let (negative, places) = places(text)
        var value = 0.0
        var base = 1.0
        for place in places {
            guard let digit = Double(place) else { return nil }
            value += digit * base
            base *= 60
        }
        return negative ? -value : value
    }
}
