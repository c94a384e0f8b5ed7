/// What the hit test decided at one node, as an explanation reports it.
public enum HitVerdict: Hashable, Sendable {
    /// No buffer committed: the node and its subtree are not there for input.
    case unmapped
    /// Hidden by the compositor, with its subtree.
    case hidden
    /// The compositor turned input off for the node and its subtree.
    case inputDisabled
    /// Alpha below 0.01, with its subtree.
    case transparent
    /// The hit-test hook answered `.ignore`.
    case ignoredByOverride
    /// Nothing hittable in the subtree is near the point (its cached bounds miss it).
    case pruned
    /// Outside a clipping compositor node.
    case clipped
    /// The node's own content is not at the point (outside its size or input region).
    case notInside
    /// The hit-test hook answered `.capture`.
    case captured
    /// The point is inside the node: it is the first responder.
    case hit
    /// The point is inside the node, but a node above it was hit first (explanations only;
    /// the winner's own ancestors, its responder chain, are not listed as covered).
    case covered
}
