import Responder

/// What one buffer of a backend's swap chain has missed: the output pixels that changed
/// since it was last drawn.
///
/// A backend shows frames from two or three buffers in turn (the DRM backend's dumb buffers,
/// the nested backend's wl_shm buffers), and a frame's damage is only what changed since the
/// frame before. So each buffer keeps one of these: a frame drawn into another buffer adds
/// its damage here (`miss`), and the buffer drawn next redraws that and its own frame's
/// damage (`catchUp`) before it is shown.
///
/// Kept in few rectangles: past `maximumRects`, their bounding box (a little more copying,
/// never unbounded bookkeeping).
public struct DamageHistory: Sendable, Equatable {
    /// The buffer's size: damage outside it is dropped.
    public let size: Size
    /// Output pixels the buffer does not show as they are now.
    public private(set) var missed: Region

    /// How many rectangles `missed` keeps before it becomes their bounding box.
    public static let maximumRects = 16

    /// A new buffer's history: it has missed everything.
    public init(size: Size) {
        self.size = size
        missed = Region(Rect(size: size))
    }

    /// Adds a frame's `damage` (output pixels), drawn into another buffer, to what this one missed.
    public mutating func miss(_ damage: [Rect]) {
        for rect in damage { missed.add(rect.intersection(Rect(size: size))) }
        if missed.rectCount > Self.maximumRects { missed = Region(missed.extents) }
    }

    /// The rectangles to draw into this buffer to show a frame with `damage`: the frame's
    /// damage and whatever the buffer missed before it. Once they are drawn the buffer is up
    /// to date, so they are forgotten.
    public mutating func catchUp(with damage: [Rect]) -> [Rect] {
        miss(damage)
        defer { missed = .empty }
        return missed.rects
    }
}
