import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_activation_v1: how one client hands keyboard focus to another's window (a launcher
/// starting an app, a link opening in the browser) without letting any client take it.
///
/// A token is granted when it is made by the client that holds keyboard focus, or with the
/// serial of an input event that client was just sent (the user acted on it); any other
/// token is handed out all the same, and does nothing. `activate` with a granted token,
/// used once and within `lifetime`, raises and focuses the surface's window, or the window
/// when it first maps (`ActivatedBeforeMapping`, which `Windows.windowMapped` takes).
final class XdgActivation: ServerPart {
    static let lifetime = Duration.seconds(30)
    /// Tokens kept at once; the oldest goes past it.
    static let kept = 64
    private var global: Global?
    let windows: Windows
    private var tokens: [(name: String, granted: Bool, issued: Instant)] = []

    init(display: OpaquePointer, windows: Windows) {
        self.windows = windows
        global = Global(display: display, interface: tactile_xdg_activation_v1_interface(), version: 1, context: self, requests: Self.requests)
    }

    /// A token for `client`, granted as the type says.
    fileprivate func issue(for client: ClientID, serial: UInt32?, surface: Surface?) -> String {
        let context = windows.context
        let focused = context.keyboardFocusClient
        let recentInput = serial.map { windows.seat.isRecentInput($0, of: client) } ?? true
        let granted = focused == client && (recentInput || (surface?.node != nil && surface?.node == context.focus.keyboard))
        var generator = SystemRandomNumberGenerator()
        let name = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined(separator: "-")
        if tokens.count == Self.kept { tokens.removeFirst() }
        tokens.append((name, granted, context.currentTime))
        return name
    }

    private func activate(_ token: String, _ surface: Surface) {
        let context = windows.context
        guard let index = tokens.firstIndex(where: { $0.name == token }) else {
            return refuse(surface, "unknown-token", "an unknown or used token")
        }
        let (_, granted, issued) = tokens.remove(at: index)
        guard granted, context.currentTime - issued <= Self.lifetime else {
            return granted ? refuse(surface, "token-expired", "a token older than \(Self.lifetime)")
                : refuse(surface, "token-without-focus", "a token made without focus or a recent input serial")
        }
        if let window = surface.listedWindow, surface.node != nil, surface.hasBuffer {
            window.activate()
        } else if surface.addon(ActivatedBeforeMapping.self) == nil {
            surface.attachAddon(ActivatedBeforeMapping())
        }
    }

    private func refuse(_ surface: Surface, _ reason: String, _ why: String) {
        windows.context.logger.info("xdg_activation: \(why) for a window of \(surface.owner.id): not focused")
        if surface.listedWindow != nil, let node = surface.node, surface.hasBuffer {
            windows.withholdFocus(from: node, of: surface.owner.id, because: reason)
        }
    }


    private static let requests = RequestTable(xdg_activation_v1_interface(
        destroy: destroyResource,
        get_activation_token: { client, manager, id in
            guard let client, let activation = Global.context(of: manager, as: XdgActivation.self) else { return }
            _ = ActivationToken(activation: activation).bind(client: client, interface: tactile_xdg_activation_token_v1_interface(),
                                                            version: 1, id: id, implementation: ActivationToken.requests)
        },
        activate: { _, manager, token, surface in
            guard let token, let activation = Global.context(of: manager, as: XdgActivation.self), let surface = Surface.from(surface) else { return }
            activation.activate(String(cString: token), surface)
        }
    ))
}

/// xdg_activation_token_v1: a token being made; `commit` hands it out.
final class ActivationToken: ResourceObject {
    private unowned let activation: XdgActivation
    private var serial: UInt32?
    private weak var surface: Surface?
    private var committed = false

    init(activation: XdgActivation) { self.activation = activation }

    static let requests = RequestTable(xdg_activation_token_v1_interface(
        set_serial: { _, resource, serial, _ in from(resource)?.serial = serial },
        set_app_id: { _, _, _ in },
        set_surface: { _, resource, surface in from(resource)?.surface = Surface.from(surface) },
        commit: { client, resource in
            guard let token = from(resource), let resource, let owner = ClientState.of(client) else { return }
            guard !token.committed else {
                return tactile_post_error(resource, XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue, "the token was already committed")
            }
            token.committed = true
            xdg_activation_token_v1_send_done(resource, token.activation.issue(for: owner.id, serial: token.serial, surface: token.surface))
        },
        destroy: destroyResource
    ))
}

/// A surface activated with a granted token before its window mapped: the window takes focus
/// when it maps. It goes with the surface, so a surface destroyed first leaves nothing behind.
final class ActivatedBeforeMapping: SurfaceAddon {
    /// Whether `surface`, mapping now, was activated before it mapped (once).
    static func take(from surface: Surface) -> Bool {
        guard let activation = surface.addon(ActivatedBeforeMapping.self) else { return false }
        surface.detachAddon(activation)
        return true
    }
}
