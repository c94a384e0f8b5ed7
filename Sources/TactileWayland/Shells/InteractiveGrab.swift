import Responder
import WaylandProtocols

/// An interactive move or resize (xdg_toplevel.move / resize), asked for by a client while a
/// button it was pressed on is held: the compositor takes the pointer until the release and
/// moves or resizes the window by the pointer's travel. Touch-driven moves are not taken.
/// It is a grab on the seat (`InputGrab`) that follows every routed event.
final class InteractiveGrab: InputGrab {
    enum Kind {
        case move
        /// An xdg_toplevel.resize_edge: top 1, bottom 2, left 4, right 8, or a corner's sum.
        case resize(edges: UInt32)
    }

    let kind: Kind
    weak var toplevel: XdgToplevel?
    let startPointer: Point
    /// The window geometry, globally, when the grab began.
    let startWindow: Rect
    private unowned(unsafe) let windows: Windows

    init(kind: Kind, toplevel: XdgToplevel, startPointer: Point, startWindow: Rect, windows: Windows) {
        self.kind = kind
        self.toplevel = toplevel
        self.startPointer = startPointer
        self.startWindow = startWindow
        self.windows = windows
    }

    /// After each input event: follow the pointer, or end at the last release.
    func eventRouted(_ event: InputEvent) {
        let context = windows.context
        guard context.pointerButtonsHeld, let toplevel, let pointer = context.focus.pointerPosition else {
            windows.seat.grabs.end(self)
            windows.interactiveGrab = nil
            toplevel?.interactiveGrabEnded()
            return
        }
        toplevel.follow(to: window(for: pointer))
    }

    /// Where the window goes for the pointer at `pointer`. Resizing from the top or left
    /// moves the window's origin at once, so the opposite edge stays put while the client
    /// catches up with the new size; a window never shrinks below 1 × 1.
    func window(for pointer: Point) -> Rect {
        let dx = Int((pointer.x - startPointer.x).rounded())
        let dy = Int((pointer.y - startPointer.y).rounded())
        var r = startWindow
        switch kind {
        case .move:
            r.x += dx
            r.y += dy
        case .resize(let edges):
            (r.x, r.width) = Self.resize(r.x, r.width, by: dx, start: edges & Self.left != 0, end: edges & Self.right != 0)
            (r.y, r.height) = Self.resize(r.y, r.height, by: dy, start: edges & Self.top != 0, end: edges & Self.bottom != 0)
        }
        return r
    }

    /// One axis of a resize: dragging the start edge keeps the end where it was, dragging
    /// the end keeps the start; the length stays at least 1.
    private static func resize(_ origin: Int, _ length: Int, by delta: Int, start: Bool, end: Bool) -> (Int, Int) {
        if start {
            let resized = max(1, length - delta)
            return (origin + length - resized, resized)
        }
        return end ? (origin, max(1, length + delta)) : (origin, length)
    }

    private static let top = XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue
    private static let bottom = XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue
    private static let left = XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue
    private static let right = XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue
}

extension Windows {
    /// Starts a move or resize of `toplevel` if the pointer's implicit grab is on it: the
    /// window gets a pointer leave, and clients hear nothing from the pointer until the
    /// last button is up. A request without such a press is ignored, as the protocol allows
    /// for a stale serial.
    func beginInteractiveGrab(_ kind: InteractiveGrab.Kind, of toplevel: XdgToplevel) -> Bool {
        let scene = context.scene, focus = context.focus
        guard interactiveGrab == nil, context.pointerButtonsHeld,
              let surface = toplevel.xdg.surface, let node = surface.node,
              let pointerFocus = focus.pointer, scene.toplevel(containing: pointerFocus) == node,
              let pointer = focus.pointerPosition, let origin = scene.absolutePosition(of: node)
        else { return false }
        guard context.takePointerUntilReleased() else { return false }
        let geometry = toplevel.xdg.geometry ?? Rect(size: surface.size)
        let window = Rect(x: origin.x + geometry.x, y: origin.y + geometry.y, width: geometry.width, height: geometry.height)
        let grab = InteractiveGrab(kind: kind, toplevel: toplevel, startPointer: pointer, startWindow: window, windows: self)
        interactiveGrab = grab
        seat.grabs.begin(grab)
        return true
    }
}
