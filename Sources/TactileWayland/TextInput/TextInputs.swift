import CWaylandServer
import Responder
import WaylandProtocols

/// Text input and the input method: the seat's text fields, its input method and the input
/// method's popups.
///
/// Text input follows keyboard focus: the text inputs of the client whose surface has it are
/// entered there, every other one left. The input method is active while the entered field
/// is enabled, hears its state at each of its commits, and types into it. An on-screen
/// keyboard's layer surface never takes keyboard focus (`LayerSurface`), so typing on it
/// keeps the field where it is.
final class TextInputs: ServerPart {
    private unowned(unsafe) let context: any PartContext
    let seat: Seat
    var all: [TextInput] = []
    var inputMethod: InputMethod?
    var popups: [InputPopupSurface] = []
    /// The surface text inputs were last told has keyboard focus.
    weak var focusedSurface: Surface?
    /// Where the input panel (the input method's layer surfaces) is hidden.
    private let layers: Layers
    private var globals: [Global] = []

    /// An enabled field's cursor rectangle, in layout pixels, as its app committed it (zoom
    /// by touch follows it).
    var fieldCursorMoved: (Rect) -> Void = { _ in }

    init(display: OpaquePointer, context: any PartContext, seat: Seat, layers: Layers) {
        self.context = context
        self.seat = seat
        self.layers = layers
        globals = [
            Global(display: display, interface: tactile_zwp_text_input_manager_v3_interface(), version: 2, context: self,
                   requests: Self.textInputManagerRequests),
            Global(display: display, interface: tactile_zwp_input_method_manager_v2_interface(), version: 1, context: self,
                   requests: Self.inputMethodManagerRequests, privilege: .inputMethod),
        ]
    }

    /// The enabled text field with keyboard focus, which the input method types into.
    var focusedTextInput: TextInput? {
        all.first { $0.entered != nil && $0.current.isEnabled }
    }

    var inputMethodIsActive: Bool { inputMethod?.isActive ?? false }

    private static let textInputManagerRequests = RequestTable(zwp_text_input_manager_v3_interface(
        destroy: destroyResource,
        get_text_input: { client, manager, id, _ in
            guard let client, let part = Global.context(of: manager, as: TextInputs.self), let owner = ClientState.of(client) else { return }
            let input = TextInput(textInputs: part, client: owner.id)
            guard input.bind(client: client, interface: tactile_zwp_text_input_v3_interface(), version: wl_resource_get_version(manager), id: id,
                             implementation: TextInput.requests) else { return }
            part.all.append(input)
            input.focusMoved(to: part.focusedSurface)
        }
    ))

    private static let inputMethodManagerRequests = RequestTable(zwp_input_method_manager_v2_interface(
        get_input_method: { client, manager, _, id in
            guard let client, let part = Global.context(of: manager, as: TextInputs.self), let owner = ClientState.of(client) else { return }
            let available = part.inputMethod == nil
            let method = InputMethod(textInputs: part, client: owner.id, isAvailable: available)
            guard method.bind(client: client, interface: tactile_zwp_input_method_v2_interface(), version: 1, id: id,
                              implementation: InputMethod.requests), let resource = method.resource else { return }
            guard available else {
                part.context.logger.info("input method: one is bound already; the new one is unavailable")
                return zwp_input_method_v2_send_unavailable(resource)
            }
            part.inputMethod = method
            if let field = part.focusedTextInput { method.update(for: field, activating: true) }
            part.updatePanel()
        },
        destroy: destroyResource
    ))

    /// Keyboard focus moved, so text inputs leave and enter, and
    /// the input method deactivates for the field that lost it (the new field activates it
    /// once its client enables it there).
    func focusChanged(_ focus: SeatFocus) {
        let surface = focus.keyboard.flatMap { context.surface(at: $0) }
        guard surface !== focusedSurface else { return }
        let wasActive = focusedTextInput != nil
        focusedSurface = surface
        for input in all { input.focusMoved(to: surface) }
        if wasActive { inputMethod?.update(for: nil, activating: false) }
        inputPopupsMoved()
        updatePanel()
    }

    /// A text input committed: the input method activates for a field newly enabled, hears a
    /// changed state, or deactivates for a field disabled.
    func textInputCommitted(_ input: TextInput, wasEnabled: Bool, enabling: Bool) {
        defer { updatePanel() }
        if input.current.isEnabled, let cursor = input.current.cursorRectangle, let node = input.entered?.node,
           let origin = context.scene.absolutePosition(of: node) {
            fieldCursorMoved(cursor.offset(by: origin))
        }
        guard input.entered != nil, let method = inputMethod else { return }
        switch (wasEnabled, input.current.isEnabled) {
        case (_, true) where enabling || !method.isActive: method.update(for: input, activating: true)
        case (true, true): method.update(for: input, activating: false)
        case (true, false): method.update(for: nil, activating: false)
        default: break
        }
    }

    func textInputDestroyed(_ input: TextInput) {
        let wasActive = input === focusedTextInput
        all.removeAll { $0 === input }
        if wasActive { inputMethod?.update(for: nil, activating: false) }
        updatePanel()
    }

    func inputMethodDestroyed(_ method: InputMethod) {
        guard inputMethod === method else { return }
        inputMethod = nil
        inputPopupsMoved()
        updatePanel()
    }

    /// The input panel (the on-screen keyboard: the input method's layer surfaces) hides
    /// while the focused, enabled field asks it away (text-input-v3 2's hide_input_panel, or
    /// its on_screen_input_provided hint without a show_input_panel), and shows again when
    /// the field asks for it, is disabled or loses focus.
    func updatePanel() {
        let field = focusedTextInput
        let hidden = field?.hidesPanel == true ? inputMethod?.client : nil
        guard hidden != layers.hiddenPanel else { return }
        layers.hiddenPanel = hidden
        if let field {
            let why = field.panelRequest == false ? "hide_input_panel" : field.panelRequest == true ? "show_input_panel" : "its content hint"
            let pid = field.entered.map { "pid \($0.owner.pid)" } ?? "client \(field.client.rawValue)"
            context.logger.info("input panel: \(hidden != nil ? "hidden" : "shown") for the text field of \(pid) (\(why))")
        } else {
            context.logger.info("input panel: shown (no text field asks otherwise)")
        }
    }

    /// The active field or its cursor changed: the input method's popups follow.
    func inputPopupsMoved() {
        for popup in popups { popup.place() }
    }
}
