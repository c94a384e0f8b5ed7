internal import CYAML

extension ConfigNode {
    /// Composes the text's one document with libyaml, for the server's configuration file
    /// and libtactile alike (Yams would bring Foundation into both). It follows Yams'
    /// composer event for event, over the same libyaml, so a mistake is found at the place,
    /// and named in the words, it was when the server read its file with Yams. nil for a
    /// stream without a document.
    package static func compose(yaml text: String, file: String) throws -> ConfigNode? {
        guard !text.isEmpty else { return nil }
        var contiguous = text
        return try contiguous.withUTF8 { bytes in try Composer(bytes, text: text, file: file).document() }
    }
}

private final class Composer {
    private var parser = yaml_parser_t()
    /// Later anchors of a name shadow earlier ones, as in Yams.
    private var anchors: [String: ConfigNode] = [:]
    private let text: String
    private let file: String

    private struct Event {
        enum Kind {
            case alias(String)
            case scalar(ConfigNode.Scalar, anchor: String?, tag: String?)
            case sequenceStart(anchor: String?, tag: String?)
            case mappingStart(anchor: String?, tag: String?)
            case collectionEnd
            case streamEnd
            case other
        }

        var kind: Kind
        var mark: ConfigNode.Mark

        var isCollectionEnd: Bool {
            if case .collectionEnd = kind { return true }
            return false
        }
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, text: String, file: String) {
        self.text = text
        self.file = file
        yaml_parser_initialize(&parser)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
    }

    deinit { yaml_parser_delete(&parser) }

    /// As Yams' `compose`: one document at most.
    func document() throws -> ConfigNode? {
        _ = try next()  // the stream's start
        if case .streamEnd = try next().kind { return nil }
        let root = try node(next())
        _ = try next()  // the document's end
        let after = try next()
        if case .streamEnd = after.kind { return root }
        throw ConfigurationError.notYAML(file: file, line: after.mark.line, column: after.mark.column, "but found another document")
    }

    private func node(_ event: Event) throws -> ConfigNode {
        let made: ConfigNode
        let anchor: String?
        let mark = event.mark
        switch event.kind {
        case .alias(let name):
            guard let node = anchors[name] else { throw ConfigurationError.notYAML(file: file, line: mark.line, column: mark.column, "found undefined alias") }
            return node
        case .scalar(let scalar, let name, let tag):
            (made, anchor) = (ConfigNode(.scalar(scalar), tag: tag, mark: mark), name)
        case .sequenceStart(let name, let tag):
            var items: [ConfigNode] = []
            var event = try next()
            while !event.isCollectionEnd {
                items.append(try node(event))
                event = try next()
            }
            (made, anchor) = (ConfigNode(.sequence(items), tag: tag, mark: mark), name)
        case .mappingStart(let name, let tag):
            var pairs: [(key: ConfigNode, value: ConfigNode)] = []
            var event = try next()
            while !event.isCollectionEnd {
                let key = try node(event)
                pairs.append((key, try node(next())))
                event = try next()
            }
            try refuseRepeatedKeys(pairs.map(\.key))
            (made, anchor) = (ConfigNode(.mapping(pairs), tag: tag, mark: mark), name)
        case .collectionEnd, .streamEnd, .other:
            preconditionFailure("libyaml gives a node's event where a node is due")
        }
        if let anchor { anchors[anchor] = made }
        return made
    }

    /// Yams' check, with its words: every key given more than once, sorted, at the first
    /// place the first of them is given.
    private func refuseRepeatedKeys(_ keys: [ConfigNode]) throws {
        var groups: [(key: ConfigNode, count: Int)] = []
        for key in keys {
            if let k = groups.firstIndex(where: { $0.key.isSameKey(as: key) }) { groups[k].count += 1 } else { groups.append((key, 1)) }
        }
        let repeated = groups.filter { $0.count > 1 }.map(\.key).sorted { a, b in
            guard let a = a.scalar, let b = b.scalar else { return false }
            return a.text < b.text
        }
        guard let first = repeated.first else { return }
        throw ConfigurationError.keysGivenTwice(file: file, line: first.mark?.line ?? 0, column: first.mark?.column ?? 0,
                                                repeated.map { $0.string ?? "<uncovertable>" })
    }

