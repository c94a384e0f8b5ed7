import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// The clipboard and the primary selection: the sources clients set, every client's devices,
/// and who is offered what. The clipboard is offered to the client with keyboard focus; the
/// primary selection to every client (`PrimarySelection.swift`).
final class Selections: ServerPart {
    private unowned(unsafe) let context: any PartContext
    /// The clipboard's current source, if a client set one.
    private(set) weak var selection: (any SelectionSource)?
    /// Every client's wl_data_device, and the client last offered the selection because it
    /// had keyboard focus.
    var dataDevices: [DataDevice] = []
    var selectionFocus: ClientID?
    /// The primary selection's source, and every client's primary selection device.
    private(set) weak var primarySelection: (any SelectionSource)?
    var primaryDevices: [PrimaryDevice] = []
    /// Every data control device (`DataControl.swift`): each hears every change of both.
    var controlDevices: [ControlDevice] = []
    private var globals: [Global] = []
    /// Every change of either selection, whoever made it: the X window manager takes X's
    /// selection for a Wayland client's.
    private let changed: Signal<SelectionKind>

    init(display: OpaquePointer, context: any PartContext, changed: Signal<SelectionKind>) {
        self.context = context
        self.changed = changed
        globals = [
            Global(display: display, interface: tactile_wl_data_device_manager_interface(), version: 3, context: self,
                   requests: Self.dataDeviceManagerRequests),
            Global(display: display, interface: tactile_zwp_primary_selection_device_manager_v1_interface(), version: 1, context: self,
                   requests: Self.primarySelectionManagerRequests),
            Global(display: display, interface: tactile_gtk_primary_selection_device_manager_interface(), version: 1, context: self,
                   requests: Self.primarySelectionManagerRequests),
            Global(display: display, interface: tactile_zwlr_data_control_manager_v1_interface(), version: 2, context: self,
                   requests: Self.dataControlManagerRequests, privilege: .clipboardControl),
            Global(display: display, interface: tactile_ext_data_control_manager_v1_interface(), version: 1, context: self,
                   requests: Self.dataControlManagerRequests, privilege: .clipboardControl),
        ]
    }

    /// A client that gained keyboard focus is offered the selection.
    func focusChanged(_ focus: SeatFocus) {
        let client = context.keyboardFocusClient
        guard client != selectionFocus else { return }
        selectionFocus = client
        if let client { offerSelection(to: client) }
    }

    /// Offers the current selection to every data device of `client`.
    func offerSelection(to client: ClientID) {
        for device in dataDevices where device.client == client { device.offerSelection(selection) }
    }

    /// The selection's source now: the one it replaced hears it is cancelled, and who is
    /// offered that selection hears of the new one (the focused client, or every client for
    /// the primary selection).
    func set(_ kind: SelectionKind, to source: (any SelectionSource)?) {
        let previous = self[kind]
        guard source !== previous else { return }
        switch kind {
        case .clipboard: selection = source
        case .primary: primarySelection = source
        }
        previous?.cancel()
        switch kind {
        case .clipboard: if let selectionFocus { offerSelection(to: selectionFocus) }
        case .primary: for device in primaryDevices { device.offer(primarySelection) }
        }
        for device in controlDevices { device.offer(kind, source) }
        changed.send(kind)
    }

    /// A source that went: its selection is empty from now on.
    func sourceGone(_ source: any SelectionSource) {
        for kind in SelectionKind.allCases where self[kind] === source { set(kind, to: nil) }
    }

    subscript(_ kind: SelectionKind) -> (any SelectionSource)? {
        switch kind {
        case .clipboard: selection
        case .primary: primarySelection
        }
    }

    fileprivate static let dataDeviceManagerRequests = RequestTable(wl_data_device_manager_interface(
        create_data_source: { client, manager, id in
            guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
            DataSource(selections: part).bind(client: client, interface: tactile_wl_data_source_interface(), version: wl_resource_get_version(manager), id: id, implementation: DataSource.requests)
        },
        get_data_device: { client, manager, id, _ in
            guard let client, let part = Global.context(of: manager, as: Selections.self), let owner = ClientState.of(client) else { return }
            let device = DataDevice(selections: part, client: owner.id)
            guard device.bind(client: client, interface: tactile_wl_data_device_interface(), version: wl_resource_get_version(manager), id: id,
                              implementation: DataDevice.requests) else { return }
            part.dataDevices.append(device)
            // A client that already has focus hears of the selection now.
            if part.selectionFocus == owner.id { device.offerSelection(part.selection) }
        }
    ))

}

final class DataSource: ResourceObject, SelectionSource {
    unowned(unsafe) let selections: Selections
    var offered = OfferedTypes()

    init(selections: Selections) { self.selections = selections }

    var mimeTypes: [String] { offered.list }

    func send(_ mime: String, to fd: Int32) {
        guard let resource else { return }
        wl_data_source_send_send(resource, mime, fd)
    }

    func cancel() {
        guard let resource else { return }
        wl_data_source_send_cancelled(resource)
    }

    override func resourceDestroyed() {
        selections.sourceGone(self)
    }

    static let requests = RequestTable(wl_data_source_interface(
        offer: { _, resource, mime in
            guard let source = DataSource.from(resource) else { return }
            source.offered.offer(mime, by: source)
        },
        destroy: destroyResource,
        set_actions: { _, _, _ in }
    ))
}

/// wl_data_device: where a client sets the selection, and hears of the one it is offered.
final class DataDevice: ResourceObject {
    /// Unchecked for the same reason as the other back-references: it dies with the display.
    unowned(unsafe) let selections: Selections
    let client: ClientID

    init(selections: Selections, client: ClientID) {
        self.selections = selections
        self.client = client
    }

    /// A new wl_data_offer for `source` (or none: the selection is empty), with its types.
    func offerSelection(_ source: (any SelectionSource)?) {
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
        selections.dataDevices.removeAll { $0 === self }
    }

    private func setSelection(_ sourceResource: OpaquePointer?) {
        selections.set(.clipboard, to: DataSource.from(sourceResource))
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
    weak var source: (any SelectionSource)?

    init(source: any SelectionSource) { self.source = source }

    /// The fd is ours once it arrives: passed to the source, then closed here.
    func receive(_ mime: UnsafePointer<CChar>?, _ fd: Int32) {
        defer { close(fd) }
        guard let mime, let source else { return }
        source.send(String(cString: mime), to: fd)
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
