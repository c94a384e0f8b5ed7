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

    /// Zoom by touch from `accessibility.zoom`: `true` (the defaults), a table of `scale` and
    /// `max`, or `false` / `off`; nil when off or not there.
    package func zoom() throws -> ZoomSettings? {
        guard let entry = entries["zoom"] else { return nil }
        if entry.node.bool == false || entry.node.string == "off" { return nil }
        if entry.node.bool == true { return ZoomSettings() }
        let table = try reader.table(entry.node, keyPath("zoom"))
        try table.only(["scale", "max"])
        let scale = try table.number("scale", in: ZoomSettings.scales) ?? ZoomSettings.defaultScale
        let maximum = try table.number("max", in: ZoomSettings.scales) ?? max(scale, ZoomSettings.defaultMaximum)
        guard maximum >= scale else {
            throw reader.error(table.entries["max"]!.node, table.keyPath("max"), "max (\(maximum)) is below scale (\(scale)): a double tap and drag could not reach it")
        }
        return ZoomSettings(scale: scale, maximum: maximum)
    }

    /// The keys of `accessibility:` (docs/configuration.md lists each).
    package static let accommodationKeys = ["hold-duration", "hold-duration-slop", "ignore-repeat", "ignore-repeat-radius", "tap-assistance", "tap-assistance-delay", "zoom"]
}

extension YAMLReader {
    /// The touch accommodations and the zoom of a Tactile configuration's `accessibility:`
    /// (none when it has none): libtactile's loader; the server reads the same table.
    public static func accommodations(fromYAML text: String, file: String) throws -> (AccommodationSettings, zoom: ZoomSettings?) {
        guard let root = try ConfigNode.compose(yaml: text, file: file) else { return (AccommodationSettings(), nil) }
        let reader = YAMLReader(file: file)
        guard let table = try reader.table(root, "").table("accessibility") else { return (AccommodationSettings(), nil) }
        return (try table.accommodations(), try table.zoom())
    }
}
