import CWaylandServer
import WaylandProtocols

/// xdg_toplevel_tag_manager_v1: an app names the kind of window each toplevel is, so the
/// configuration's `windows` rules (`WindowRule`) can place one window of an app apart from
/// its others. The description, translated text for people, decides nothing and is not kept.
final class ToplevelTags: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_xdg_toplevel_tag_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    private static let requests = RequestTable(xdg_toplevel_tag_manager_v1_interface(
        destroy: destroyResource,
        set_toplevel_tag: { _, _, toplevel, tag in
            XdgToplevel.from(toplevel)?.setTag(printableLabel(tag, limit: appIDLabelLimit))
        },
        set_toplevel_description: { _, _, _, _ in }
    ))
}
