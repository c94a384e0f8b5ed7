import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_locked_pointer_v1 or zwp_confined_pointer_v1: a client holds the pointer still (a game
/// or a 3D view turning with relative motion) or inside a region of its surface. The
/// constraint is active while the pointer is on the surface, inside the region; a oneshot
/// one ends for good when it stops being active, a persistent one comes back.
final class PointerConstraint: ResourceObject, SurfaceAddon, InputGrab {
    enum Kind { case lock, confine }

    let kind: Kind
    weak var surface: Surface?
    private unowned(unsafe) let part: PointerConstraints
    private let isPersistent: Bool
    /// Surface-local; nil: all of the surface.
    private var region: Region?
    /// Where a lock's client says its cursor is, surface-local: the pointer goes there when
    /// the client unlocks by destroying the lock, so the cursor does not jump back.
    private var cursorHint: Point?
    /// set_region and set_cursor_position_hint are double-buffered: applied on the surface's
    /// next commit (`applyPending`). The outer nil is "not set since".
    private var pendingRegion: Region??
    private var pendingHint: Point?
    private(set) var isActive = false
    /// A oneshot constraint that was active once: it never activates again.
    private var isDefunct = false

    init(kind: Kind, surface: Surface, part: PointerConstraints, region: Region?, isPersistent: Bool) {
        self.kind = kind
        self.surface = surface
        self.part = part
        self.region = region
        self.isPersistent = isPersistent
    }

    /// Whether the pointer may be at `local` on the surface: inside its bounds, its input
    /// region and the constraint's region, as the protocol defines it. Tested point by
    /// point: intersecting two regions of thousands of rectangles per motion would not be.
    private func allows(_ local: Point) -> Bool {
        guard let surface, Rect(origin: .zero, size: surface.size).contains(local) else { return false }
        return surface.current.inputRegion.contains(local) && region?.contains(local) ?? true
    }

    /// A box that holds every allowed point: the bounds, cut to the two regions' extents.
    private var allowedExtents: Rect {
        var box = Rect(origin: .zero, size: surface?.size ?? .zero)
        for extents in [surface?.current.inputRegion.extents, region?.extents].compactMap({ $0 }) { box = box.intersection(extents) }
        return box
    }

    /// Whether it should be active with the pointer at `point` (global) over `focus`.
    func applies(focus: NodeID?, at point: Point?) -> Bool {
        guard !isDefunct, resource != nil, let surface, let node = surface.node, node == focus, let point,
              let origin = part.context.scene.absolutePosition(of: node) else { return false }
        return allows(point.relative(to: origin))
    }

    func setActive(_ active: Bool) {
        guard active != isActive, let resource else { return }
        isActive = active
        switch (kind, active) {
        case (.lock, true): zwp_locked_pointer_v1_send_locked(resource)
        case (.lock, false): zwp_locked_pointer_v1_send_unlocked(resource)
        case (.confine, true): zwp_confined_pointer_v1_send_confined(resource)
        case (.confine, false): zwp_confined_pointer_v1_send_unconfined(resource)
        }
        if !active, !isPersistent { isDefunct = true }
        if kind == .lock { active ? part.seat.grabs.begin(self) : part.seat.grabs.end(self) }
    }

    /// `target` (global) kept inside the allowed region: each axis clamped to the region's
    /// extents, or the pointer stays at `from` if that still leaves the region (an L shape).
    func confine(_ target: Point, from: Point) -> Point {
        guard let node = surface?.node, let origin = part.context.scene.absolutePosition(of: node) else { return from }
        let local = target.relative(to: origin)
        if allows(local) { return target }
        let box = allowedExtents
        guard box.width > 0, box.height > 0 else { return from }
        let clamped = Point(x: min(max(local.x, Double(box.x)), Double(box.x + box.width - 1)),
                            y: min(max(local.y, Double(box.y)), Double(box.y + box.height - 1)))
        guard allows(clamped) else { return from }
        return Point(x: clamped.x + Double(origin.x), y: clamped.y + Double(origin.y))
    }

    override func resourceDestroyed() {
        part.constraints.removeAll { $0 === self }
        part.seat.grabs.end(self)
        surface?.detachAddon(self)
    }

    /// An active lock holds the pointer where it is, whatever moves it (relative pointers
    /// still hear the motion: `RelativePointers`).
    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        if case .pointerMotion = event { return nil }
        return event
    }

    /// The surface committed: what was set since takes effect.
    func applied(_ surface: Surface) {
        guard pendingRegion != nil || pendingHint != nil else { return }
        if let pendingRegion { region = pendingRegion }
        if let pendingHint { cursorHint = pendingHint }
        (pendingRegion, pendingHint) = (nil, nil)
        part.update()
    }

    /// The client unlocks: the pointer is put where its hint says, on the surface, if the
    /// lock held it. Only for the request: a departing client's objects go without moving
    /// anything (its surfaces are going too).
    private static func destroyLock(_ client: OpaquePointer?, _ resource: OpaquePointer?) {
        let constraint = PointerConstraint.from(resource)
        let warp: Point? = constraint.flatMap { lock in
            guard lock.isActive, let hint = lock.cursorHint, let node = lock.surface?.node,
                  let origin = lock.part.context.scene.absolutePosition(of: node) else { return nil }
            return Point(x: Double(origin.x) + hint.x, y: Double(origin.y) + hint.y)
        }
        let context = constraint?.part.context
        destroyResource(client, resource)
        if let warp, let context { context.handle(.pointerMotion(global: warp, time: context.currentTime)) }
    }

    static let lockedRequests = RequestTable(zwp_locked_pointer_v1_interface(
        destroy: { client, resource in destroyLock(client, resource) },
        set_cursor_position_hint: { _, r, x, y in
            PointerConstraint.from(r)?.pendingHint = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        },
        set_region: { _, r, region in PointerConstraint.from(r)?.pendingRegion = .some(region.flatMap { WlRegion.from($0)?.region }) }
    ))
    static let confinedRequests = RequestTable(zwp_confined_pointer_v1_interface(
        destroy: destroyResource,
        set_region: { _, r, region in PointerConstraint.from(r)?.pendingRegion = .some(region.flatMap { WlRegion.from($0)?.region }) }
    ))
}

