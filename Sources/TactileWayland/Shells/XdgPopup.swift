import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_positioner (or zxdg_positioner_v6): the rules for placing a popup relative to its
/// parent. Anchor and gravity are kept as the stable protocol's values; v6's bitmasks are
/// converted on the way in.
final class XdgPositioner: ResourceObject {
    let flavor: XdgFlavor
    var size = Size.zero
    var anchorRect: Rect?
    var anchor = XDG_POSITIONER_ANCHOR_NONE.rawValue
    var gravity = XDG_POSITIONER_GRAVITY_NONE.rawValue
    var offset = Position.zero

    init(flavor: XdgFlavor) { self.flavor = flavor }

    static func create(_ flavor: XdgFlavor, _ client: OpaquePointer?, _ shell: OpaquePointer?, _ id: UInt32) {
        guard let client, let shell else { return }
        XdgPositioner(flavor: flavor).bind(client: client, interface: flavor.interface(.positioner), version: wl_resource_get_version(shell), id: id,
                                           implementation: requests)
    }

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

    private func setSize(_ width: Int32, _ height: Int32) {
        guard width > 0, height > 0 else { return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "popup size must be positive") }
        size = Size(width: Int(width), height: Int(height))
    }

    private func setAnchorRect(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        guard width >= 0, height >= 0 else {
            return postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "anchor rectangle size must not be negative")
        }
        anchorRect = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }

    /// The stable anchor (or gravity) for a stable value, or for a v6 bitmask.
    private func stableDirection(_ value: UInt32, what: String) -> UInt32? {
        let stable: UInt32?
        switch flavor {
        case .stable: stable = value <= XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue ? value : nil
        // v6: top 1, bottom 2, left 4, right 8, combined; stable: none, top, bottom, left, right,
        // top_left, bottom_left, top_right, bottom_right. Gravity uses the same values.
        case .unstableV6: stable = [0: 0, 1: 1, 2: 2, 4: 3, 8: 4, 5: 5, 6: 6, 9: 7, 10: 8][value]
        }
        if stable == nil { postError(XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, "\(value) is not a valid \(what)") }
        return stable
    }

    static let requests = RequestTable(xdg_positioner_interface(
        destroy: destroyResource,
        set_size: { _, r, width, height in XdgPositioner.from(r)?.setSize(width, height) },
        set_anchor_rect: { _, r, x, y, width, height in XdgPositioner.from(r)?.setAnchorRect(x, y, width, height) },
        set_anchor: { _, r, value in
            guard let p = XdgPositioner.from(r), let anchor = p.stableDirection(value, what: "anchor") else { return }
            p.anchor = anchor
        },
        set_gravity: { _, r, value in
            guard let p = XdgPositioner.from(r), let gravity = p.stableDirection(value, what: "gravity") else { return }
            p.gravity = gravity
        },
        set_constraint_adjustment: { _, _, _ in },
        set_offset: { _, r, x, y in XdgPositioner.from(r)?.offset = Position(x: Int(x), y: Int(y)) },
        set_reactive: { _, _ in },
        set_parent_size: { _, _, _, _ in },
        set_parent_configure: { _, _, _ in }
    ))
}

/// xdg_popup (or zxdg_popup_v6): a menu or tooltip placed by its positioner, as a child of
/// its parent's node. A popup that asked for a grab takes keyboard focus when it maps and
/// joins the seat's popup grab (`PopupGrab`).
final class XdgPopup: ResourceObject, XdgRole {
    let xdg: XdgSurface
    /// The xdg_surface the popup is placed on: a toplevel or another popup; nil for a popup
    /// of a layer surface.
    weak var parent: XdgSurface?
    /// The surface the popup is placed on, xdg or layer; nil until a layer surface takes a
    /// popup created without a parent (zwlr_layer_surface_v1.get_popup).
    private weak var parentSurface: Surface?
    let rect: Rect
    var isAlive: Bool { resource != nil }
    var isMapped: Bool { resource != nil }
    let roleName = "popup"
    private var wantsGrab = false
    /// The grab was asked for with a serial of no recent input of this client.
    private var grabRefused = false
    private var hasMapped = false

    init(xdg: XdgSurface, parent: XdgSurface?, rect: Rect) {
        self.xdg = xdg
        self.parent = parent
        parentSurface = parent?.surface
        self.rect = rect
    }

