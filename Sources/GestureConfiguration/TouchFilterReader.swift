import Responder

extension YAMLReader.Table {
    /// A touchscreen's filters from this entry's keys (`PanelFilterSettings.keys`); 0 (or
    /// `smoothing: off`) turns one off that an earlier entry turned on.
    package func touchFilters() throws -> PanelFilterSettings {
        let smoothing = try scalar("smoothing", "one-euro or off") { node in node.string == "one-euro" ? true : node.bool == false ? false : nil }
        for key in ["min-cutoff", "beta"] where smoothing != true {
            if let entry = entries[key] { throw reader.error(entry.key, keyPath(key), "\(key) tunes smoothing: one-euro, which this entry does not set") }
        }
        let zones = try entries["dead-zones"].map { entry in
            guard let list = entry.node.sequence else { throw reader.error(entry.node, keyPath("dead-zones"), "expected a list of [x, y, width, height]") }
            return try list.enumerated().map { j, item in try reader.deadZone(item, "\(keyPath("dead-zones"))[\(j)]") }
        }
        let stuckAfter = try scalar("stuck-after", "a whole number of seconds from 0 (off) to 3600") { node in
            node.int.flatMap { (0...3600).contains($0) ? Duration.seconds($0) : nil }
        }
        return PanelFilterSettings(
            debounce: try milliseconds("debounce", in: 0...500), debounceRadius: try number("debounce-radius", in: 1...1000),
            jitter: try number("jitter", in: 0...200), smoothing: smoothing, minimumCutoff: try number("min-cutoff", in: 0.01...60),
            beta: try number("beta", in: 0...10), deadZones: zones, minimumContact: try milliseconds("min-contact", in: 0...500), stuckAfter: stuckAfter)
    }
}

extension YAMLReader {
    /// `[x, y, width, height]` in the output's layout pixels: whole, on the screen's side of
    /// its top-left corner (a zone that misses its screen otherwise is logged when the
    /// touchscreen comes, since only then is its screen known).
    fileprivate func deadZone(_ node: ConfigNode, _ path: String) throws -> PanelFilterSettings.DeadZone {
        let r = node.sequence?.compactMap { $0.scalar != nil ? $0.float : nil } ?? []
        guard node.sequence?.count == 4, r.count == 4, r.allSatisfy({ $0.isFinite && $0 == $0.rounded() && abs($0) <= 1_000_000 }) else {
            throw error(node, path, "expected [x, y, width, height], four whole numbers of pixels")
        }
        guard r[0] >= 0, r[1] >= 0 else { throw error(node, path, "the dead zone starts left of or above its screen (x and y are from the screen's top-left corner, at least 0)") }
        guard r[2] >= 1, r[3] >= 1 else { throw error(node, path, "the dead zone's width and height must be at least 1") }
        let mark = node.mark.map { "\(file):\($0.line):\($0.column)" } ?? file
        return PanelFilterSettings.DeadZone(rect: Rect(x: Int(r[0]), y: Int(r[1]), width: Int(r[2]), height: Int(r[3])), origin: "\(mark) \(path)")
    }
}

extension YAMLReader {
    /// The filters a Tactile configuration's `devices:` entries give the device named `name`:
    /// those of every entry whose `match` its name contains (every entry without one), merged
    /// in order, as the server merges them. Every entry is checked, matching or not.
    /// libtactile's loader; the server reads the same entries with libinput's settings.
    public static func touchFilters(fromYAML text: String, file: String, device name: String) throws -> PanelFilterSettings {
        var merged = PanelFilterSettings()
        guard let root = try ConfigNode.compose(yaml: text, file: file) else { return merged }
        let reader = YAMLReader(file: file)
        guard let list = try reader.table(root, "").entries["devices"] else { return merged }
        guard let items = list.node.sequence else { throw reader.error(list.node, "devices", "expected a list of device settings") }
        for (k, item) in items.enumerated() {
            let entry = try reader.table(item, "devices[\(k)]")
            try entry.only(PanelFilterSettings.deviceEntryKeys)
            let filters = try entry.touchFilters()
            if let match = try entry.string("match"), !name.contains(match) { continue }
            merged = merged.merged(with: filters)
        }
        return merged
    }
}
