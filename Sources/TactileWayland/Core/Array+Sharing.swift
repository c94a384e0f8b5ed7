extension Array {
    /// Appends `other`, taking its storage when this array is empty. Frame callbacks and
    /// presentation feedback pass from a surface to an output to a frame in flight once a
    /// frame; handed on this way, most frames allocate nothing for them.
    mutating func appendSharing(_ other: [Element]) {
        if isEmpty { self = other } else { append(contentsOf: other) }
    }
}
