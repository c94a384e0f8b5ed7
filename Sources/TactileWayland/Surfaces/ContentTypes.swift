import CWaylandServer
import WaylandProtocols

/// What a surface says it shows (wp_content_type_v1), kept with its committed state: the
/// inspector and the trace name it. It changes nothing else: Tactile's frame scheduler
/// already paces every output to its refresh and repaints as late as is safe, which is what
/// video wants; a game's lower latency would come from tearing (`wp_tearing_control_v1`).
enum ContentType: UInt32, SurfaceStateSlot {
    case none = 0, photo, video, game

    init() { self = .none }

    var name: String { ["none", "photo", "video", "game"][Int(rawValue)] }
}

/// wp_content_type_v1: one surface's content type, double-buffered with its state.
final class ContentTypeObject: ResourceObject, SurfaceAddon {
    weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    override func resourceDestroyed() {
        guard let surface else { return }
        surface.pending[ContentType.self] = .none
        surface.detachAddon(self)
    }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }

    private func set(_ value: UInt32) {
        // The surface gone: the object is inert, as the protocol says, not an error.
        guard let surface else { return }
        guard let type = ContentType(rawValue: value) else {
            // The protocol names no error for a value outside its enum: the core's, as for decorations.
            return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "set_content_type: \(value) is no wp_content_type_v1.type")
        }
        surface.pending[ContentType.self] = type
    }

    static let requests = RequestTable(wp_content_type_v1_interface(
        destroy: destroyResource,
        set_content_type: { _, resource, value in ContentTypeObject.from(resource)?.set(value) }
    ))
}

/// wp_content_type_manager_v1: makes a surface's content type object, one at most.
final class ContentTypes: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wp_content_type_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    private static let requests = RequestTable(wp_content_type_manager_v1_interface(
        destroy: destroyResource,
        get_surface_content_type: { client, resource, id, surfaceResource in
            guard let client, let resource, let surface = Surface.from(surfaceResource) else { return }
            surface.attachOne({ ContentTypeObject(surface: surface) }, client: client, manager: resource, id: id,
                              interface: tactile_wp_content_type_v1_interface(), requests: ContentTypeObject.requests,
                              alreadyExists: WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "wp_content_type_v1")
        }
    ))
}
