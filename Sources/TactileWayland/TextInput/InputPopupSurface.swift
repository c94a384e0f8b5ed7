import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_input_popup_surface_v2: an input method's candidate list, shown just under the cursor
/// of the focused text field while the input method is active, as a child of the field's
/// surface (so it stacks and moves with that window).
final class InputPopupSurface: ResourceObject, SurfaceRole {
    weak var surface: Surface?
    private unowned(unsafe) let textInputs: TextInputs
    let roleName = "input-popup"
    /// Where it was put last: the parent node and its position there.
    private var placement: (parent: NodeID, at: Position)?

    var isMapped: Bool { resource != nil && placement != nil }

    init(surface: Surface, textInputs: TextInputs) {
        self.surface = surface
        self.textInputs = textInputs
    }

    static func create(_ client: OpaquePointer, _ id: UInt32, surface: Surface, textInputs: TextInputs) {
        let popup = InputPopupSurface(surface: surface, textInputs: textInputs)
        guard popup.bind(client: client, interface: tactile_zwp_input_popup_surface_v2_interface(), version: 1, id: id,
                         implementation: requests) else { return }
        surface.role = popup
        textInputs.popups.append(popup)
        popup.place()
    }

    /// Under the focused field's cursor rectangle (its surface's top left without one), or
    /// nowhere while no field is active.
    func place() {
        guard let surface, let resource else { return }
        let field = textInputs.inputMethodIsActive ? textInputs.focusedTextInput : nil
        guard let parent = field?.entered?.node else {
            if placement != nil { surface.removeNode() }
            placement = nil
            return
        }
        let cursor = field?.current.cursorRectangle ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let at = Position(x: cursor.x, y: cursor.y).saturatingAdd(Position(x: 0, y: cursor.height))
        guard placement?.parent != parent || placement?.at != at else { return }
        if placement != nil { surface.removeNode() }
        placement = (parent, at)
        surface.createNode(.surface(of: surface.owner.id, position: at, isMapped: false), under: parent)
        zwp_input_popup_surface_v2_send_text_input_rectangle(resource, 0, Int32(clamping: -cursor.height),
                                                              Int32(clamping: cursor.width), Int32(clamping: cursor.height))
    }

    func committed(surface: Surface, hadBuffer: Bool) {}

    func surfaceDestroyed() {
        textInputs.popups.removeAll { $0 === self }
    }

    override func resourceDestroyed() {
        guard let surface else { return }
        textInputs.popups.removeAll { $0 === self }
        surface.removeNode()
    }

    static let requests = RequestTable(zwp_input_popup_surface_v2_interface(destroy: destroyResource))
}
