import CWaylandServer
import WaylandProtocols

/// zxdg_toplevel_decoration_v1: the client says whether it would draw its own title bar;
/// the window policy answers with a configure (in kiosk mode: server side, so GTK, Qt, foot
/// and browsers drop theirs, and Tactile draws none). The answer takes effect with the
/// xdg_surface.configure that follows it.
///
/// It is sent once the requests that came together are handled (an idle source): a client
/// that makes the object and sets its mode in one go, as SDL does, hears one answer, to what
/// it asked. SDL2 acts on the first mode it hears, and an answer to "no preference" before
/// its "server side" made it give up its window.
final class ToplevelDecoration: ResourceObject {
    weak var toplevel: XdgToplevel?
    private var preferred: Decorations?
    private let loop: OpaquePointer
    /// The answer waiting for the end of the dispatch.
    private var pending: OpaquePointer?

    init(toplevel: XdgToplevel, loop: OpaquePointer) {
        self.toplevel = toplevel
        self.loop = loop
    }

    /// Answers once the requests being handled are: one answer for several requests.
    func scheduleConfigure() {
        guard pending == nil else { return }
        pending = wl_event_loop_add_idle(loop, { data in
            let decoration = Unmanaged<ToplevelDecoration>.fromOpaque(data!).takeUnretainedValue()
            decoration.pending = nil
            decoration.configure()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The idle source goes with the object it points at.
    override func resourceDestroyed() {
        if let pending { wl_event_source_remove(pending) }
        pending = nil
    }

    /// Sends the policy's answer, then the toplevel's configure that carries it.
    private func configure() {
        guard let resource, let toplevel else { return }
        let mode = switch toplevel.windows.policy.decorations(preferring: preferred) {
        case .client: ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE
        case .server: ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE
        }
        zxdg_toplevel_decoration_v1_send_configure(resource, mode.rawValue)
        toplevel.decorationChanged()
    }

    private func setMode(_ raw: UInt32) {
        guard toplevel != nil else { return orphaned() }
        switch raw {
        case ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue: preferred = .client
        case ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue: preferred = .server
        default:
            // The protocol names no error for it; wl_display's invalid_method does.
            guard let resource else { return }
            return tactile_post_error(resource, WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "set_mode: \(raw) is no zxdg_toplevel_decoration_v1.mode")
        }
        scheduleConfigure()
    }

    private func unsetMode() {
        guard toplevel != nil else { return orphaned() }
        preferred = nil
        scheduleConfigure()
    }

    /// Its toplevel was destroyed first: the protocol's `orphaned` error. Not while the
    /// client is disconnecting (its destroy listener has run): then libwayland destroys its
    /// objects in any order.
    func orphaned() {
        guard let resource, ClientState.of(wl_resource_get_client(resource)) != nil else { return }
        postError(ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue, "the xdg_toplevel was destroyed before its decoration object")
    }

    static let requests = RequestTable(zxdg_toplevel_decoration_v1_interface(
        destroy: destroyResource,
        set_mode: { _, resource, mode in ToplevelDecoration.from(resource)?.setMode(mode) },
        unset_mode: { _, resource in ToplevelDecoration.from(resource)?.unsetMode() }
    ))
}

/// zxdg_decoration_manager_v1: a toplevel's decoration object, answered by the window policy.
final class XdgDecorations: ServerPart {
    private let loop: OpaquePointer
    private var global: Global?

    init(display: OpaquePointer) {
        loop = wl_display_get_event_loop(display)
        global = Global(display: display, interface: tactile_zxdg_decoration_manager_v1_interface(), version: 1, context: self,
                        requests: Self.requests)
    }

    private static let requests = RequestTable(zxdg_decoration_manager_v1_interface(
        destroy: destroyResource,
        get_toplevel_decoration: { client, resource, id, toplevelResource in
            guard let client, let resource, let part = Global.context(of: resource, as: XdgDecorations.self),
                  let toplevel = XdgToplevel.from(toplevelResource) else { return }
            guard toplevel.decoration == nil else {
                return tactile_post_error(resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "the xdg_toplevel already has a decoration object")
            }
            guard toplevel.xdg.surface?.hasBuffer != true else {
                return tactile_post_error(resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue, "the xdg_toplevel already has a buffer")
            }
            let decoration = ToplevelDecoration(toplevel: toplevel, loop: part.loop)
            guard decoration.bind(client: client, interface: tactile_zxdg_toplevel_decoration_v1_interface(), version: 1, id: id, implementation: ToplevelDecoration.requests) else { return }
            toplevel.decoration = decoration
            decoration.scheduleConfigure()
        }
    ))
}
