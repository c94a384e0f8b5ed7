import CWaylandServer
import WaylandProtocols

/// zwp_idle_inhibit_manager_v1: a window playing a video (mpv, a browser) keeps the screens
/// on, while someone can see it: an inhibitor counts while its surface is mapped on an
/// output, and not while it is unmapped or hidden. Idle blanking and idle notifications
/// ask `inhibited` when their time comes.
final class IdleInhibitors: ServerPart {
    static let version: Int32 = 1
    private var global: Global?
    private var made: [Weak] = []
    /// An inhibitor came, went, or its surface was shown or hidden.
    var changed: () -> Void = {}

    private struct Weak { weak var object: IdleInhibitor? }

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_zwp_idle_inhibit_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    /// Whether a visible surface has an inhibitor now.
    var inhibited: Bool {
        made.contains { $0.object?.isActive == true }
    }

    fileprivate func inhibitorChanged() {
        made.removeAll { $0.object?.resource == nil }
        changed()
    }

    private static let requests = RequestTable(zwp_idle_inhibit_manager_v1_interface(
        destroy: destroyResource,
        create_inhibitor: { client, resource, id, surfaceResource in
            guard let client, let resource, let part = Global.context(of: resource, as: IdleInhibitors.self),
                  let surface = Surface.from(surfaceResource) else { return }
            let inhibitor = IdleInhibitor(part: part, surface: surface)
            guard inhibitor.bind(client: client, interface: tactile_zwp_idle_inhibitor_v1_interface(), version: 1, id: id,
                                 implementation: IdleInhibitor.requests) else { return }
            surface.attachAddon(inhibitor)
            part.made.append(Weak(object: inhibitor))
            part.inhibitorChanged()
        }
    ))
}

/// zwp_idle_inhibitor_v1: one surface's wish that the screens stay on.
final class IdleInhibitor: ResourceObject, SurfaceAddon {
    private unowned let part: IdleInhibitors
    private weak var surface: Surface?

    init(part: IdleInhibitors, surface: Surface) {
        self.part = part
        self.surface = surface
    }

    /// Its surface is mapped on an output.
    var isActive: Bool { surface?.enteredOutputs.isEmpty == false }

    func outputsChanged(_ surface: Surface) { part.inhibitorChanged() }

    func surfaceDestroyed(_ surface: Surface) {
        self.surface = nil
        part.inhibitorChanged()
    }

    override func resourceDestroyed() {
        surface?.detachAddon(self)
        surface = nil
        part.inhibitorChanged()
    }

    static let requests = RequestTable(zwp_idle_inhibitor_v1_interface(destroy: destroyResource))
}
