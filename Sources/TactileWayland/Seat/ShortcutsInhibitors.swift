import CWaylandServer
import Responder
import WaylandProtocols

/// Whether a client may have keyboard shortcuts inhibited (the configuration file's
/// `keyboard.shortcuts-inhibit`).
public enum ShortcutsInhibitPolicy: String, CaseIterable, Sendable {
    /// Granted: the inhibitor is active while its surface has keyboard focus.
    case grant
    /// Never active.
    case refuse
}

/// zwp_keyboard_shortcuts_inhibit_manager_v1 (remote desktops, VM viewers): a surface asks that
/// keys the compositor would take for itself reach it instead. Tactile binds no keys (its
/// gestures are touch and touchpad gestures, unaffected either way), so every key already
/// reaches the focused client; an inhibitor says `active` while its surface has keyboard
/// focus, when the configuration grants it, so clients that wait for it go on.
final class ShortcutsInhibitors: ServerPart {
    static let version: Int32 = 1
    private unowned(unsafe) let context: any PartContext
    let policy: ShortcutsInhibitPolicy
    private var inhibitors: [Weak] = []
    private var global: Global?

    private struct Weak { weak var inhibitor: ShortcutsInhibitor? }

    init(display: OpaquePointer, context: any PartContext, policy: ShortcutsInhibitPolicy) {
        self.context = context
        self.policy = policy
        global = Global(display: display, interface: tactile_zwp_keyboard_shortcuts_inhibit_manager_v1_interface(), version: Self.version,
                        context: self, requests: Self.requests)
    }

    func focusChanged(_ focus: SeatFocus) {
        inhibitors.removeAll { $0.inhibitor?.resource == nil }
        for entry in inhibitors { entry.inhibitor?.update(focus: focus.keyboard, scene: context.scene) }
    }

    private static let requests = RequestTable(zwp_keyboard_shortcuts_inhibit_manager_v1_interface(
        destroy: destroyResource,
        inhibit_shortcuts: { client, resource, id, surfaceResource, _ in
            // The seat named is the one seat there is.
            guard let client, let resource, let part = Global.context(of: resource, as: ShortcutsInhibitors.self),
                  let surface = Surface.from(surfaceResource) else { return }
            guard surface.addon(ShortcutsInhibitor.self) == nil else {
                return tactile_post_error(resource, ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue,
                                          "the wl_surface already has a keyboard shortcuts inhibitor for this seat")
            }
            let inhibitor = ShortcutsInhibitor(surface: surface, granted: part.policy == .grant)
            guard inhibitor.bind(client: client, interface: tactile_zwp_keyboard_shortcuts_inhibitor_v1_interface(), version: 1, id: id,
                                 implementation: ShortcutsInhibitor.requests) else { return }
            surface.attachAddon(inhibitor)
            part.inhibitors.append(Weak(inhibitor: inhibitor))
            inhibitor.update(focus: part.context.focus.keyboard, scene: part.context.scene)
        }
    ))
}

/// zwp_keyboard_shortcuts_inhibitor_v1: one surface's inhibitor.
final class ShortcutsInhibitor: ResourceObject, SurfaceAddon {
    private weak var surface: Surface?
    private let granted: Bool
    private var isActive = false

    init(surface: Surface, granted: Bool) {
        self.surface = surface
        self.granted = granted
    }

    /// Active while granted and the surface (or one of its subsurfaces' window) has keyboard focus.
    func update(focus: NodeID?, scene: Scene) {
        guard let resource else { return }
        let focused = focus != nil && focus == surface?.node
        let active = granted && focused
        guard active != isActive else { return }
        isActive = active
        if active { zwp_keyboard_shortcuts_inhibitor_v1_send_active(resource) } else { zwp_keyboard_shortcuts_inhibitor_v1_send_inactive(resource) }
    }

    func surfaceDestroyed(_ surface: Surface) { self.surface = nil }

    override func resourceDestroyed() { surface?.detachAddon(self) }

    static let requests = RequestTable(zwp_keyboard_shortcuts_inhibitor_v1_interface(destroy: destroyResource))
}
