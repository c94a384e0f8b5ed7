import Responder

extension YAMLReader.Table {
    /// The touch accommodations from an `accessibility:` table (`accommodationKeys`); 0 (or
    /// `off`) turns one off.
    package func accommodations() throws -> AccommodationSettings {
        try only(Self.accommodationKeys)
        func optionalMilliseconds(_ key: String, _ range: ClosedRange<Int>) throws -> Duration? {
            let value = try scalar(key, "0 (off) or a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)") { node -> Int? in
                if node.bool == false || node.string == "off" { return 0 }
                return node.int.flatMap { $0 == 0 || range.contains($0) ? $0 : nil }
            }
            return value.flatMap { $0 == 0 ? nil : .milliseconds($0) }
        }
        let hold = try optionalMilliseconds("hold-duration", AccommodationSettings.holdDurations)
        let repeatWindow = try optionalMilliseconds("ignore-repeat", AccommodationSettings.ignoreRepeats)
        let tap = try choice("tap-assistance", TapAssistance.self) ?? .off
        let tuning = [("hold-duration-slop", "hold-duration", hold != nil), ("ignore-repeat-radius", "ignore-repeat", repeatWindow != nil),
                      ("tap-assistance-delay", "tap-assistance", tap != .off)]
        for (key, tuned, on) in tuning where !on {
            if let entry = entries[key] { throw reader.error(entry.key, keyPath(key), "\(key) tunes \(tuned), which is off here") }
        }
        return AccommodationSettings(
            holdDuration: hold, holdSlop: try number("hold-duration-slop", in: 1...500) ?? AccommodationSettings.defaultHoldSlop,
            ignoreRepeat: repeatWindow, ignoreRepeatRadius: try number("ignore-repeat-radius", in: 1...2000) ?? AccommodationSettings.defaultIgnoreRepeatRadius,
            tapAssistance: tap,
            tapAssistanceDelay: try milliseconds("tap-assistance-delay", in: AccommodationSettings.tapAssistanceDelays) ?? AccommodationSettings.defaultTapAssistanceDelay)
    }

    /// The keys of `accessibility:` (docs/configuration.md lists each).
    package static let accommodationKeys = ["hold-duration", "hold-duration-slop", "ignore-repeat", "ignore-repeat-radius", "tap-assistance", "tap-assistance-delay"]
}

extension YAMLReader {
    /// The touch accommodations of a Tactile configuration's `accessibility:` (none when it
    /// has none): libtactile's loader; the server reads the same table.
    public static func accommodations(fromYAML text: String, file: String) throws -> AccommodationSettings {
        guard let root = try ConfigNode.compose(yaml: text, file: file) else { return AccommodationSettings() }
        let reader = YAMLReader(file: file)
        guard let table = try reader.table(root, "").table("accessibility") else { return AccommodationSettings() }
        return try table.accommodations()
    }
}
