import CWaylandServer
import Responder
import WaylandProtocols

/// A window's own icon (xdg_toplevel_icon_v1), as kept: its theme name and the sizes of its
/// pictures. The inspector shows it; nothing draws it (Tactile has no task bar of its own).
struct ToplevelIcon: Equatable {
    var name: String?
    /// Each picture's side in buffer pixels, with its scale.
    var pictures: [(side: Int, scale: Int32)] = []

    static func == (a: ToplevelIcon, b: ToplevelIcon) -> Bool {
        a.name == b.name && a.pictures.elementsEqual(b.pictures) { $0 == $1 }
    }

    /// How the inspector shows it: `icon="utilities-terminal",48x48@1`.
    var inspected: String {
        ([name.map { "\"\($0)\"" }].compactMap { $0 } + pictures.map { "\($0.side)x\($0.side)@\($0.scale)" }).joined(separator: ",")
    }
}

/// xdg_toplevel_icon_manager_v1: icons made by clients and set on their toplevels, applied at
/// the toplevel's next commit. It asks for no particular size.
final class ToplevelIcons: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_xdg_toplevel_icon_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, bound: { resource, _ in xdg_toplevel_icon_manager_v1_send_done(resource) })
    }

    private static let requests = RequestTable(xdg_toplevel_icon_manager_v1_interface(
        destroy: destroyResource,
        create_icon: { client, resource, id in
            guard let client, let resource else { return }
            ToplevelIconObject().bind(client: client, interface: tactile_xdg_toplevel_icon_v1_interface(), version: wl_resource_get_version(resource),
                                      id: id, implementation: ToplevelIconObject.requests)
        },
        set_icon: { _, _, toplevelResource, iconResource in
            guard let toplevel = XdgToplevel.from(toplevelResource) else { return }
            guard let iconResource else { return toplevel.pendingIcon = .some(nil) }
            guard let icon = ToplevelIconObject.from(iconResource) else { return }
            guard icon.icon.name != nil || !icon.icon.pictures.isEmpty else {
                return icon.postError(XDG_TOPLEVEL_ICON_V1_ERROR_NO_BUFFER.rawValue, "the icon has neither a name nor a picture")
            }
            icon.isSet = true
            toplevel.pendingIcon = .some(icon.icon)
        }
    ))
}

/// xdg_toplevel_icon_v1: an icon being filled; fixed once set on a toplevel.
final class ToplevelIconObject: ResourceObject {
    fileprivate var icon = ToplevelIcon()
    fileprivate var isSet = false
    /// More pictures than a switcher could use are a client's mistake, not a reason to grow.
    private static let maximumPictures = 16

    private func setName(_ name: UnsafePointer<CChar>?) {
        guard !isSet else { return postError(XDG_TOPLEVEL_ICON_V1_ERROR_IMMUTABLE.rawValue, "the icon was already set on a toplevel") }
        icon.name = name.map { printableLabel($0) } ?? nil
    }

    /// The picture's size is read and the buffer given back at once: no pixels are kept.
    private func addBuffer(_ buffer: OpaquePointer?, scale: Int32) {
        guard !isSet else { return postError(XDG_TOPLEVEL_ICON_V1_ERROR_IMMUTABLE.rawValue, "the icon was already set on a toplevel") }
        guard let buffer, let shm = ShmBuffer.of(buffer), shm.size.width == shm.size.height, scale >= 1 else {
            return postError(XDG_TOPLEVEL_ICON_V1_ERROR_INVALID_BUFFER.rawValue, "an icon's picture is a square wl_shm buffer with a scale of at least 1")
        }
        let side = shm.size.width
        icon.pictures.removeAll { $0.side == side && $0.scale == scale }
        if icon.pictures.count < Self.maximumPictures { icon.pictures.append((side, scale)) }
        wl_buffer_send_release(buffer)
    }

    static let requests = RequestTable(xdg_toplevel_icon_v1_interface(
        destroy: destroyResource,
        set_name: { _, resource, name in ToplevelIconObject.from(resource)?.setName(name) },
        add_buffer: { _, resource, buffer, scale in ToplevelIconObject.from(resource)?.addBuffer(buffer, scale: scale) }
    ))
}
