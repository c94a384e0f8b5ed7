import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// Which data control protocol a client speaks: zwlr_data_control_manager_v1 (wl-clipboard,
/// wayvnc) or its standard successor ext_data_control_manager_v1. Their messages are the same
/// in opcode and arguments, so one (wlr) request table serves both and the wlr senders write
/// both; only the interfaces made differ (as `PrimaryFlavor`'s do).
enum DataControlFlavor {
    case wlr, ext

    enum Object { case source, device, offer }

    init(of resource: OpaquePointer?) {
        let name = resource.flatMap { wl_resource_get_class($0) }.map { String(cString: $0) } ?? ""
        self = name.hasPrefix("ext_") ? .ext : .wlr
    }

    func interface(_ object: Object) -> UnsafePointer<wl_interface> {
        switch (self, object) {
        case (.wlr, .source): tactile_zwlr_data_control_source_v1_interface()
        case (.wlr, .device): tactile_zwlr_data_control_device_v1_interface()
        case (.wlr, .offer): tactile_zwlr_data_control_offer_v1_interface()
        case (.ext, .source): tactile_ext_data_control_source_v1_interface()
        case (.ext, .device): tactile_ext_data_control_device_v1_interface()
        case (.ext, .offer): tactile_ext_data_control_offer_v1_interface()
        }
    }
}

/// Clipboard control (`privileges.clipboard-control`): a client without a window sets either
/// selection and hears every change of both, whatever has keyboard focus. So wl-copy needs
/// no surface of its own to be focused, which a kiosk's focus rules would not give it.
extension Selections {
    static let dataControlManagerRequests = RequestTable(zwlr_data_control_manager_v1_interface(
        create_data_source: { client, manager, id in
            guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
            ControlSource(selections: part).bind(client: client, interface: DataControlFlavor(of: manager).interface(.source), version: 1, id: id,
                                                 implementation: ControlSource.requests)
        },
        get_data_device: { client, manager, id, _ in
            guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
            let device = ControlDevice(selections: part)
            guard device.bind(client: client, interface: DataControlFlavor(of: manager).interface(.device), version: wl_resource_get_version(manager),
                              id: id, implementation: ControlDevice.requests) else { return }
            part.controlDevices.append(device)
            for kind in SelectionKind.allCases { device.offer(kind, part[kind]) }
        },
        destroy: destroyResource
    ))
}

/// zwlr_data_control_source_v1 (or ext_): data for one selection, once.
final class ControlSource: ResourceObject, SelectionSource {
    unowned(unsafe) let selections: Selections
    var offered = OfferedTypes()
    /// Given to a selection: no more types, and never given again.
    fileprivate(set) var used = false
    var mimeTypes: [String] { offered.list }

    init(selections: Selections) { self.selections = selections }

    func send(_ mime: String, to fd: Int32) {
        guard let resource else { return }
        zwlr_data_control_source_v1_send_send(resource, mime, fd)
    }

    func cancel() {
        guard let resource else { return }
        zwlr_data_control_source_v1_send_cancelled(resource)
    }

    override func resourceDestroyed() { selections.sourceGone(self) }

    static let requests = RequestTable(zwlr_data_control_source_v1_interface(
        offer: { _, resource, mime in
            guard let source = ControlSource.from(resource) else { return }
            guard !source.used else {
                return source.postError(ZWLR_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER.rawValue, "offer after the source was set as a selection")
            }
            source.offered.offer(mime, by: source)
        },
        destroy: destroyResource
    ))
}

/// zwlr_data_control_device_v1 (or ext_): one client's control of the seat's selections.
final class ControlDevice: ResourceObject {
    unowned(unsafe) let selections: Selections

    init(selections: Selections) { self.selections = selections }

    /// Whether it hears of the primary selection: wlr's since version 2, ext's always.
    private var hearsPrimary: Bool {
        guard let resource else { return false }
        return DataControlFlavor(of: resource) == .ext || version >= 2
    }

    /// A new offer for `source` (none: the selection is empty), with its types.
    func offer(_ kind: SelectionKind, _ source: (any SelectionSource)?) {
        guard let resource, let client = wl_resource_get_client(resource), kind == .clipboard || hearsPrimary else { return }
        var made: OpaquePointer?
        if let source {
            let offer = DataOffer(source: source)
            guard offer.bind(client: client, interface: DataControlFlavor(of: resource).interface(.offer), version: 1, id: 0,
                             implementation: Self.offerRequests), let offered = offer.resource else { return }
            zwlr_data_control_device_v1_send_data_offer(resource, offered)
            for mime in source.mimeTypes { zwlr_data_control_offer_v1_send_offer(offered, mime) }
            made = offered
        }
        switch kind {
        case .clipboard: zwlr_data_control_device_v1_send_selection(resource, made)
        case .primary: zwlr_data_control_device_v1_send_primary_selection(resource, made)
        }
    }

    override func resourceDestroyed() {
        selections.controlDevices.removeAll { $0 === self }
    }

    private func set(_ kind: SelectionKind, _ sourceResource: OpaquePointer?) {
        let source = ControlSource.from(sourceResource)
        if let source {
            guard !source.used else {
                return postError(ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE.rawValue, "the source was given to a selection before")
            }
            source.used = true
        }
        selections.set(kind, to: source)
    }

    static let requests = RequestTable(zwlr_data_control_device_v1_interface(
        set_selection: { _, resource, source in ControlDevice.from(resource)?.set(.clipboard, source) },
        destroy: destroyResource,
        set_primary_selection: { _, resource, source in ControlDevice.from(resource)?.set(.primary, source) }
    ))

    /// The offer's requests: its reading is wl_data_offer's (`DataOffer`).
    static let offerRequests = RequestTable(zwlr_data_control_offer_v1_interface(
        receive: { _, resource, mime, fd in
            guard let offer = DataOffer.from(resource) else {
                close(fd)
                return
            }
            offer.receive(mime, fd)
        },
        destroy: destroyResource
    ))
}
