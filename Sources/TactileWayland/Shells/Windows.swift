/// The window manager's state: its policy, the popups holding a grab, the window shown as
/// activated, the interactive move or resize under way, the layer surfaces, and the docks
/// that list windows (foreign toplevel management).
final class Windows {
    var policy: any WindowPolicy
    /// Popups holding a grab, the topmost last.
    var popupGrabs: [XdgPopup] = []
    /// The toplevel last configured as activated.
    weak var activated: XdgToplevel?
    /// The window (of any shell) holding keyboard focus, as docks were last told.
    weak var focusedWindow: ListedWindow?
    var interactiveGrab: InteractiveGrab?
    let layers = Layers()
    let foreignToplevels = ForeignToplevels()

    init(policy: any WindowPolicy) {
        self.policy = policy
    }
}
