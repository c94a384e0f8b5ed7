import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_positioner: the rules for placing a popup relative to its parent.
final class XdgPositioner: ResourceObject {
    var size = Size.zero
    var anchorRect: Rect?
    var anchor = XDG_POSITIONER_ANCHOR_NONE.rawValue
    var gravity = XDG_POSITIONER_GRAVITY_NONE.rawValue
    var offset = Position.zero

    var isComplete: Bool { size.width > 0 && size.height > 0 && anchorRect != nil }

    /// The popup's rectangle in its parent's coordinates: the anchor point on the anchor
    /// rectangle, the popup extending from it in the gravity's direction, then the offset.
    /// Constraint adjustment (sliding or flipping to stay on the output) is not applied.
    var placement: Rect {
        let r = anchorRect ?? .empty
        let (ax, ay): (Int, Int) = switch anchor {
        case XDG_POSITIONER_ANCHOR_TOP.rawValue: (r.x + r.width / 2, r.y)
        case XDG_POSITIONER_ANCHOR_BOTTOM.rawValue: (r.x + r.width / 2, r.maxY)
        case XDG_POSITIONER_ANCHOR_LEFT.rawValue: (r.x, r.y + r.height / 2)
        case XDG_POSITIONER_ANCHOR_RIGHT.rawValue: (r.maxX, r.y + r.height / 2)
        case XDG_POSITIONER_ANCHOR_TOP_LEFT.rawValue: (r.x, r.y)
        case XDG_POSITIONER_ANCHOR_BOTTOM_LEFT.rawValue: (r.x, r.maxY)
        case XDG_POSITIONER_ANCHOR_TOP_RIGHT.rawValue: (r.maxX, r.y)
        case XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue: (r.maxX, r.maxY)
        default: (r.x + r.width / 2, r.y + r.height / 2)
        }
        let x: Int = switch gravity {
        case XDG_POSITIONER_GRAVITY_LEFT.rawValue, XDG_POSITIONER_GRAVITY_TOP_LEFT.rawValue, XDG_POSITIONER_GRAVITY_BOTTOM_LEFT.rawValue: ax - size.width
        case XDG_POSITIONER_GRAVITY_RIGHT.rawValue, XDG_POSITIONER_GRAVITY_TOP_RIGHT.rawValue, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue: ax
        default: ax - size.width / 2
        }
        let y: Int = switch gravity {
        case XDG_POSITIONER_GRAVITY_TOP.rawValue, XDG_POSITIONER_GRAVITY_TOP_LEFT.rawValue, XDG_POSITIONER_GRAVITY_TOP_RIGHT.rawValue: ay - size.height
        case XDG_POSITIONER_GRAVITY_BOTTOM.rawValue, XDG_POSITIONER_GRAVITY_BOTTOM_LEFT.rawValue, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue: ay
        default: ay - size.height / 2
        }
        return Rect(x: x + offset.x, y: y + offset.y, width: size.width, height: size.height)
    }

    static let requests = RequestTable(xdg_positioner_interface(
        destroy: destroyResource,
        set_size: { _, resource, width, height in
            guard let positioner = XdgPositioner.from(resource) else { return }
            guard width > 0, height > 0 else {
                return positioner.postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "popup size must be positive")
            }
            positioner.size = Size(width: Int(width), height: Int(height))
        },
        set_anchor_rect: { _, resource, x, y, width, height in
            guard let positioner = XdgPositioner.from(resource) else { return }
            guard width >= 0, height >= 0 else {
                return positioner.postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "anchor rectangle size must not be negative")
            }
            positioner.anchorRect = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        },
        set_anchor: { _, resource, anchor in
            guard let positioner = XdgPositioner.from(resource) else { return }
            guard anchor <= XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue else {
                return positioner.postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "anchor \(anchor) is not an xdg_positioner.anchor")
            }
            positioner.anchor = anchor
        },
        set_gravity: { _, resource, gravity in
            guard let positioner = XdgPositioner.from(resource) else { return }
            guard gravity <= XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue else {
                return positioner.postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "gravity \(gravity) is not an xdg_positioner.gravity")
            }
            positioner.gravity = gravity
        },
        set_constraint_adjustment: { _, _, _ in },
        set_offset: { _, resource, x, y in XdgPositioner.from(resource)?.offset = Position(x: Int(x), y: Int(y)) },
        set_reactive: { _, _ in },
        set_parent_size: { _, _, _, _ in },
        set_parent_configure: { _, _, _ in }
    ))
}

/// xdg_popup: a menu or tooltip placed by its positioner, as a child of its parent's node.
final class XdgPopup: ResourceObject, XdgRole {
    let xdg: XdgSurface
    let rect: Rect
    var isAlive: Bool { resource != nil }
    var isMapped: Bool { resource != nil }

    init(xdg: XdgSurface, rect: Rect) {
        self.xdg = xdg
        self.rect = rect
    }

    static func create(_ xdg: XdgSurface, _ parent: XdgSurface?, _ rect: Rect, _ client: OpaquePointer, _ id: UInt32) -> XdgPopup? {
        guard let surface = xdg.surface else { return nil }
        guard let parentNode = parent?.surface?.node else {
            xdg.postError(XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, "popups need a parent xdg_surface with a role")
            return nil
        }
        let popup = XdgPopup(xdg: xdg, rect: rect)
        guard popup.bind(client: client, interface: tactile_xdg_popup_interface(), version: xdg.version, id: id, implementation: requests) else { return nil }
        surface.createNode(.surface(of: surface.owner.id, position: Position(x: rect.x, y: rect.y), isMapped: false), under: parentNode)
        return popup
    }

    func committed(surface: Surface, hadBuffer: Bool) {
        guard !xdg.hasConfigured, let resource else { return }
        xdg_popup_send_configure(resource, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        xdg.sendConfigure()
    }

    func surfaceDestroyed() {}

    override func resourceDestroyed() {
        xdg.surface?.removeNode()
    }

    static let requests = RequestTable(xdg_popup_interface(
        destroy: destroyResource,
        grab: { _, _, _, _ in },
        reposition: { _, _, _, _ in }
    ))
}
