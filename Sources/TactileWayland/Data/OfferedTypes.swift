import CWaylandServer

/// A selection source's MIME types as its client offered them: each once, at most `maximum`.
/// Every client the selection goes to hears each type, so a source must not grow without end.
struct OfferedTypes {
    /// Browsers offer a dozen; 256 is far past any real source.
    static let maximum = 256
    private(set) var list: [String] = []

    /// Adds `mime` (a repeat changes nothing); false when the source already has `maximum`.
    mutating func add(_ mime: String) -> Bool {
        guard !list.contains(mime) else { return true }
        guard list.count < Self.maximum else { return false }
        list.append(mime)
        return true
    }

    func contains(_ mime: String) -> Bool { list.contains(mime) }
}

/// Adds a type a source's client offered, or cuts the client off past `OfferedTypes.maximum`.
func offer(_ mime: UnsafePointer<CChar>?, to types: inout OfferedTypes, of resource: OpaquePointer?) {
    guard let mime, let resource else { return }
    guard types.add(String(cString: mime)) else {
        return tactile_post_implementation_error(wl_resource_get_client(resource), "a selection source offered more than \(OfferedTypes.maximum) MIME types")
    }
}
