import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// Which primary selection protocol a client speaks: zwp_primary_selection_v1, or GTK's
/// forerunner. The objects behind both are the same and their requests share opcodes and
/// arguments; only interfaces and senders differ (as with `XdgFlavor`).
enum PrimaryFlavor {
    case zwp, gtk

    init(of resource: OpaquePointer?) {
        let name = resource.flatMap { wl_resource_get_class($0) }.map { String(cString: $0) } ?? ""
        self = name.hasPrefix("gtk_") ? .gtk : .zwp
    }
}

/// The primary selection (text selected in one client, pasted with a middle click in another):
/// the clipboard's model (`DataDevice`), except that it is offered to every client, as X11's
/// PRIMARY is readable by all and as GTK's clients (and WLCS) expect: a middle click pastes
/// into a window that did not have focus. The clipboard stays with the focused client.
extension Selections {
    static let primarySelectionManagerRequests = RequestTable(zwp_primary_selection_device_manager_v1_interface(
        create_source: { client, manager, id in PrimarySource.create(client, manager, id) },
        get_device: { client, manager, id, _ in PrimaryDevice.create(client, manager, id) },
        destroy: destroyResource
    ))
    static let gtkPrimarySelectionManagerRequests = RequestTable(gtk_primary_selection_device_manager_interface(
        create_source: { client, manager, id in PrimarySource.create(client, manager, id) },
        get_device: { client, manager, id, _ in PrimaryDevice.create(client, manager, id) },
        destroy: destroyResource
    ))

    func primarySelectionChanged() {
        for device in primaryDevices { device.offer(primarySelection) }
    }
}

/// zwp_primary_selection_source_v1 (or gtk_primary_selection_source).
final class PrimarySource: ResourceObject {
    let flavor: PrimaryFlavor
    unowned(unsafe) let selections: Selections
    var mimeTypes: [String] = []

    init(flavor: PrimaryFlavor, selections: Selections) {
        self.flavor = flavor
        self.selections = selections
    }

    static func create(_ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32) {
        guard let client, let part = Global.context(of: manager, as: Selections.self) else { return }
        let flavor = PrimaryFlavor(of: manager)
        let source = PrimarySource(flavor: flavor, selections: part)
        switch flavor {
        case .zwp: source.bind(client: client, interface: tactile_zwp_primary_selection_source_v1_interface(), version: 1, id: id, implementation: zwpRequests)
        case .gtk: source.bind(client: client, interface: tactile_gtk_primary_selection_source_interface(), version: 1, id: id, implementation: gtkRequests)
        }
    }

    func send(_ mime: UnsafePointer<CChar>, _ fd: Int32) {
        guard let resource else { return }
        switch flavor {
        case .zwp: zwp_primary_selection_source_v1_send_send(resource, mime, fd)
        case .gtk: gtk_primary_selection_source_send_send(resource, mime, fd)
        }
    }

    func cancel() {
        guard let resource else { return }
        switch flavor {
        case .zwp: zwp_primary_selection_source_v1_send_cancelled(resource)
        case .gtk: gtk_primary_selection_source_send_cancelled(resource)
        }
    }

    override func resourceDestroyed() {
        guard selections.primarySelection === self else { return }
        selections.primarySelection = nil
        selections.primarySelectionChanged()
    }

    private static func addType(_ resource: OpaquePointer?, _ mime: UnsafePointer<CChar>?) {
        guard let mime else { return }
        PrimarySource.from(resource)?.mimeTypes.append(String(cString: mime))
    }

    static let zwpRequests = RequestTable(zwp_primary_selection_source_v1_interface(
        offer: { _, r, mime in addType(r, mime) }, destroy: destroyResource))
    static let gtkRequests = RequestTable(gtk_primary_selection_source_interface(
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
        let bound = switch flavor {
        case .zwp: device.bind(client: client, interface: tactile_zwp_primary_selection_device_v1_interface(), version: 1, id: id, implementation: zwpRequests)
        case .gtk: device.bind(client: client, interface: tactile_gtk_primary_selection_device_interface(), version: 1, id: id, implementation: gtkRequests)
        }
        guard bound else { return }
        part.primaryDevices.append(device)
        device.offer(part.primarySelection)
    }

    /// A new offer for `source` (none: the selection is empty), with its types.
    func offer(_ source: PrimarySource?) {
        guard let resource, let client = wl_resource_get_client(resource) else { return }
        guard let source else {
            switch flavor {
            case .zwp: zwp_primary_selection_device_v1_send_selection(resource, nil)
            case .gtk: gtk_primary_selection_device_send_selection(resource, nil)
            }
            return
        }
        let offer = PrimaryOffer(source: source)
        let bound = switch flavor {
        case .zwp: offer.bind(client: client, interface: tactile_zwp_primary_selection_offer_v1_interface(), version: 1, id: 0, implementation: PrimaryOffer.zwpRequests)
        case .gtk: offer.bind(client: client, interface: tactile_gtk_primary_selection_offer_interface(), version: 1, id: 0, implementation: PrimaryOffer.gtkRequests)
        }
        guard bound, let made = offer.resource else { return }
        switch flavor {
        case .zwp:
            zwp_primary_selection_device_v1_send_data_offer(resource, made)
            for mime in source.mimeTypes { zwp_primary_selection_offer_v1_send_offer(made, mime) }
            zwp_primary_selection_device_v1_send_selection(resource, made)
        case .gtk:
            gtk_primary_selection_device_send_data_offer(resource, made)
            for mime in source.mimeTypes { gtk_primary_selection_offer_send_offer(made, mime) }
            gtk_primary_selection_device_send_selection(resource, made)
        }
    }

    override func resourceDestroyed() {
        selections.primaryDevices.removeAll { $0 === self }
    }

    private static func setSelection(_ resource: OpaquePointer?, _ sourceResource: OpaquePointer?, _ serial: UInt32) {
        guard let device = PrimaryDevice.from(resource) else { return }
        let selections = device.selections
        let source = PrimarySource.from(sourceResource)
        guard source !== selections.primarySelection else { return }
        let previous = selections.primarySelection
        selections.primarySelection = source
        previous?.cancel()
        selections.primarySelectionChanged()
    }

    static let zwpRequests = RequestTable(zwp_primary_selection_device_v1_interface(
        set_selection: { _, r, source, serial in setSelection(r, source, serial) }, destroy: destroyResource))
    static let gtkRequests = RequestTable(gtk_primary_selection_device_interface(
        set_selection: { _, r, source, serial in setSelection(r, source, serial) }, destroy: destroyResource))
}

/// zwp_primary_selection_offer_v1 (or gtk_primary_selection_offer): reading asks the source's
/// client to write into the reader's fd.
final class PrimaryOffer: ResourceObject {
    weak var source: PrimarySource?

    init(source: PrimarySource) { self.source = source }

    /// The fd is ours once it arrives: passed to the source's client, then closed here.
    private static func receive(_ resource: OpaquePointer?, _ mime: UnsafePointer<CChar>?, _ fd: Int32) {
        defer { close(fd) }
        guard let mime, let source = PrimaryOffer.from(resource)?.source else { return }
        source.send(mime, fd)
    }

    static let zwpRequests = RequestTable(zwp_primary_selection_offer_v1_interface(
        receive: { _, r, mime, fd in receive(r, mime, fd) }, destroy: destroyResource))
    static let gtkRequests = RequestTable(gtk_primary_selection_offer_interface(
        receive: { _, r, mime, fd in receive(r, mime, fd) }, destroy: destroyResource))
}
