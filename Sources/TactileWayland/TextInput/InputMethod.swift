import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_input_method_v2: the seat's one input method (an on-screen keyboard such as
/// squeekboard, or fcitx5). It is activated while the text input with keyboard focus is
/// enabled, hears that field's state, and commits text into it. A second one is told
/// `unavailable` and does nothing.
final class InputMethod: ResourceObject {
    /// Unchecked: the server outlives every resource of its display.
    unowned(unsafe) let textInputs: TextInputs
    let client: ClientID
    /// False for one that came while another was bound: it only hears `unavailable`.
    let isAvailable: Bool
    private var pending = TextEdit()
    private(set) var isActive = false
    /// Its keyboard grab, while it keeps one: real keys go there instead of to the focus.
    weak var keyboardGrab: InputMethodKeyboardGrab?

    init(textInputs: TextInputs, client: ClientID, isAvailable: Bool) {
        self.textInputs = textInputs
        self.client = client
        self.isAvailable = isAvailable
    }

    /// Activates (or, with nil, deactivates) for the focused field, and sends its state.
    func update(for input: TextInput?, activating: Bool) {
        guard let resource, isAvailable else { return }
        if activating, input != nil {
            zwp_input_method_v2_send_activate(resource)
            isActive = true
        } else if input == nil {
            guard isActive else { return }
            isActive = false
            zwp_input_method_v2_send_deactivate(resource)
            return sendDone()
        }
        guard let state = input?.current else { return }
        if let surrounding = state.surroundingText {
            // The text input's cursor and anchor are byte offsets, never negative in a sane
            // client; the input method's are unsigned.
            zwp_input_method_v2_send_surrounding_text(resource, surrounding.text, UInt32(clamping: surrounding.cursor), UInt32(clamping: surrounding.anchor))
        }
        zwp_input_method_v2_send_text_change_cause(resource, state.changeCause)
        zwp_input_method_v2_send_content_type(resource, state.contentType.hint, state.contentType.purpose)
        sendDone()
        textInputs.inputPopupsMoved()
    }

    private func sendDone() {
        guard let resource else { return }
        zwp_input_method_v2_send_done(resource)
    }

    /// Applies what was set since the last commit to the focused field. The serial (the count
    /// of `done` events the client had seen) is not checked: the protocol has a commit with an
    /// old one proceed all the same.
    private func commit() {
        let edit = pending
        pending = TextEdit()
        guard isAvailable, isActive else { return }
        textInputs.focusedTextInput?.deliver(edit)
    }

    private func grabKeyboard(_ client: OpaquePointer?, _ id: UInt32) {
        guard let client else { return }
        let grab = InputMethodKeyboardGrab(textInputs: textInputs)
        guard grab.bind(client: client, interface: tactile_zwp_input_method_keyboard_grab_v2_interface(), version: 1, id: id,
                        implementation: InputMethodKeyboardGrab.requests) else { return }
        if isAvailable, keyboardGrab == nil {
            keyboardGrab = grab
            textInputs.seat.grabs.begin(grab)
        }
        grab.start(keymap: textInputs.seat.keymap)
    }

    private func popupSurface(_ client: OpaquePointer?, _ id: UInt32, _ surfaceResource: OpaquePointer?) {
        guard let client, let surface = Surface.from(surfaceResource) else { return }
        guard !surface.hasRole else {
            return postError(ZWP_INPUT_METHOD_V2_ERROR_ROLE.rawValue, "wl_surface already has a role")
        }
        InputPopupSurface.create(client, id, surface: surface, textInputs: textInputs)
    }

    override func resourceDestroyed() {
        if let keyboardGrab { textInputs.seat.grabs.end(keyboardGrab) }
        textInputs.inputMethodDestroyed(self)
    }

    static let requests = RequestTable(zwp_input_method_v2_interface(
        commit_string: { _, r, text in
            guard let method = InputMethod.from(r), let text else { return }
            method.pending.commit = String(cString: text)
        },
        set_preedit_string: { _, r, text, begin, end in
            guard let method = InputMethod.from(r), let text else { return }
            method.pending.preedit = (String(cString: text), begin, end)
        },
        delete_surrounding_text: { _, r, before, after in InputMethod.from(r)?.pending.delete = (before, after) },
        commit: { _, r, _ in InputMethod.from(r)?.commit() },
        get_input_popup_surface: { client, r, id, surface in InputMethod.from(r)?.popupSurface(client, id, surface) },
        grab_keyboard: { client, r, id in InputMethod.from(r)?.grabKeyboard(client, id) },
        destroy: destroyResource
    ))
}

/// zwp_input_method_keyboard_grab_v2: real keys, with the seat's keymap and modifiers, go to
/// the input method while it holds this (it composes text from them, and may pass keys on
/// through a virtual keyboard).
final class InputMethodKeyboardGrab: ResourceObject, InputGrab {
    unowned(unsafe) let textInputs: TextInputs

    init(textInputs: TextInputs) { self.textInputs = textInputs }

    func start(keymap: Keymap?) {
        guard let resource else { return }
        keymap?.sendToGrab(resource)
        zwp_input_method_keyboard_grab_v2_send_repeat_info(resource, 25, 600)
    }

    func key(_ key: UInt32, _ state: PressState, time: Instant) {
        guard let resource else { return }
        let wire = state == .pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        zwp_input_method_keyboard_grab_v2_send_key(resource, textInputs.seat.serial(), time.milliseconds, key, wire.rawValue)
    }

    func modifiers(_ m: Keymap.Modifiers) {
        guard let resource else { return }
        zwp_input_method_keyboard_grab_v2_send_modifiers(resource, textInputs.seat.serial(), m.depressed, m.latched, m.locked, m.group)
    }

    /// A real key while the grab holds the keyboard goes here, not to the focus, with the
    /// modifiers when the key changed them.
    func intercept(_ event: InputEvent, modifiersChanged: Bool) -> InputEvent? {
        guard case .key(let key, let state, let time) = event else { return event }
        self.key(key, state, time: time)
        if modifiersChanged, let modifiers = textInputs.seat.keymap?.modifiers { self.modifiers(modifiers) }
        return nil
    }

    override func resourceDestroyed() {
        textInputs.seat.grabs.end(self)
    }

    static let requests = RequestTable(zwp_input_method_keyboard_grab_v2_interface(release: destroyResource))
}
