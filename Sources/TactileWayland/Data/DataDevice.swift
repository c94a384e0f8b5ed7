import CWaylandServer

extension WaylandServer {
    /// wl_data_device_manager, enough for clients that insist on it (wev, GTK): sources and
    /// selections are accepted and kept, a replaced selection's source is told it was
    /// cancelled, and drags are cancelled at once, as there is no drag and drop yet.
    static let dataDeviceManagerRequests = RequestTable(wl_data_device_manager_interface(
        create_data_source: { client, manager, id in
            guard let client else { return }
            DataSource().bind(client: client, interface: tactile_wl_data_source_interface(), version: wl_resource_get_version(manager), id: id, implementation: DataSource.requests)
        },
        get_data_device: { client, manager, id, _ in
            guard let client, let server = WaylandServer.from(manager) else { return }
            DataDevice(seat: server.seat).bind(client: client, interface: tactile_wl_data_device_interface(), version: wl_resource_get_version(manager), id: id, implementation: DataDevice.requests)
        }
    ))
}

/// wl_data_source: the MIME types a client offers.
final class DataSource: ResourceObject {
    var mimeTypes: [String] = []

    static let requests = RequestTable(wl_data_source_interface(
        offer: { _, resource, mime in
            guard let mime else { return }
            DataSource.from(resource)?.mimeTypes.append(String(cString: mime))
        },
        destroy: destroyResource,
        set_actions: { _, _, _ in }
    ))
}

/// wl_data_device: where a client sets the selection or starts a drag.
final class DataDevice: ResourceObject {
    /// Unchecked for the same reason as the other back-references: it dies with the display.
    unowned(unsafe) let seat: Seat

    init(seat: Seat) { self.seat = seat }

    static let requests = RequestTable(wl_data_device_interface(
        start_drag: { _, _, source, _, _, _ in
            if let source { wl_data_source_send_cancelled(source) }
        },
        set_selection: { _, resource, source, _ in
            guard let device = DataDevice.from(resource) else { return }
            let previous = device.seat.selection
            device.seat.selection = DataSource.from(source)
            if let old = previous?.resource, old != source { wl_data_source_send_cancelled(old) }
        },
        release: destroyResource
    ))
}
