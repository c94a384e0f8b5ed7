import Responder

/// xdg_popup.grab: the popups holding a grab, the topmost last. While any does, the grab is
/// on the seat, and a press delivered to another client dismisses them all, topmost first.
final class PopupGrab: InputGrab {
    private let seat: Seat
    private var popups: [XdgPopup] = []

    init(seat: Seat) { self.seat = seat }

    func add(_ popup: XdgPopup) {
        popups.append(popup)
        seat.grabs.begin(self)
    }

    func remove(_ popup: XdgPopup) {
        popups.removeAll { $0 === popup }
        if popups.isEmpty { seat.grabs.end(self) }
    }

    /// A press went to `client`: outside the grab if the grabbing client is another one.
    func pressDelivered(to client: ClientID) {
        guard let top = popups.last, top.xdg.surface?.owner.id != client else { return }
        dismiss()
    }

    /// Tells every grabbing popup, topmost first, that it is dismissed. The popups stay
    /// until their client destroys them; the grab ends now.
    func dismiss() {
        let dismissed = popups
        popups.removeAll()
        seat.grabs.end(self)
        for popup in dismissed.reversed() { popup.sendDone() }
    }
}

extension Windows {
    /// A grabbing popup mapped: its node becomes a keyboard focus root, and it takes focus.
    func startGrab(of popup: XdgPopup) {
        guard let node = popup.xdg.surface?.node else { return }
        popupGrab.add(popup)
        context.updateScene { $0.update(node) { $0.isToplevel = true } }
        context.focusKeyboard(on: node, because: "popup-grab")
    }

    func endGrab(of popup: XdgPopup) {
        popupGrab.remove(popup)
    }
}