/// zwp_pointer_constraints_v1: the pointer locks and confinements clients asked for, and
/// which of them is active.
final class PointerConstraints: ServerPart {
    unowned(unsafe) let context: any PartContext
    let seat: Seat
    fileprivate var constraints: [PointerConstraint] = []
    private var global: Global?

    init(display: OpaquePointer, context: any PartContext, seat: Seat) {
        self.context = context
        self.seat = seat
        global = Global(display: display, interface: tactile_zwp_pointer_constraints_v1_interface(), version: 1, context: self,
                        requests: Self.requests)
    }

    /// The active constraint, if any.
    var active: PointerConstraint? { constraints.first { $0.isActive } }

    /// The constraint on the surface under the pointer becomes active when the pointer is in
    /// its region; every other one stops being active.
    func focusChanged(_ focus: SeatFocus) {
        update()
    }

    func update() {
        guard !constraints.isEmpty else { return }
        let focus = context.focus
        for constraint in constraints { constraint.setActive(constraint.applies(focus: focus.pointer, at: focus.pointerPosition)) }
    }

    private static let requests = RequestTable(zwp_pointer_constraints_v1_interface(
        destroy: destroyResource,
        lock_pointer: { client, manager, id, surface, _, region, lifetime in
            Global.context(of: manager, as: PointerConstraints.self)?.constrain(.lock, client, manager, id, surface, region, lifetime)
        },
        confine_pointer: { client, manager, id, surface, _, region, lifetime in
            Global.context(of: manager, as: PointerConstraints.self)?.constrain(.confine, client, manager, id, surface, region, lifetime)
        }
    ))

    private func constrain(_ kind: PointerConstraint.Kind, _ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32,
                           _ surfaceResource: OpaquePointer?, _ regionResource: OpaquePointer?, _ lifetime: UInt32) {
        guard let client, let manager, let surface = Surface.from(surfaceResource) else { return }
        guard [ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT.rawValue, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue].contains(lifetime) else {
            // The interface defines no error for this; 0 is none of its others.
            return tactile_post_error(manager, 0, "\(lifetime) is not a zwp_pointer_constraints_v1.lifetime")
        }
        guard surface.addon(PointerConstraint.self) == nil else {
            return tactile_post_error(manager, ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue, "the surface already has a pointer constraint")
        }
        let constraint = PointerConstraint(kind: kind, surface: surface, part: self, region: regionResource.flatMap { WlRegion.from($0)?.region },
                                           isPersistent: lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
        let bound = switch kind {
        case .lock: constraint.bind(client: client, interface: tactile_zwp_locked_pointer_v1_interface(), version: 1, id: id, implementation: PointerConstraint.lockedRequests)
        case .confine: constraint.bind(client: client, interface: tactile_zwp_confined_pointer_v1_interface(), version: 1, id: id, implementation: PointerConstraint.confinedRequests)
        }
        guard bound else { return }
        constraints.append(constraint)
        surface.attachAddon(constraint)
        update()
    }
}
