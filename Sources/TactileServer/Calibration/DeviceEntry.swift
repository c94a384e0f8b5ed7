/// One setting of one device as the configuration file keeps it (`devices[].calibration`
/// from `tactile calibrate`, `devices[].output` from `--map`), printed for the installer and
/// written into an existing file with the rest of the file left as it was: its comments,
/// its order, its other settings.
public struct DeviceEntry: Sendable, Equatable {
    /// The device's name, as `devices[].match` matches it.
    public var device: String
    /// The setting's key and its value as YAML text.
    public var key: String
    public var value: String

    public init(device: String, key: String, value: String) {
        self.device = device
        self.key = key
        self.value = value
    }

    /// libinput's calibration matrix.
    public static func calibration(device: String, matrix: [Float]) -> DeviceEntry {
        DeviceEntry(device: device, key: "calibration", value: matrixText(matrix))
    }

    /// The output the device maps to, by name.
    public static func output(device: String, output: String) -> DeviceEntry {
        DeviceEntry(device: device, key: "output", value: quoted(output))
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `[a, b, c, d, e, f]`, each to six decimals: libinput works in floats.
    public static func matrixText(_ matrix: [Float]) -> String {
        "[" + matrix.map { decimal(Double($0)) }.joined(separator: ", ") + "]"
    }

    /// The `devices:` section that holds this setting, on its own.
    public var section: String {
        "devices:\n  - match: \(Self.quoted(device))\n    \(key): \(value)\n"
    }

    /// Several entries' section: one item per device, its settings together.
    public static func section(_ entries: [DeviceEntry]) -> String {
        var devices: [String] = []
        for entry in entries where !devices.contains(entry.device) { devices.append(entry.device) }
        return "devices:\n" + devices.map { device in
            "  - match: \(quoted(device))\n" + entries.filter { $0.device == device }.map { "    \($0.key): \($0.value)\n" }.joined()
        }.joined()
    }

    /// `text` (a configuration file) with this setting in it: the key of the entry that
    /// matches the device by exactly its name replaced, or added to that entry, or a new
    /// entry at the end of `devices:`, or a new `devices:` section at the end. The result is
    /// read back (`check`: does the file give the device this setting?) before anyone writes it.
    public func written(into text: String, check: (String) throws -> Bool) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let setting = "\(key): \(value)"
        if let start = lines.firstIndex(where: { Self.key(of: $0) == "devices" && Self.indent(of: $0) == 0 }) {
            guard Self.value(of: lines[start]).isEmpty else {
                throw Failure(description: "its devices: is written on one line; add this entry to it by hand:\n\(section)")
            }
            // The section: every line after it that is indented, blank or a comment.
            var end = start + 1
            while end < lines.count, lines[end].trimmingSpaces.isEmpty || Self.indent(of: lines[end]) > 0 || lines[end].hasPrefix("#") { end += 1 }
            while end > start + 1, lines[end - 1].trimmingSpaces.isEmpty { end -= 1 }
            let items = (start + 1..<end).filter { lines[$0].trimmingSpaces.hasPrefix("- ") }
            let itemIndent = items.first.map { Self.indent(of: lines[$0]) } ?? 2
            for (k, item) in items.enumerated() {
                let itemEnd = k + 1 < items.count ? items[k + 1] : end
                let keyIndent = itemIndent + 2
                let keys = (item..<itemEnd).map { line -> (Int, String?) in
                    let body = line == item ? String(lines[line].trimmingSpaces.dropFirst(2)) : lines[line].trimmingSpaces
                    return (line, Self.key(of: body))
                }
                guard let match = keys.first(where: { $0.1 == "match" }) else { continue }
                let matchLine = lines[match.0].trimmingSpaces
                let body = match.0 == item ? String(matchLine.dropFirst(2)) : matchLine
                guard Self.unquoted(Self.value(of: body)) == device else { continue }
                if let existing = keys.first(where: { $0.1 == key }) {
                    let line = lines[existing.0]
                    let prefix = line.prefix { $0 == " " || $0 == "-" }
                    lines[existing.0] = prefix + setting
                } else {
                    lines.insert(String(repeating: " ", count: keyIndent) + setting, at: match.0 + 1)
                }
                return try checked(lines, check)
            }
            lines.insert(contentsOf: [String(repeating: " ", count: itemIndent) + "- match: \(Self.quoted(device))",
                                      String(repeating: " ", count: itemIndent + 2) + setting], at: end)
            return try checked(lines, check)
        }
        if let last = lines.last, !last.trimmingSpaces.isEmpty { lines.append("") }
        lines += section.split(separator: "\n").map(String.init)
        return try checked(lines, check)
    }

    private func checked(_ lines: [String], _ check: (String) throws -> Bool) throws -> String {
        let text = lines.joined(separator: "\n") + "\n"
        guard try check(text) else {
            throw Failure(description: "the file would not give \(device) this \(key) (a later entry overrides it?); add it by hand:\n\(section)")
        }
        return text
    }

    private static func indent(of line: String) -> Int { line.prefix { $0 == " " }.count }

    /// The key of a `key: value` line (after its `- `, if an item's first), or nil.
    private static func key(of line: String) -> String? {
        var body = Substring(line.trimmingSpaces)
        if body.hasPrefix("- ") { body = body.dropFirst(2) }
        guard let colon = body.firstIndex(of: ":") else { return nil }
        let key = body[..<colon]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        return String(key)
    }

    /// What follows the line's key and its colon, a comment (` #`) left out.
    private static func value(of line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        var rest = line[line.index(after: colon)...]
        var previous: Character = " "
        if let hash = rest.indices.first(where: { index in
            defer { previous = rest[index] }
            return rest[index] == "#" && previous == " "
        }) { rest = rest[..<hash] }
        return String(rest).trimmingSpaces
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" else { return value }
        let inner = String(value.dropFirst().dropLast())
        return first == "\"" ? inner.replacingAll("\\\"", with: "\"").replacingAll("\\\\", with: "\\") : inner.replacingAll("''", with: "'")
    }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    private static func decimal(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int(abs(scaled))
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
