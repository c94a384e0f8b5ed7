import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_relative_pointer_manager_v1: every client's relative pointers, and who hears a motion.
final class RelativePointers: ServerPart {
    private unowned(unsafe) let context: any PartContext
    private var pointers: [RelativePointer] = []
    private var global: Global?

    init(display: OpaquePointer, context: any PartContext) {
        self.context = context
        global = Global(display: display, interface: tactile_zwp_relative_pointer_manager_v1_interface(), version: 1, context: self,
                        requests: Self.managerRequests)
    }

    /// The client whose surface has pointer focus hears every relative motion, whether the
    /// cursor moves or not (it does not while a lock holds it).
    func send(_ motion: RelativeMotion, time: Instant) {
        guard let client = context.pointerFocusClient else { return }
        for pointer in pointers where pointer.client == client { pointer.send(motion, time: time) }
    }

    private static let managerRequests = RequestTable(zwp_relative_pointer_manager_v1_interface(
        destroy: destroyResource,
        get_relative_pointer: { client, manager, id, _ in
            guard let client, let part = Global.context(of: manager, as: RelativePointers.self), let owner = ClientState.of(client) else { return }
            let pointer = RelativePointer(client: owner.id) { [unowned part] gone in part.pointers.removeAll { $0 === gone } }
            guard pointer.bind(client: client, interface: tactile_zwp_relative_pointer_v1_interface(), version: 1, id: id,
                               implementation: RelativePointer.requests) else { return }
            part.pointers.append(pointer)
        }
    ))
}

/// zwp_relative_pointer_v1: one client's channel for relative motion.
final class RelativePointer: ResourceObject {
    let client: ClientID
    private let destroyed: (RelativePointer) -> Void

    init(client: ClientID, destroyed: @escaping (RelativePointer) -> Void) {
        self.client = client
        self.destroyed = destroyed
    }

    override func resourceDestroyed() {
        destroyed(self)
    }

    func send(_ motion: RelativeMotion, time: Instant) {
        guard let resource else { return }
        let microseconds = UInt64(max(0, time.microseconds))
        zwp_relative_pointer_v1_send_relative_motion(
            resource, UInt32(truncatingIfNeeded: microseconds >> 32), UInt32(truncatingIfNeeded: microseconds),
            wl_fixed_from_double(motion.dx), wl_fixed_from_double(motion.dy),
            wl_fixed_from_double(motion.unacceleratedDX), wl_fixed_from_double(motion.unacceleratedDY))
    }

    static let requests = RequestTable(zwp_relative_pointer_v1_interface(destroy: destroyResource))
}
