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

    /// What libyaml refused, in the words the server used when it read its file with Yams.
    public static func notYAML(file: String, line: Int?, column: Int?, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, column: column, key: nil, problem: "not valid YAML: \(problem)")
    }

    /// `keys` as Yams names them, sorted; the mark is the first of them.
    public static func keysGivenTwice(file: String, line: Int?, column: Int?, _ keys: [String]) -> ConfigurationError {
        ConfigurationError(file: file, line: line, column: column, key: nil, problem: "a key is given twice in this mapping: \(keys.joined(separator: ", "))")
    }
}