    static func create(_ xdg: XdgSurface, _ parent: XdgSurface?, _ rect: Rect, _ client: OpaquePointer, _ id: UInt32) -> XdgPopup? {
        guard let surface = xdg.surface else { return nil }
        // No parent: a layer surface's get_popup gives it one.
        if let parent, parent.surface?.node == nil {
            xdg.postError(XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, "popups need a parent xdg_surface with a role")
            return nil
        }
        let popup = XdgPopup(xdg: xdg, parent: parent, rect: rect)
        guard popup.bind(client: client, interface: xdg.flavor.interface(.popup), version: xdg.version, id: id, implementation: requests) else { return nil }
        if let parentNode = parent?.surface?.node {
            surface.createNode(.surface(of: surface.owner.id, position: Position(x: rect.x, y: rect.y), isMapped: false), under: parentNode)
        }
        return popup
    }

    /// zwlr_layer_surface_v1.get_popup: a popup made without a parent is placed on `layer`.
    /// False when it has a parent already.
    func attach(toLayerSurface layer: Surface) -> Bool {
        guard let surface = xdg.surface, parent == nil, parentSurface == nil else { return false }
        parentSurface = layer
        surface.createNode(.surface(of: surface.owner.id, position: Position(x: rect.x, y: rect.y), isMapped: false),
                           under: { [weak layer] in layer?.node })
        // Its place is known now; a client may attach a buffer with its first commit.
        sendConfigure()
        return true
    }

    /// Configures on the first commit (a layer surface's popup already was, as it got its
    /// parent); a grabbing popup starts its grab when it first maps.
    func committed(surface: Surface, hadBuffer: Bool) {
        if !hasMapped, surface.hasBuffer {
            hasMapped = true
            if wantsGrab {
                xdg.windows.startGrab(of: self)
            } else if grabRefused {
                sendDone()
            }
        }
        guard !xdg.hasConfigured else { return }
        sendConfigure()
    }

    private func sendConfigure() {
        guard let resource else { return }
        // The positioner's arithmetic is the client's: an anchor near Int32.max plus an offset
        // leaves int32, and the event carries the nearest value it can.
        let (x, y) = (Int32(clamping: rect.x), Int32(clamping: rect.y))
        let (w, h) = (Int32(clamping: rect.width), Int32(clamping: rect.height))
        xdg_popup_send_configure(resource, x, y, w, h)
        xdg.sendConfigure()
    }

    func surfaceDestroyed() {}

    /// The client dismissed the popup (or the compositor told it to): it leaves the grab,
    /// and keyboard focus, if the popup had it, goes back to the parent.
    override func resourceDestroyed() {
        guard let surface = xdg.surface else { return }
        let windows = xdg.windows
        let hadFocus = surface.node != nil && windows.context.focus.keyboard == surface.node
        windows.endGrab(of: self)
        surface.removeNode()
        if hadFocus, let parentNode = parentSurface?.node { windows.context.focusKeyboard(on: parentNode, because: "popup-closed") }
    }

    /// The window it was placed on went (the client destroyed the toplevel first): the popup
    /// left the scene with it and is dismissed.
    func ancestorRemoved() {
        xdg.windows.endGrab(of: self)
        sendDone()
    }

    /// popup_done: the compositor dismissed the popup; the client destroys it in answer.
    func sendDone() {
        guard let resource else { return }
        xdg_popup_send_popup_done(resource)
    }

    /// The grab is taken when the popup maps; asking after that is an error. A grab whose
    /// serial is not of this client's recent input is refused, and the protocol then wants
    /// the popup dismissed as it maps.
    private func grab(serial: UInt32) {
        guard !hasMapped else {
            return postError(XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "grab must be requested before the popup is mapped")
        }
        guard let surface = xdg.surface else { return }
        guard xdg.windows.seat.isRecentInput(serial, of: surface.owner.id) else {
            xdg.windows.context.logger.info("popup grab refused: serial \(serial) is not of \(surface.owner.id)'s recent input")
            grabRefused = true
            return
        }
        wantsGrab = true
    }

    static let requests = RequestTable(xdg_popup_interface(
        destroy: destroyResource,
        grab: { _, r, _, serial in XdgPopup.from(r)?.grab(serial: serial) },
        reposition: { _, _, _, _ in }
    ))
}
