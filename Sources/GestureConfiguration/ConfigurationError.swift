import Yams

/// A mistake in the configuration file, located.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    /// The dotted path of the key, e.g. `gestures[2].distance`.
    public let key: String?
    public let problem: String

    public var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): " + (key.map { "\($0): " } ?? "") + problem
    }

    public init(file: String, line: Int?, column: Int?, key: String?, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.problem = problem
    }

    public init(file: String, yamlError: YamlError) {
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            self.init(file: file, line: mark.line, column: mark.column, key: nil, problem: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let keys, let context):
            self.init(file: file, line: context.mark.line, column: context.mark.column, key: nil,
                      problem: "a key is given twice in this mapping: \(keys.joined(separator: ", "))")
        default:
            self.init(file: file, line: nil, column: nil, key: nil, problem: "not valid YAML: \(yamlError)")
        }
    }
}