    private func next() throws -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { throw failure() }
        defer { yaml_event_delete(&event) }
        let mark = ConfigNode.Mark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        let kind: Event.Kind
        switch event.type {
        case YAML_ALIAS_EVENT:
            kind = .alias(String(cString: event.data.alias.anchor))
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
            // Quoted and block scalars are strings whatever their text, as Yams tags them.
            kind = .scalar(ConfigNode.Scalar(text: text, isPlain: s.style == YAML_PLAIN_SCALAR_STYLE), anchor: Self.string(s.anchor),
                           tag: s.quoted_implicit == 1 ? ConfigNode.stringTag : Self.string(s.tag))
        case YAML_SEQUENCE_START_EVENT:
            let s = event.data.sequence_start
            kind = .sequenceStart(anchor: Self.string(s.anchor), tag: s.implicit != 0 ? nil : Self.string(s.tag))
        case YAML_MAPPING_START_EVENT:
            let m = event.data.mapping_start
            kind = .mappingStart(anchor: Self.string(m.anchor), tag: m.implicit != 0 ? nil : Self.string(m.tag))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: kind = .collectionEnd
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        default: kind = .other
        }
        return Event(kind: kind, mark: mark)
    }

    private static func string(_ bytes: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        bytes.map { String(cString: $0) }
    }

    /// libyaml's complaint, as the server words Yams' error for it.
    private func failure() -> ConfigurationError {
        let problem = parser.problem.map { String(cString: $0) } ?? ""
        let mark = parser.problem_mark
        switch parser.error {
        case YAML_READER_ERROR:
            return .notYAML(file: file, line: nil, column: nil, readerProblem(problem))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            return .notYAML(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1, problem)
        default:
            return .notYAML(file: file, line: nil, column: nil, "Memory error")
        }
    }

    /// Yams' description of a reader error (a control character, say): the line and column
    /// it finds from the byte offset, lines ending as Foundation ends them, the column in
    /// UTF-16, and the line with a caret under the place.
    private func readerProblem(_ problem: String) -> String {
        let offset = text.utf8.index(text.utf8.startIndex, offsetBy: Int(parser.problem_offset), limitedBy: text.utf8.endIndex)
        guard let place = offset?.samePosition(in: text) else { return "\(problem) at offset: nil, value: \(parser.problem_value)" }
        let breaks: Set<Character> = ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"]
        func lineEnd(from start: String.Index) -> String.Index {
            text[start...].firstIndex(where: breaks.contains).map(text.index(after:)) ?? text.endIndex
        }
        var (line, start) = (0, text.startIndex)
        var end = lineEnd(from: start)
        while end <= place, end < text.endIndex {
            (line, start) = (line + 1, end)
            end = lineEnd(from: start)
        }
        let column = text.utf16.distance(from: start, to: place)
        var contents = String(text[start..<end])
        let newlines: ClosedRange<UInt32> = 0x0A...0x0D
        if let last = contents.unicodeScalars.last?.value, newlines.contains(last) || [0x85, 0x2028, 0x2029].contains(last) {} else { contents += "\n" }
        return "\(line + 1):\(column + 1): error: reader: \(problem):\n" + contents + String(repeating: " ", count: column) + "^"
    }
}

extension ConfigNode {
    /// Yams' equality of keys: the same text (or items) and the same tag, a plain scalar's
    /// tag being the one its text resolves to.
    fileprivate func isSameKey(as other: ConfigNode) -> Bool {
        switch (content, other.content) {
        case (.scalar(let a), .scalar(let b)):
            guard a.text == b.text else { return false }
            return (tag ?? Resolution.tag(of: a.text)) == (other.tag ?? Resolution.tag(of: b.text))
        case (.mapping(let a), .mapping(let b)):
            return (tag ?? "tag:yaml.org,2002:map") == (other.tag ?? "tag:yaml.org,2002:map") && a.count == b.count
                && zip(a, b).allSatisfy { $0.key.isSameKey(as: $1.key) && $0.value.isSameKey(as: $1.value) }
        case (.sequence(let a), .sequence(let b)):
            return (tag ?? "tag:yaml.org,2002:seq") == (other.tag ?? "tag:yaml.org,2002:seq") && a.count == b.count
                && zip(a, b).allSatisfy { $0.isSameKey(as: $1) }
        default:
            return false
        }
    }
}

