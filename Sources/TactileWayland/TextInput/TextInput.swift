import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_text_input_v3: a client's text field, as the input method sees it. It is entered on
/// the surface that has keyboard focus, when that surface is its client's, so text goes
/// where keys go; a touch on an on-screen keyboard (which never takes keyboard focus) leaves
/// it where it is.
///
/// Its state is double-buffered: `commit` applies it, and counts, because every `done` the
/// input method causes names the number of commits so far.
final class TextInput: ResourceObject {
    /// What the client last committed.
    struct State {
        var isEnabled = false
        var surroundingText: (text: String, cursor: Int32, anchor: Int32)?
        var changeCause: UInt32 = 0
        var contentType: (hint: UInt32, purpose: UInt32) = (0, 0)
        var cursorRectangle: Rect?
    }

    /// Unchecked: the server outlives every resource of its display.
    unowned(unsafe) let textInputs: TextInputs
    let client: ClientID
    private var pending = State()
    private(set) var current = State()
    private(set) var commits: UInt32 = 0
    private var isEnabling = false
    /// The surface it was told it entered, while it is there.
    private(set) var entered: Surface?
    /// Its latest show_input_panel (true) or hide_input_panel (false), until focus leaves.
    private(set) var panelRequest: Bool?

    init(textInputs: TextInputs, client: ClientID) {
        self.textInputs = textInputs
        self.client = client
    }

    /// Keyboard focus moved: leave the old surface, enter the new one if it is this client's.
    func focusMoved(to surface: Surface?) {
        guard let resource, surface !== entered else { return }
        if let old = entered?.resource { zwp_text_input_v3_send_leave(resource, old) }
        // A field that loses focus is disabled until its client enables it again, and what
        // it asked of the input panel is forgotten.
        if entered != nil {
            current.isEnabled = false
            panelRequest = nil
        }
        entered = nil
        guard let surface, surface.owner.id == client, let target = surface.resource else { return }
        entered = surface
        zwp_text_input_v3_send_enter(resource, target)
    }

    /// The input method's commit, delivered in the order the protocol applies it.
    func deliver(_ edit: TextEdit) {
        guard let resource, entered != nil else { return }
        if let preedit = edit.preedit {
            zwp_text_input_v3_send_preedit_string(resource, preedit.text, preedit.begin, preedit.end)
        }
        if let delete = edit.delete { zwp_text_input_v3_send_delete_surrounding_text(resource, delete.before, delete.after) }
        if let text = edit.commit { zwp_text_input_v3_send_commit_string(resource, text) }
        zwp_text_input_v3_send_done(resource, commits)
    }

    private func commit() {
        commits &+= 1
        let wasEnabled = current.isEnabled
        current = pending
        let enabling = isEnabling
        isEnabling = false
        // Surrounding text and the change cause are sent once per commit that sets them.
        pending.surroundingText = nil
        pending.changeCause = 0
        textInputs.textInputCommitted(self, wasEnabled: wasEnabled, enabling: enabling)
    }

    /// Enabling starts over (a new field): what was set before does not carry into it, and
    /// the input method is activated again at the commit.
    private func enable() {
        pending = State(isEnabled: true)
        isEnabling = true
    }

    override func resourceDestroyed() {
        textInputs.textInputDestroyed(self)
    }

    /// Whether the input panel should hide while this field has focus: it asked so, or it
    /// says it shows its own on-screen input and did not ask for the panel.
    var hidesPanel: Bool {
        panelRequest == false || (panelRequest == nil && current.contentType.hint & ZWP_TEXT_INPUT_V3_CONTENT_HINT_ON_SCREEN_INPUT_PROVIDED.rawValue != 0)
    }

    private func requestPanel(shown: Bool) {
        panelRequest = shown
        textInputs.updatePanel()
    }

    /// Version 2's actions: only known ones, each once. Tactile's input methods
    /// (input-method-v2) cannot perform any, so they are checked and not kept.
    private func setAvailableActions(_ array: UnsafeMutablePointer<wl_array>?) {
        let size = array?.pointee.size ?? 0
        let values = (0..<size / 4).map { array!.pointee.data.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
        let known = ZWP_TEXT_INPUT_V3_ACTION_SUBMIT.rawValue
        guard size % 4 == 0, values.allSatisfy({ $0 == known }), Set(values).count == values.count else {
            return postError(ZWP_TEXT_INPUT_V3_ERROR_INVALID_ACTION.rawValue,
                             "available actions \(values) (\(size) bytes): each must be a known action other than none, listed once")
        }
    }

    static let requests = RequestTable(zwp_text_input_v3_interface(
        destroy: destroyResource,
        enable: { _, r in TextInput.from(r)?.enable() },
        disable: { _, r in TextInput.from(r)?.pending.isEnabled = false },
        set_surrounding_text: { _, r, text, cursor, anchor in
            guard let input = TextInput.from(r), let text else { return }
            input.pending.surroundingText = (String(cString: text), cursor, anchor)
        },
        set_text_change_cause: { _, r, cause in TextInput.from(r)?.pending.changeCause = cause },
        set_content_type: { _, r, hint, purpose in TextInput.from(r)?.pending.contentType = (hint, purpose) },
        set_cursor_rectangle: { _, r, x, y, width, height in
            TextInput.from(r)?.pending.cursorRectangle = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        },
        commit: { _, r in TextInput.from(r)?.commit() },
        set_available_actions: { _, r, actions in TextInput.from(r)?.setAvailableActions(actions) },
        show_input_panel: { _, r in TextInput.from(r)?.requestPanel(shown: true) },
        hide_input_panel: { _, r in TextInput.from(r)?.requestPanel(shown: false) }
    ))
}

/// What an input method commits in one go: text to show as being composed, text to delete
/// around the cursor, text to insert.
struct TextEdit {
    var preedit: (text: String, begin: Int32, end: Int32)?
    var delete: (before: UInt32, after: UInt32)?
    var commit: String?
}
