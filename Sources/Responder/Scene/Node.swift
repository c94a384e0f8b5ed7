/// What a compositor hook decides about hit-testing a node's subtree.
public enum HitTestOverride: Sendable {
    /// Hit-test as usual.
    case walk
    /// This node is hit wherever the point is (a modal dialog, a lock screen).
    case capture
    /// Neither this node nor its subtree is hit; the walk goes on below it.
    case ignore
}

/// The attributes of one node of the scene: a client surface or a compositor-owned node
/// (the output root, a window's frame, an overlay).
///
/// Everything here is the COMMITTED state: the protocol layer applies pending and cached
/// subsurface state before it writes it, so the hit test never sees a half-done commit.
public struct Node {
    /// The client owning the surface, or nil for a compositor node.
    public var client: ClientID?
    /// Marks the node keyboard focus lands on when any surface inside it is touched or clicked.
    public var isToplevel: Bool
    /// Relative to the parent's origin.
    public var position: Position
    public var size: Size
    /// In node-local coordinates; a point must be inside both this and `size` to hit the node.
    /// Never limits the node's children.
    public var inputRegion: Region
    /// A client surface is mapped once a buffer is committed; an unmapped node hides its subtree.
    public var isMapped: Bool
    /// Hidden by the compositor; hides the subtree.
    public var isHidden: Bool
    /// Off for a pass-through overlay or a disabled window; the subtree takes no input.
    public var acceptsInput: Bool
    /// The compositor's opacity; below 0.01 the subtree takes no input (a window fading out).
    public var alpha: Double
    /// For compositor nodes only: points outside `size` reach neither the node nor its subtree.
    /// Client subsurfaces are never clipped to their parent, as Wayland wants.
    public var clipsToBounds: Bool
    /// Asked before anything else about the node's subtree, with the point in node-local coordinates.
    public var hitTestOverride: ((Point) -> HitTestOverride)?
    /// Replaces "inside size and input region" for this node only (a larger touch target).
    public var pointInsideOverride: ((Point) -> Bool)?
    /// Where, per screen edge, the client asked for system edge gestures to leave touches to
    /// it (node-local). The router honours it up to `RoutingPolicy.edgeDeferralLimit`.
    public var edgeGestureDeferral: [Edge: Region] = [:]

    public init(
        client: ClientID?, isToplevel: Bool = false, position: Position = .zero, size: Size = .zero,
        inputRegion: Region, isMapped: Bool, isHidden: Bool = false, acceptsInput: Bool = true,
        alpha: Double = 1, clipsToBounds: Bool = false
    ) {
        self.client = client
        self.isToplevel = isToplevel
        self.position = position
        self.size = size
        self.inputRegion = inputRegion
        self.isMapped = isMapped
        self.isHidden = isHidden
        self.acceptsInput = acceptsInput
        self.alpha = alpha
        self.clipsToBounds = clipsToBounds
    }

    /// A client surface as wl_surface starts: unmapped, infinite input region.
    public static func surface(
        of client: ClientID, isToplevel: Bool = false, position: Position = .zero, size: Size = .zero, isMapped: Bool = true
    ) -> Node {
        Node(client: client, isToplevel: isToplevel, position: position, size: size, inputRegion: .infinite, isMapped: isMapped)
    }

    /// A compositor node: mapped, and hit only where it is given an input region (none by default),
    /// so a plain container lets touches through to what is under it.
    public static func compositor(position: Position = .zero, size: Size = .zero, inputRegion: Region = .empty) -> Node {
        Node(client: nil, position: position, size: size, inputRegion: inputRegion, isMapped: true)
    }

    /// Why the subtree is skipped, or nil when it takes input.
    var skipReason: HitVerdict? {
        if !isMapped { return .unmapped }
        if isHidden { return .hidden }
        if !acceptsInput { return .inputDisabled }
        if !(alpha >= 0.01) { return .transparent }
        return nil
    }
}
