import Responder

/// What changed in a surface's pictures, commit by commit. Every image a surface shows in
/// turn (a new buffer each commit, or the same one committed again) joins its history, so a
/// renderer holding a copy of the last one (a texture) updates only the pixels that changed,
/// as wl_surface's damage says, instead of the whole buffer at every commit.
///
/// The damage of a new buffer is what differs from the surface's previous picture: a client
/// that swaps buffers damages what it redrew, and the protocol makes the rest its promise.
public final class PixelHistory {
    /// One more each commit that changed the picture.
    public private(set) var version = 0
    /// The damage of the last commits (buffer pixels; nil: all of it), newest last.
    private var recent: [(version: Int, damage: RectList?)] = []

    /// How many commits back a renderer may catch up from; further, it uploads everything.
    public static let depth = 4

    public init() {}

    /// `image` is the surface's picture from now on, differing from the last one inside
    /// `damage` (buffer pixels; nil: everywhere).
    public func record(_ image: Image, damage: RectList?) {
        version += 1
        recent.append((version, damage))
        if recent.count > Self.depth { recent.removeFirst() }
        image.joined(self, at: version)
    }

    /// What changed after `version` (buffer pixels): nil when it is not known (too far back,
    /// or a commit that damaged everything).
    public func damage(since version: Int) -> [Rect]? {
        if version == self.version { return [] }
        guard version < self.version, let first = recent.first, first.version <= version + 1 else { return nil }
        var rects: [Rect] = []
        for entry in recent where entry.version > version {
            guard let damage = entry.damage else { return nil }
            rects += damage
        }
        return rects
    }
}
