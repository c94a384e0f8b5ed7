/// A selection source's MIME types as its client offered them: each once, at most `maximum`.
/// Every client the selection goes to hears each type, so a source must not grow without end.
struct OfferedTypes {
    /// Browsers offer a dozen; 256 is far past any real source.
    static let maximum = 256
    private(set) var list: [String] = []

    /// Adds `mime` (a repeat changes nothing), or cuts `source`'s client off past `maximum`.
    mutating func offer(_ mime: UnsafePointer<CChar>?, by source: ResourceObject) {
        guard let mime else { return }
        let type = String(cString: mime)
        guard !list.contains(type) else { return }
        guard list.count < Self.maximum else {
            return source.postLimitError("a selection source offered more than \(Self.maximum) MIME types")
        }
        list.append(type)
    }
}
