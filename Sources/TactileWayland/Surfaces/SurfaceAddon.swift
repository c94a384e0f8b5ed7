import CWaylandServer
import Responder

/// What a protocol attaches to a wl_surface besides its role: a viewport, edge deferral, a
/// pointer constraint, an xdg_surface's window geometry. The surface tells each add-on of its
/// attaches, commits, outputs and end through these hooks, and names none of their types, so
/// a new protocol attaches state to surfaces without editing `Surface`. Every hook has an
/// empty default beside it; an add-on implements the ones it cares about. State that must
/// travel with a commit (cached, queued, applied with it) is the add-on's slot in
/// `SurfaceState` (`SurfaceStateSlot`), declared in the add-on's own file.
///
/// The add-on's object detaches itself (`Surface.detachAddon`) when its resource goes.
protocol SurfaceAddon: AnyObject {
    /// Whether the surface counts as having a role while this is attached (an xdg_surface is
    /// the first step to a toplevel or popup, and excludes every other role).
    var reservesRole: Bool { get }
    /// Where the window starts in surface coordinates (xdg window geometry); nil: no opinion.
    var windowOrigin: Position? { get }
    /// A buffer is being attached: false refuses it, after posting the protocol error.
    func mayAttachBuffer() -> Bool
    /// Before a commit's state is applied or cached, with the buffer it will show: false
    /// refuses the commit, after posting the protocol error.
    func validate(_ state: SurfaceState, buffer: BufferAttachment) -> Bool
    /// Whether a committed update may apply now; false holds it (and every later one) in the
    /// surface's queue until `Surface.applyReadyUpdates` finds it ready (fifo's barrier, a
    /// commit's target time). Whoever makes it ready calls that.
    func mayApply(_ state: SurfaceState) -> Bool
    /// The surface applied a commit's state; scene changes made here join the commit's batch.
    func applied(_ surface: Surface)
    /// The surface was told it entered or left outputs.
    func outputsChanged(_ surface: Surface)
    /// The wl_surface is being destroyed.
    func surfaceDestroyed(_ surface: Surface)
}

extension SurfaceAddon {
    var reservesRole: Bool { false }
    var windowOrigin: Position? { nil }
    func mayAttachBuffer() -> Bool { true }
    func validate(_ state: SurfaceState, buffer: BufferAttachment) -> Bool { true }
    func mayApply(_ state: SurfaceState) -> Bool { true }
    func applied(_ surface: Surface) {}
    func outputsChanged(_ surface: Surface) {}
    func surfaceDestroyed(_ surface: Surface) {}
}

extension Surface {
    /// The get_* request of an extension that gives a surface one object at most (viewport,
    /// fractional scale, alpha modifier, content type, tearing control, fifo, commit timer,
    /// edge deferral): `make()` bound as `id` at the manager's version and attached; when the
    /// surface already has one of that type, `alreadyExists` posted on `manager` instead.
    @discardableResult
    func attachOne<A: ResourceObject & SurfaceAddon>(_ make: () -> A, client: OpaquePointer, manager: OpaquePointer, id: UInt32,
                                                     interface: UnsafePointer<wl_interface>, requests: RequestTable,
                                                     alreadyExists: UInt32, _ name: String) -> A? {
        guard addon(A.self) == nil else {
            tactile_post_error(manager, alreadyExists, "the wl_surface already has a \(name)")
            return nil
        }
        let object = make()
        guard object.bind(client: client, interface: interface, version: wl_resource_get_version(manager), id: id, implementation: requests)
        else { return nil }
        attachAddon(object)
        return object
    }
}
