import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_wm_dialog_v1: a toplevel with a parent says it is a dialog, modal or not. While a
/// modal dialog is mapped its parent takes no input (`XdgToplevel.updateModalShield`: a
/// compositor node over the parent catches what would reach it, so a touch there goes to no
/// one rather than through to the window below) and stays below it (`Windows.raise`).
final class XdgDialogs: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_xdg_wm_dialog_v1_interface(), version: Self.version, context: self, requests: Self.requests)
    }

    private static let requests = RequestTable(xdg_wm_dialog_v1_interface(
        destroy: destroyResource,
        get_xdg_dialog: { client, resource, id, toplevelResource in
            guard let client, let resource, let toplevel = XdgToplevel.from(toplevelResource) else { return }
            guard toplevel.dialog == nil else {
                return tactile_post_error(resource, XDG_WM_DIALOG_V1_ERROR_ALREADY_USED.rawValue, "the xdg_toplevel already has an xdg_dialog_v1")
            }
            let dialog = XdgDialogObject(toplevel: toplevel)
            guard dialog.bind(client: client, interface: tactile_xdg_dialog_v1_interface(), version: 1, id: id,
                              implementation: XdgDialogObject.requests) else { return }
            toplevel.dialog = dialog
        }
    ))
}

/// xdg_dialog_v1: one toplevel as a dialog; modal takes effect at once.
final class XdgDialogObject: ResourceObject {
    private(set) weak var toplevel: XdgToplevel?
    private(set) var isModal = false

    init(toplevel: XdgToplevel) { self.toplevel = toplevel }

    private func setModal(_ modal: Bool) {
        guard modal != isModal else { return }
        isModal = modal
        toplevel?.parent?.updateModalShield()
    }

    override func resourceDestroyed() { setModal(false) }

    static let requests = RequestTable(xdg_dialog_v1_interface(
        destroy: destroyResource,
        set_modal: { _, resource in XdgDialogObject.from(resource)?.setModal(true) },
        unset_modal: { _, resource in XdgDialogObject.from(resource)?.setModal(false) }
    ))
}

extension XdgToplevel {
    /// Its mapped modal dialogs, bottom to top: the window takes no input while there is one.
    var modalDialogs: [XdgToplevel] {
        windows.context.listedWindows.compactMap { $0 as? XdgToplevel }.filter { $0 !== self && $0.parent === self && $0.isModal && !$0.isClosing }
    }

    /// Whether it is a modal dialog now.
    var isModal: Bool { dialog?.isModal == true }
}
