import CWaylandServer
import Responder
import WaylandProtocols

/// The seat's text inputs, its input method and the input method's popups.
final class TextInputs {
    var all: [TextInput] = []
    var inputMethod: InputMethod?
    var popups: [InputPopupSurface] = []
    /// The surface text inputs were last told has keyboard focus.
    weak var focusedSurface: Surface?
}

/// Text input follows keyboard focus: the text inputs of the client whose surface has it are
/// entered there, every other one left. The input method is active while the entered field
/// is enabled, hears its state at each of its commits, and types into it. An on-screen
/// keyboard's layer surface never takes keyboard focus (`LayerSurface`), so typing on it
/// keeps the field where it is.
extension WaylandServer {
    var textInputs: TextInputs { seat.textInputs }

    /// The enabled text field with keyboard focus, which the input method types into.
    var focusedTextInput: TextInput? {
        textInputs.all.first { $0.entered != nil && $0.current.isEnabled }
    }

    var inputMethodIsActive: Bool { textInputs.inputMethod?.isActive ?? false }

    static let textInputManagerRequests = RequestTable(zwp_text_input_manager_v3_interface(
        destroy: destroyResource,
        get_text_input: { client, manager, id, _ in
            guard let client, let server = WaylandServer.from(manager), let owner = ClientState.of(client) else { return }
            let input = TextInput(server: server, client: owner.id)
            guard input.bind(client: client, interface: tactile_zwp_text_input_v3_interface(), version: 1, id: id,
                             implementation: TextInput.requests) else { return }
            server.textInputs.all.append(input)
            input.focusMoved(to: server.textInputs.focusedSurface)
        }
    ))

    static let inputMethodManagerRequests = RequestTable(zwp_input_method_manager_v2_interface(
        get_input_method: { client, manager, _, id in
            guard let client, let server = WaylandServer.from(manager), let owner = ClientState.of(client) else { return }
            let available = server.textInputs.inputMethod == nil
            let method = InputMethod(server: server, client: owner.id, isAvailable: available)
            guard method.bind(client: client, interface: tactile_zwp_input_method_v2_interface(), version: 1, id: id,
                              implementation: InputMethod.requests), let resource = method.resource else { return }
            guard available else {
                server.logger.info("input method: one is bound already; the new one is unavailable")
                return zwp_input_method_v2_send_unavailable(resource)
            }
            server.textInputs.inputMethod = method
            if let field = server.focusedTextInput { method.update(for: field, activating: true) }
        },
        destroy: destroyResource
    ))

    /// After every routing step: keyboard focus moved, so text inputs leave and enter, and
    /// the input method deactivates for the field that lost it (the new field activates it
    /// once its client enables it there).
    func updateTextInputFocus() {
        let surface = router.keyboardFocus.flatMap { self.surface(at: $0) }
        guard surface !== textInputs.focusedSurface else { return }
        let wasActive = focusedTextInput != nil
        textInputs.focusedSurface = surface
        for input in textInputs.all { input.focusMoved(to: surface) }
        if wasActive { textInputs.inputMethod?.update(for: nil, activating: false) }
        inputPopupsMoved()
    }

    /// A text input committed: the input method activates for a field newly enabled, hears a
    /// changed state, or deactivates for a field disabled.
    func textInputCommitted(_ input: TextInput, wasEnabled: Bool, enabling: Bool) {
        guard input.entered != nil, let method = textInputs.inputMethod else { return }
        switch (wasEnabled, input.current.isEnabled) {
        case (_, true) where enabling || !method.isActive: method.update(for: input, activating: true)
        case (true, true): method.update(for: input, activating: false)
        case (true, false): method.update(for: nil, activating: false)
        default: break
        }
    }

    func textInputDestroyed(_ input: TextInput) {
        let wasActive = input === focusedTextInput
        textInputs.all.removeAll { $0 === input }
        if wasActive { textInputs.inputMethod?.update(for: nil, activating: false) }
    }

    func inputMethodDestroyed(_ method: InputMethod) {
        guard textInputs.inputMethod === method else { return }
        textInputs.inputMethod = nil
        inputPopupsMoved()
    }

    /// The active field or its cursor changed: the input method's popups follow.
    func inputPopupsMoved() {
        for popup in textInputs.popups { popup.place() }
    }

    /// A real key while the input method grabs the keyboard: it goes there, not to the focus.
    /// True when it was taken.
    func keyToInputMethodGrab(_ key: UInt32, _ state: PressState, time: Instant, modifiersChanged: Bool) -> Bool {
        guard let grab = textInputs.inputMethod?.keyboardGrab else { return false }
        grab.key(key, state, time: time)
        if modifiersChanged, let modifiers = seat.keymap?.modifiers { grab.modifiers(modifiers) }
        return true
    }
}