/// Yams' default resolver, its expressions matched by hand (no Foundation): the tag a plain
/// scalar's text gives it, which decides whether `1` and `"1"` are the same key.
private enum Resolution {
    indirect enum Pattern: Sendable {
        case oneOf(String)
        case word(String)
        case all([Pattern])
        case any([Pattern])
        case optional(Pattern)
        case repeated(Pattern, atLeast: Int)
    }

    static func tag(of text: String) -> String {
        let bytes = Array(text.utf8)
        for (tag, pattern) in rules where matches(pattern, bytes, 0, { $0 == bytes.count }) { return "tag:yaml.org,2002:\(tag)" }
        return ConfigNode.stringTag
    }

    private static func matches(_ pattern: Pattern, _ s: [UInt8], _ i: Int, _ rest: (Int) -> Bool) -> Bool {
        switch pattern {
        case .oneOf(let set): return i < s.count && set.utf8.contains(s[i]) && rest(i + 1)
        case .word(let word): return s[i...].starts(with: word.utf8) && rest(i + word.utf8.count)
        case .all(let parts):
            guard let first = parts.first else { return rest(i) }
            return matches(first, s, i) { matches(.all(Array(parts.dropFirst())), s, $0, rest) }
        case .any(let choices): return choices.contains { matches($0, s, i, rest) }
        case .optional(let part): return matches(part, s, i, rest) || rest(i)
        case .repeated(let part, let least):
            if least > 0 { return matches(part, s, i) { matches(.repeated(part, atLeast: least - 1), s, $0, rest) } }
            return matches(part, s, i) { $0 > i && matches(.repeated(part, atLeast: 0), s, $0, rest) } || rest(i)
        }
    }

    private static let digit = Pattern.oneOf("0123456789")
    private static let digits_ = Pattern.repeated(.oneOf("0123456789_"), atLeast: 0)
    private static let sign = Pattern.optional(.oneOf("-+"))
    private static let sexagesimal = Pattern.repeated(.all([.word(":"), .optional(.oneOf("012345")), digit]), atLeast: 1)
    private static func words(_ list: String) -> Pattern { .any(list.split(separator: " ").map { .word(String($0)) }) }

    private static let rules: [(String, Pattern)] = [
        ("bool", words("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF")),
        ("int", .any([
            .all([sign, .word("0b"), .repeated(.oneOf("01_"), atLeast: 1)]),
            .all([sign, .word("0"), .optional(.word("o")), .repeated(.oneOf("01234567_"), atLeast: 1)]),
            .all([sign, .any([.word("0"), .all([.oneOf("123456789"), digits_])])]),
            .all([sign, .word("0x"), .repeated(.oneOf("0123456789abcdefABCDEF_"), atLeast: 1)]),
            .all([sign, .oneOf("123456789"), digits_, sexagesimal]),
        ])),
        ("float", .any([
            .all([sign, digit, digits_, .optional(.all([.word("."), digits_])), .optional(.all([.oneOf("eE"), sign, .repeated(digit, atLeast: 1)]))]),
            .all([.word("."), .repeated(.oneOf("0123456789_"), atLeast: 1), .optional(.all([.oneOf("eE"), .oneOf("-+"), .repeated(digit, atLeast: 1)]))]),
            .all([sign, digit, digits_, sexagesimal, .word("."), digits_]),
            .all([sign, .word("."), words("inf Inf INF")]),
            .all([.word("."), words("nan NaN NAN")]),
        ])),
        ("merge", .word("<<")),
        ("null", .any([words("~ null Null NULL"), .word("")])),
        ("timestamp", .any([
            .all([digit, digit, digit, digit, .word("-"), digit, digit, .word("-"), digit, digit]),
            .all([
                digit, digit, digit, digit, .word("-"), digit, .optional(digit), .word("-"), digit, .optional(digit),
                .any([.oneOf("Tt"), .repeated(.oneOf(" \t"), atLeast: 1)]),
                digit, .optional(digit), .word(":"), digit, digit, .word(":"), digit, digit, .optional(.all([.word("."), .repeated(digit, atLeast: 0)])),
                .optional(.all([.repeated(.oneOf(" \t"), atLeast: 0), .any([.word("Z"), .all([.oneOf("-+"), digit, .optional(digit), .optional(.all([.word(":"), digit, digit]))])])])),
            ]),
        ])),
        ("value", .word("=")),
    ]
}
