/// The window manager's state: its policy, the popups holding a grab, the window shown as
/// activated, the interactive move or resize under way, and the layer surfaces.
final class Windows {
    var policy: any WindowPolicy
    /// Popups holding a grab, the topmost last.
    var popupGrabs: [XdgPopup] = []
    /// The toplevel last configured as activated.
    weak var activated: XdgToplevel?
    var interactiveGrab: InteractiveGrab?
    let layers = Layers()

    init(policy: any WindowPolicy) {
        self.policy = policy
    }
}
