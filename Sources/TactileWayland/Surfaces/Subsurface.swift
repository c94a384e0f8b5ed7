import CWaylandServer
import Responder

extension Compositor {
    static let subcompositorRequests = RequestTable(wl_subcompositor_interface(
        destroy: destroyResource,
        get_subsurface: { client, subcompositor, id, surfaceResource, parentResource in
            guard let client, let surface = Surface.from(surfaceResource), let parent = Surface.from(parentResource) else { return }
            let fail = { (message: String) in
                tactile_post_error(subcompositor, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue, message)
            }
            guard surface !== parent else { return fail("a surface cannot be its own parent") }
            guard !surface.hasRole else { return fail("wl_surface already has a role") }
            guard !parent.isDescendant(of: surface) else { return fail("the parent is a subsurface of the surface: that would be a cycle") }
            guard parent.nestingDepth + 1 + surface.subsurfaceHeight <= Subsurface.maximumNesting else {
                return fail("subsurfaces may nest at most \(Subsurface.maximumNesting) levels deep")
            }
            let subsurface = Subsurface(surface: surface, parent: parent)
            guard subsurface.bind(client: client, interface: tactile_wl_subsurface_interface(), version: 1, id: id, implementation: Subsurface.requests) else { return }
            surface.role = subsurface
            parent.pendingChildren.append(subsurface)
        }
    ))
}

/// Where place_above / place_below put a subsurface, relative to a sibling or the parent.
enum SubsurfacePlacement {
    case above(Surface)
    case below(Surface)
}

/// wl_subsurface: a surface drawn relative to its parent, anywhere (also outside it or below
/// it). Position and stacking change on the parent's apply; in synchronized mode (the
/// default) so does the surface's own state.
final class Subsurface: ResourceObject, SurfaceRole {
    /// Real clients nest two or three levels; the scene's walks recurse once per level, so an
    /// unbounded chain from a hostile client could exhaust the stack.
    static let maximumNesting = 64

    weak var surface: Surface?
    weak var parent: Surface?
    let roleName = "subsurface"
    var isSynchronized = true
    private(set) var position = Position.zero
    private var pendingPosition: Position?

    init(surface: Surface, parent: Surface) {
        self.surface = surface
        self.parent = parent
    }

    var isMapped: Bool { resource != nil && parent != nil }

    /// Synchronized itself, or below a synchronized subsurface: its commits wait for the parent.
    var waitsForParent: Bool {
        isSynchronized || (parent?.role?.waitsForParent ?? false)
    }

    /// Its node: on top of its parent's stack, at its position.
    func createNode(under parent: Surface) {
        guard let surface else { return }
        surface.createNode(.surface(of: surface.owner.id, position: position, isMapped: false), under: { [weak parent] in parent?.node })
    }

    func committed(surface: Surface, hadBuffer: Bool) {}

    func surfaceDestroyed() {
        detachFromParent()
    }

    override func resourceDestroyed() {
        detachFromParent()
        if let surface, surface.role === self {
            surface.role = nil
            surface.removeNode()
        }
    }

    /// The parent went away: the subsurface stays, unmapped, until it is destroyed.
    func parentDestroyed() {
        parent = nil
        surface?.syncNode()
    }

    /// The node is looked up as the parent's batch is applied: it may be new in it.
    func applyPendingPosition() {
        guard let p = pendingPosition, let host = surface?.host else { return }
        position = p
        pendingPosition = nil
        host.updateScene { [weak self] scene in
            guard let node = self?.surface?.node else { return }
            scene.update(node) { $0.position = p }
        }
    }

    private func detachFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        parent.pendingChildren.removeAll { $0 === self }
        parent.pendingRestacks.removeAll { $0.0 === self }
        self.parent = nil
    }

    /// Restacks waiting for one parent's commit. They apply in order, so none can be merged
    /// away; a parent that never commits must not make the list grow without end.
    static let maximumPendingRestacks = 4096

    private func restack(_ placement: SubsurfacePlacement) {
        guard let parent else { return }
        guard parent.pendingRestacks.count < Self.maximumPendingRestacks else {
            return postLimitError("wl_subsurface: more than \(Self.maximumPendingRestacks) place_above/place_below waiting for one parent's commit")
        }
        parent.pendingRestacks.append((self, placement))
    }

    /// The sibling (or parent) a place request names, or nil after posting bad_surface.
    private func reference(_ resource: OpaquePointer?) -> Surface? {
        guard let other = Surface.from(resource), let parent else { return nil }
        guard other === parent || parent.children.contains(where: { $0.surface === other && $0 !== self }) else {
            postError(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue, "place_above/place_below need a sibling subsurface or the parent")
            return nil
        }
        return other
    }

    static let requests = RequestTable(wl_subsurface_interface(
        destroy: destroyResource,
        set_position: { _, resource, x, y in Subsurface.from(resource)?.pendingPosition = Position(x: Int(x), y: Int(y)) },
        place_above: { _, resource, sibling in
            guard let me = Subsurface.from(resource), let other = me.reference(sibling) else { return }
            me.restack(.above(other))
        },
        place_below: { _, resource, sibling in
            guard let me = Subsurface.from(resource), let other = me.reference(sibling) else { return }
            me.restack(.below(other))
        },
        set_sync: { _, resource in Subsurface.from(resource)?.isSynchronized = true },
        set_desync: { _, resource in
            guard let me = Subsurface.from(resource) else { return }
            me.isSynchronized = false
            if !me.waitsForParent { me.surface?.applyCachedState() }
        }
    ))
}

extension Surface {
    /// How many subsurface parents lie above this surface.
    var nestingDepth: Int {
        var depth = 0
        var current = (role as? Subsurface)?.parent
        while let surface = current {
            depth += 1
            current = (surface.role as? Subsurface)?.parent
        }
        return depth
    }

    /// How many levels of subsurfaces hang below this surface (0 for none).
    var subsurfaceHeight: Int {
        (children + pendingChildren).compactMap { $0.surface.map { $0.subsurfaceHeight + 1 } }.max() ?? 0
    }

    /// Whether `ancestor` is this surface's parent, or its parent's, and so on.
    func isDescendant(of ancestor: Surface) -> Bool {
        var current = (role as? Subsurface)?.parent
        while let surface = current {
            if surface === ancestor { return true }
            current = (surface.role as? Subsurface)?.parent
        }
        return false
    }
}
