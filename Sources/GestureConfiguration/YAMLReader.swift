import Responder

/// Walks a YAML tree, checking each key and value, so every error carries the file, line,
/// column and key path it is about: the configuration file's reader and libtactile's
/// gesture loader read through it.
package struct YAMLReader {
    package let file: String

    package init(file: String) { self.file = file }

    /// A YAML mapping with its key path (the parser has already refused repeated keys).
    package struct Table {
        package let reader: YAMLReader
        package let path: String
        package let node: ConfigNode
        package let entries: [String: (key: ConfigNode, node: ConfigNode)]

        package func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        /// Refuses the first unknown key in the file's order (a dictionary's order would name
        /// a different one from run to run).
        package func only(_ allowed: [String]) throws {
            let unknown = entries.filter { !allowed.contains($0.key) }.min { a, b in
                (a.value.key.mark?.line ?? 0, a.value.key.mark?.column ?? 0) < (b.value.key.mark?.line ?? 0, b.value.key.mark?.column ?? 0)
            }
            if let (name, entry) = unknown {
                throw reader.error(entry.key, keyPath(name), "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
        }

        package func missing(_ key: String, _ what: String) -> ConfigurationError {
            reader.error(node, keyPath(key), "missing: \(what)")
        }

        package func table(_ key: String) throws -> Table? {
            guard let entry = entries[key] else { return nil }
            return try reader.table(entry.node, keyPath(key))
        }

        package func scalar<T>(_ key: String, _ expected: String, _ convert: (ConfigNode) -> T?) throws -> T? {
            guard let entry = entries[key] else { return nil }
            guard entry.node.scalar != nil, let value = convert(entry.node) else {
                throw reader.error(entry.node, keyPath(key), "expected \(expected), got \(reader.show(entry.node))")
            }
            return value
        }

        package func string(_ key: String) throws -> String? { try scalar(key, "a string") { $0.string } }

        package func bool(_ key: String) throws -> Bool? { try scalar(key, "true or false") { $0.bool } }

        package func number(_ key: String, atLeast minimum: Double) throws -> Double? {
            try scalar(key, "a number of at least \(minimum.formatted)") { node in node.float.flatMap { $0.isFinite && $0 >= minimum ? $0 : nil } }
        }

        package func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
            try scalar(key, "a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted)") { node in node.float.flatMap { range.contains($0) ? $0 : nil } }
        }

        package func numbers(_ key: String, count: Int) throws -> [Double]? {
            guard let entry = entries[key] else { return nil }
            guard let list = entry.node.sequence, list.count == count else { throw reader.error(entry.node, keyPath(key), "expected a list of \(count) numbers") }
            return try list.enumerated().map { j, item in
                guard item.scalar != nil, let value = item.float, value.isFinite else { throw reader.error(item, "\(keyPath(key))[\(j)]", "expected a number, got \(reader.show(item))") }
                return value
            }
        }

        package func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            try scalar(key, "a whole number from \(range.lowerBound) to \(range.upperBound)") { node in node.int.flatMap { range.contains($0) ? $0 : nil } }
        }

        package func milliseconds(_ key: String) throws -> Duration? {
            try scalar(key, "a whole number of milliseconds from 1 to 60000") { node in node.int.flatMap { (1...60000).contains($0) ? .milliseconds($0) : nil } }
        }

        /// Whole milliseconds in `range`; a range from 0 lets 0 turn something off.
        package func milliseconds(_ key: String, in range: ClosedRange<Int>) throws -> Duration? {
            try scalar(key, "a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)") { node in
                node.int.flatMap { range.contains($0) ? .milliseconds($0) : nil }
            }
        }

        package func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws -> T? where T.RawValue == String {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            return try scalar(key, "one of \(names)") { $0.string.flatMap(T.init(rawValue:)) }
        }

        /// `touch`, `pen`, or a list of those (not empty).
        package func inputTypes(_ key: String) throws -> InputTypes? {
            guard let entry = entries[key] else { return nil }
            let items = entry.node.sequence.map(Array.init) ?? [entry.node]
            var types: InputTypes = []
            for (j, item) in items.enumerated() {
                let place = entry.node.sequence == nil ? keyPath(key) : "\(keyPath(key))[\(j)]"
                switch item.string {
                case "touch"?: types.insert(.touch)
                case "pen"?: types.insert(.pen)
                default: throw reader.error(item, place, "expected touch or pen, got \(reader.show(item))")
                }
            }
            guard !types.isEmpty else { throw reader.error(entry.node, keyPath(key), "expected touch, pen or both, got an empty list") }
            return types
        }

        package func strings(_ key: String) throws -> [String] {
            guard let entry = entries[key] else { return [] }
            guard let list = entry.node.sequence else { throw reader.error(entry.node, keyPath(key), "expected a list of gesture names") }
            return try list.enumerated().map { j, item in
                guard item.scalar != nil, let name = item.string else { throw reader.error(item, "\(keyPath(key))[\(j)]", "expected a gesture name") }
                return name
            }
        }
    }

    package func table(_ node: ConfigNode, _ path: String) throws -> Table {
        guard let mapping = node.mapping else { throw error(node, path.isEmpty ? nil : path, "expected a mapping of keys to values, got \(show(node))") }
        var entries: [String: (key: ConfigNode, node: ConfigNode)] = [:]
        for (key, value) in mapping {
            guard let name = key.string else { throw error(key, path, "keys must be plain words") }
            entries[name] = (key, value)
        }
        return Table(reader: self, path: path, node: node, entries: entries)
    }

    package func error(_ node: ConfigNode, _ key: String?, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, problem: problem)
    }

    package func show(_ node: ConfigNode) -> String {
        if let scalar = node.scalar { return "'\(scalar.text)'" }
        return node.mapping != nil ? "a mapping" : "a list"
    }
}

extension Double {
    fileprivate var formatted: String { self == Double(Int(self)) ? String(Int(self)) : String(self) }
}
