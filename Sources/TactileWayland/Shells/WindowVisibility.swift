import Responder

/// Which windows show at least one pixel: xdg_toplevel 6's `suspended` is sent from it, so a
/// browser stops animating a window nobody can see. A window is hidden when no part of its
/// surfaces (its subsurfaces too) lies on a powered-on output outside what opaque surfaces
/// above it cover (a
/// minimized or locked-away window is not drawn at all, so it is hidden too).
enum WindowVisibility {
    /// One drawn surface: its global frame and the global region its opaque pixels hide.
    struct Layer<ID: Hashable> {
        var id: ID
        var frame: Rect
        var hides: Region
    }

    /// The ids of `stack` (bottom to top) of which some pixel shows on `screens`.
    static func shown<ID: Hashable>(_ stack: [Layer<ID>], screens: [Rect]) -> Set<ID> {
        var shown: Set<ID> = []
        var covered: [Rect] = []
        for layer in stack.reversed() {
            var showing = Region()
            for screen in screens { showing.add(screen.intersection(layer.frame)) }
            for rect in covered where !showing.isEmpty { showing.subtract(rect) }
            if !showing.isEmpty { shown.insert(layer.id) }
            covered += layer.hides.rects
        }
        return shown
    }
}
