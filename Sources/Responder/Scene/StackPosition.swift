/// Where a node goes among its siblings.
///
/// A parent's children are split by the parent's own content: those below it and those
/// above it, as wl_subsurface.place_below/place_above can put a subsurface under its parent.
public enum StackPosition: Sendable {
    /// Topmost of all children (a new subsurface, a raised window).
    case top
    /// Bottommost of all children.
    case bottom
    /// Just above a sibling, or just above the parent's own content when given the parent.
    case above(NodeID)
    /// Just below a sibling, or just below the parent's own content when given the parent.
    case below(NodeID)
}
