import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// Which primary selection protocol a client speaks: zwp_primary_selection_v1, or GTK's
/// forerunner. The objects behind both are the same, and so are their tables: the two share
/// every request's and event's opcode and arguments, so one (zwp) request table serves both
/// and the zwp senders write both (libwayland marshals an event by the resource's own
/// interface). Only the interfaces made differ (as with `XdgFlavor`).
enum PrimaryFlavor {
    case zwp, gtk

    /// The objects a device manager makes.
    enum Object { case source, device, offer }

    init(of resource: OpaquePointer?) {
        let name = resource.flatMap { wl_resource_get_class($0) }.map { String(cString: $0) } ?? ""
        self = name.hasPrefix("gtk_") ? .gtk : .zwp
    }

    func interface(_ object: Object) -> UnsafePointer<wl_interface> {
        switch (self, object) {
        case (.zwp, .source): tactile_zwp_primary_selection_source_v1_interface()
        case (.zwp, .device): tactile_zwp_primary_selection_device_v1_interface()
        case (.zwp, .offer): tactile_zwp_primary_selection_offer_v1_interface()
        case (.gtk, .source): tactile_gtk_primary_selection_source_interface()
        case (.gtk, .device): tactile_gtk_primary_selection_device_interface()
        case (.gtk, .offer): tactile_gtk_primary_selection_offer_interface()
        }
    }
}

/// The primary selection (text selected in one client, pasted with a middle click in another):
/// the clipboard's model (`DataDevice`), except that it is offered to every client, as X11's
/// PRIMARY is readable by all and as GTK's clients (and WLCS) expect: a middle click pastes
/// into a window that did not have focus. The clipboard stays with the focused client.
extension Selections {
    /// Both device managers' requests.
    static let primarySelectionManagerRequests = RequestTable(zwp_primary_selection_device_manager_v1_interface(
        create_source: { client, manager, id in PrimarySource.create(client, manager, id) },
        get_device: { client, manager, id, _ in PrimaryDevice.create(client, manager, id) },
        destroy: destroyResource
    ))

}

/// zwp_primary_selection_source_v1 (or gtk_primary_selection_source).
final class PrimarySource: ResourceObject, SelectionSource {
    unowned(unsafe) let selections: Selections
    var offered = OfferedTypes()
    var mimeTypes: [String] { offered.list }

    init(selections: Selections) {
        self.selections = selections
    }

    static func create(_ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32) {
        guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
        PrimarySource(selections: part).bind(client: client, interface: PrimaryFlavor(of: manager).interface(.source), version: 1, id: id,
                                             implementation: requests)
    }

    func send(_ mime: String, to fd: Int32) {
        guard let resource else { return }
        zwp_primary_selection_source_v1_send_send(resource, mime, fd)
    }

    func cancel() {
        guard let resource else { return }
        zwp_primary_selection_source_v1_send_cancelled(resource)
    }

    override func resourceDestroyed() {
        selections.sourceGone(self)
    }

    private static func addType(_ resource: OpaquePointer?, _ mime: UnsafePointer<CChar>?) {
        guard let source = PrimarySource.from(resource) else { return }
        source.offered.offer(mime, by: source)
    }

    static let requests = RequestTable(zwp_primary_selection_source_v1_interface(
        offer: { _, r, mime in addType(r, mime) }, destroy: destroyResource))
}

/// zwp_primary_selection_device_v1 (or gtk_primary_selection_device).
final class PrimaryDevice: ResourceObject {
    let flavor: PrimaryFlavor
    unowned(unsafe) let selections: Selections

    init(flavor: PrimaryFlavor, selections: Selections) {
        self.flavor = flavor
        self.selections = selections
    }

    static func create(_ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32) {
        guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
        let flavor = PrimaryFlavor(of: manager)
        let device = PrimaryDevice(flavor: flavor, selections: part)
        guard device.bind(client: client, interface: flavor.interface(.device), version: 1, id: id, implementation: requests) else { return }
        part.primaryDevices.append(device)
        device.offer(part.primarySelection)
    }

    /// A new offer for `source` (none: the selection is empty), with its types.
    func offer(_ source: (any SelectionSource)?) {
        guard let resource, let client = wl_resource_get_client(resource) else { return }
        guard let source else { return zwp_primary_selection_device_v1_send_selection(resource, nil) }
        let offer = PrimaryOffer(source: source)
        guard offer.bind(client: client, interface: flavor.interface(.offer), version: 1, id: 0, implementation: PrimaryOffer.requests),
              let made = offer.resource else { return }
        zwp_primary_selection_device_v1_send_data_offer(resource, made)
        for mime in source.mimeTypes { zwp_primary_selection_offer_v1_send_offer(made, mime) }
        zwp_primary_selection_device_v1_send_selection(resource, made)
    }

    override func resourceDestroyed() {
        selections.primaryDevices.removeAll { $0 === self }
    }

    private static func setSelection(_ resource: OpaquePointer?, _ sourceResource: OpaquePointer?, _ serial: UInt32) {
        guard let device = PrimaryDevice.from(resource) else { return }
        device.selections.set(.primary, to: PrimarySource.from(sourceResource))
    }

    static let requests = RequestTable(zwp_primary_selection_device_v1_interface(
        set_selection: { _, r, source, serial in setSelection(r, source, serial) }, destroy: destroyResource))
}

/// zwp_primary_selection_offer_v1 (or gtk_primary_selection_offer): reading asks the source's
/// client to write into the reader's fd.
final class PrimaryOffer: ResourceObject {
    weak var source: (any SelectionSource)?

    init(source: any SelectionSource) { self.source = source }

    /// The fd is ours once it arrives: passed to the source, then closed here.
    private static func receive(_ resource: OpaquePointer?, _ mime: UnsafePointer<CChar>?, _ fd: Int32) {
        defer { close(fd) }
        guard let mime, let source = PrimaryOffer.from(resource)?.source else { return }
        source.send(String(cString: mime), to: fd)
    }

    static let requests = RequestTable(zwp_primary_selection_offer_v1_interface(
        receive: { _, r, mime, fd in receive(r, mime, fd) }, destroy: destroyResource))
}
