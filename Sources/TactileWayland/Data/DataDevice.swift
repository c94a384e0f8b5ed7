import CWaylandServer
import Glibc
import Responder

extension WaylandServer {
    /// wl_data_device_manager: the clipboard. A client sets the selection from its source;
    /// the client with keyboard focus is offered it (when it gains focus, and whenever the
    /// selection changes while it has focus) and reads it through the offer, straight from
    /// the source's client. Drags are cancelled at once: there is no drag and drop yet.
    static let dataDeviceManagerRequests = RequestTable(wl_data_device_manager_interface(
        create_data_source: { client, manager, id in
            guard let client, let server = WaylandServer.from(manager) else { return }
            DataSource(seat: server.seat).bind(client: client, interface: tactile_wl_data_source_interface(), version: wl_resource_get_version(manager), id: id, implementation: DataSource.requests)
        },
        get_data_device: { client, manager, id, _ in
            guard let client, let server = WaylandServer.from(manager), let owner = ClientState.of(client) else { return }
            let device = DataDevice(seat: server.seat, client: owner.id)
            guard device.bind(client: client, interface: tactile_wl_data_device_interface(), version: wl_resource_get_version(manager), id: id,
                              implementation: DataDevice.requests) else { return }
            server.seat.dataDevices.append(device)
            // A client that already has focus hears of the selection now.
            if server.seat.selectionFocus == owner.id { device.offerSelection(server.seat.selection) }
        }
    ))

    /// After every routing step: a client that gained keyboard focus is offered the selection.
    func updateSelectionFocus() {
        let client = router.keyboardFocus.flatMap { surface(at: $0)?.owner.id }
        guard client != seat.selectionFocus else { return }
        seat.selectionFocus = client
        if let client { seat.offerSelection(to: client) }
    }
}

extension Seat {
    /// Offers the current selection to every data device of `client`.
    func offerSelection(to client: ClientID) {
        for device in dataDevices where device.client == client { device.offerSelection(selection) }
    }

    /// The selection changed (set, replaced, or its source went): the focused client hears.
    func selectionChanged() {
        if let selectionFocus { offerSelection(to: selectionFocus) }
    }
}

/// wl_data_source: the MIME types a client offers, and where readers' fds go.
final class DataSource: ResourceObject {
    unowned(unsafe) let seat: Seat
    var mimeTypes: [String] = []

    init(seat: Seat) { self.seat = seat }

    override func resourceDestroyed() {
        guard seat.selection === self else { return }
        seat.selection = nil
        seat.selectionChanged()
    }

    static let requests = RequestTable(wl_data_source_interface(
        offer: { _, resource, mime in
            guard let mime else { return }
            DataSource.from(resource)?.mimeTypes.append(String(cString: mime))
        },
        destroy: destroyResource,
        set_actions: { _, _, _ in }
    ))
}

/// wl_data_device: where a client sets the selection, and hears of the one it is offered.
final class DataDevice: ResourceObject {
    /// Unchecked for the same reason as the other back-references: it dies with the display.
    unowned(unsafe) let seat: Seat
    let client: ClientID

    init(seat: Seat, client: ClientID) {
        self.seat = seat
        self.client = client
    }

    /// A new wl_data_offer for `source` (or none: the selection is empty), with its types.
    func offerSelection(_ source: DataSource?) {
        guard let resource, let client = wl_resource_get_client(resource) else { return }
        guard let source else { return wl_data_device_send_selection(resource, nil) }
        let offer = DataOffer(source: source)
        guard offer.bind(client: client, interface: tactile_wl_data_offer_interface(), version: version, id: 0,
                         implementation: DataOffer.requests), let made = offer.resource else { return }
        wl_data_device_send_data_offer(resource, made)
        for mime in source.mimeTypes { wl_data_offer_send_offer(made, mime) }
        wl_data_device_send_selection(resource, made)
    }

    override func resourceDestroyed() {
        seat.dataDevices.removeAll { $0 === self }
    }

    private func setSelection(_ sourceResource: OpaquePointer?) {
        let previous = seat.selection
        let source = DataSource.from(sourceResource)
        guard source !== previous else { return }
        seat.selection = source
        if let old = previous?.resource { wl_data_source_send_cancelled(old) }
        seat.selectionChanged()
    }

    static let requests = RequestTable(wl_data_device_interface(
        start_drag: { _, _, source, _, _, _ in
            if let source { wl_data_source_send_cancelled(source) }
        },
        set_selection: { _, resource, source, _ in DataDevice.from(resource)?.setSelection(source) },
        release: destroyResource
    ))
}

/// wl_data_offer: one client's handle on the selection; reading it asks the source's client
/// to write into the reader's fd.
final class DataOffer: ResourceObject {
    weak var source: DataSource?

    init(source: DataSource) { self.source = source }

    /// The fd is ours once it arrives: passed to the source's client, then closed here.
    private func receive(_ mime: UnsafePointer<CChar>?, _ fd: Int32) {
        defer { close(fd) }
        guard let mime, let source = source?.resource else { return }
        wl_data_source_send_send(source, mime, fd)
    }

    static let requests = RequestTable(wl_data_offer_interface(
        accept: { _, _, _, _ in },
        receive: { _, r, mime, fd in
            guard let offer = DataOffer.from(r) else { close(fd); return }
            offer.receive(mime, fd)
        },
        destroy: destroyResource,
        finish: { _, _ in },
        set_actions: { _, _, _, _ in }
    ))
}
