import Responder

/// The edges of its output a layer surface is anchored to (zwlr_layer_surface_v1.anchor).
struct LayerAnchor: OptionSet, Hashable {
    let rawValue: UInt32
    static let top = LayerAnchor(rawValue: 1)
    static let bottom = LayerAnchor(rawValue: 2)
    static let left = LayerAnchor(rawValue: 4)
    static let right = LayerAnchor(rawValue: 8)
    static let all: LayerAnchor = [.top, .bottom, .left, .right]

    /// Exactly one edge, as an exclusive edge must be.
    var isOneEdge: Bool { [.top, .bottom, .left, .right].contains(self) }
}

/// Distances from the anchored edges, as the client set them (any int32).
struct LayerMargins: Hashable {
    var top = 0, right = 0, bottom = 0, left = 0
}

/// What a layer surface asks for: its committed zwlr_layer_surface_v1 state, minus the layer.
struct LayerRequest: Hashable {
    /// 0 in a dimension: as wide (or tall) as the output between its margins, which needs
    /// anchors on both sides of that dimension.
    var width = 0, height = 0
    var anchor: LayerAnchor = []
    /// > 0: that many pixels along the anchored edge are kept from windows and from other
    /// layer surfaces; 0: stay clear of others' zones; -1: ignore them (a wallpaper).
    var exclusiveZone = 0
    var margins = LayerMargins()
    /// The edge an exclusive zone applies to when the anchor alone does not say (v5).
    var exclusiveEdge: LayerAnchor = []

    /// Whether both sides of each zero dimension are anchored, as a zero size requires.
    var hasValidSize: Bool {
        (width > 0 || anchor.isSuperset(of: [.left, .right])) && (height > 0 || anchor.isSuperset(of: [.top, .bottom]))
    }

    /// The one edge the exclusive zone takes space from: the anchored edge when the surface
    /// is anchored to one edge alone or to one edge and both its neighbours (a panel along
    /// it), else the exclusive edge if it is anchored there. Nil: the zone takes nothing.
    var exclusiveSide: LayerAnchor? {
        switch anchor {
        case .top, [.top, .left, .right]: return .top
        case .bottom, [.bottom, .left, .right]: return .bottom
        case .left, [.left, .top, .bottom]: return .left
        case .right, [.right, .top, .bottom]: return .right
        default:
            return exclusiveEdge.isOneEdge && anchor.contains(exclusiveEdge) ? exclusiveEdge : nil
        }
    }
}

/// Lays out one output's layer surfaces as wlr-layer-shell describes: each surface is placed
/// within the area left by the exclusive zones before it, and the area left at the end is
/// where windows go (a kiosk app shrinks above an on-screen keyboard).
///
/// Surfaces with an exclusive zone go first, in the order given (topmost layer first), each
/// taking its zone from what is left; then the others, in what is left (or the whole output
/// for a zone of -1). All arithmetic is on Int from int32 values, so it cannot overflow.
enum LayerArrangement {
    /// Each request's rectangle (nil where margins leave it no room: the surface is closed),
    /// and the area left for windows.
    static func arrange(_ requests: [LayerRequest], in output: Rect) -> (rects: [Rect?], usable: Rect) {
        var usable = output
        var rects = [Rect?](repeating: nil, count: requests.count)
        for (index, request) in requests.enumerated() where request.exclusiveZone > 0 {
            rects[index] = place(request, in: usable)
            if let side = request.exclusiveSide { usable = shrink(usable, side: side, by: request) }
        }
        for (index, request) in requests.enumerated() where request.exclusiveZone <= 0 {
            rects[index] = place(request, in: request.exclusiveZone < 0 ? output : usable)
        }
        return (rects, usable)
    }

    /// A dimension anchored on both sides and left 0 spans the bounds between its margins;
    /// otherwise the surface keeps its size and sits against its anchored side (plus margin),
    /// or in the middle when anchored to both or neither.
    static func place(_ request: LayerRequest, in bounds: Rect) -> Rect? {
        let (x, width) = span(
            bounds.x, bounds.width, request.width,
            near: request.anchor.contains(.left), far: request.anchor.contains(.right),
            request.margins.left, request.margins.right)
        let (y, height) = span(
            bounds.y, bounds.height, request.height,
            near: request.anchor.contains(.top), far: request.anchor.contains(.bottom),
            request.margins.top, request.margins.bottom)
        guard width > 0, height > 0 else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    private static func span(_ start: Int, _ length: Int, _ size: Int, near: Bool, far: Bool, _ nearMargin: Int, _ farMargin: Int) -> (Int, Int) {
        switch (near, far) {
        case (true, true) where size == 0: (start + nearMargin, length - nearMargin - farMargin)
        case (true, false): (start + nearMargin, size)
        case (false, true): (start + length - size - farMargin, size)
        default: (start + (length - size) / 2, size)
        }
    }

    /// Takes the zone, and the margin on its edge, from that side of the area.
    private static func shrink(_ area: Rect, side: LayerAnchor, by request: LayerRequest) -> Rect {
        let m = request.margins
        var r = area
        switch side {
        case .top:
            let taken = min(r.height, request.exclusiveZone + max(m.top, 0))
            r.y += taken
            r.height -= taken
        case .bottom: r.height -= min(r.height, request.exclusiveZone + max(m.bottom, 0))
        case .left:
            let taken = min(r.width, request.exclusiveZone + max(m.left, 0))
            r.x += taken
            r.width -= taken
        default: r.width -= min(r.width, request.exclusiveZone + max(m.right, 0))
        }
        return r
    }
}
