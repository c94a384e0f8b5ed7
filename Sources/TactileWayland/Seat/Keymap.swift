import CWaylandServer
import CXKBCommon
import Glibc
import Responder
import WaylandProtocols

/// The seat's XKB keymap, shared with clients as a sealed read-only memfd, and the key state
/// that turns key presses into the modifiers wl_keyboard reports.
final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    private let fd: Int32
    private let size: UInt32

    /// Nil when xkbcommon cannot compile the layout (no xkb-data, or a bad layout name).
    convenience init?(layout: KeyboardLayout) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        // Unset names fall back to XKB_DEFAULT_* inside xkbcommon, then to its built-in defaults.
        let compiled: OpaquePointer? = withNames(layout) { names in
            xkb_keymap_new_from_names(context, names, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }
        self.init(context: context, compiled: compiled)
    }

    /// A keymap a client sent as XKB text (a virtual keyboard's); nil when it does not compile.
    convenience init?(text: String) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        let compiled = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        self.init(context: context, compiled: compiled)
    }

    /// Takes `context` (released on failure) and the keymap compiled in it, and writes the
    /// keymap's text to the memfd clients map.
    private init?(context: OpaquePointer, compiled: OpaquePointer?) {
        self.context = context
        guard let keymap = compiled, let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            if let compiled { xkb_keymap_unref(compiled) }
            xkb_context_unref(context)
            return nil
        }
        defer { free(text) }
        let length = strlen(text) + 1
        let fd = tactile_memfd_create("tactile-keymap")
        guard fd >= 0, write(fd, text, length) == length, tactile_memfd_seal_readonly(fd) == 0 else {
            if fd >= 0 { close(fd) }
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        self.keymap = keymap
        self.state = xkb_state_new(keymap)
        self.fd = fd
        self.size = UInt32(length)
    }

    deinit {
        close(fd)
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    func send(to keyboard: OpaquePointer) {
        wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, size)
    }

    func sendToGrab(_ grab: OpaquePointer) {
        zwp_input_method_keyboard_grab_v2_send_keymap(grab, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, size)
    }

    /// The four fields of wl_keyboard.modifiers.
    struct Modifiers: Equatable {
        var depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32
    }

    var modifiers: Modifiers {
        Modifiers(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE)
        )
    }

    /// Sets the modifiers as a virtual keyboard states them.
    func setModifiers(_ m: Modifiers) {
        xkb_state_update_mask(state, m.depressed, m.latched, m.locked, 0, 0, m.group)
    }

    /// Feeds an evdev key code through the state; true when the modifiers changed.
    func update(key: UInt32, state pressed: PressState) -> Bool {
        let before = modifiers
        xkb_state_update_key(state, key + 8, pressed == .pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return modifiers != before
    }
}

/// Calls `body` with xkb_rule_names whose strings live for the call.
private func withNames<R>(_ layout: KeyboardLayout, _ body: (UnsafePointer<xkb_rule_names>) -> R) -> R {
    let fields = [layout.rules, layout.model, layout.layout, layout.variant, layout.options].map { $0.map { strdup($0) } ?? nil }
    defer { fields.forEach { free($0) } }
    var names = xkb_rule_names(rules: fields[0], model: fields[1], layout: fields[2], variant: fields[3], options: fields[4])
    return body(&names)
}
