import CWaylandServer
import Responder

extension WaylandServer {
    static let seatVersion: Int32 = 8

    func createSeatGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_global_create(display, tactile_wl_seat_interface(), Self.seatVersion, me) { client, data, version, id in
            let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
            guard let seat = server.bindGlobal(client, tactile_wl_seat_interface(), version, id, WaylandServer.seatRequests,
                                               destroyed: { resource in
                                                   guard let resource, let server = WaylandServer.from(resource) else { return }
                                                   server.clients[wl_resource_get_client(resource)]?.seats.removeAll { $0 == resource }
                                               }) else { return }
            server.clients[client!]?.seats.append(seat)
            wl_seat_send_capabilities(seat, server.seatCapabilities.wire)
            if version >= 2 { wl_seat_send_name(seat, "seat0") }
        }
    }

    /// Tells every client which kinds of device the seat has now. A backend calls this as
    /// devices come and go; headless input (the test protocol) keeps all three.
    public func setSeatCapabilities(_ capabilities: InputCapabilities) {
        guard capabilities != seatCapabilities else { return }
        seatCapabilities = capabilities
        for state in clients.values {
            for seat in state.seats { wl_seat_send_capabilities(seat, capabilities.wire) }
        }
    }

    static let seatRequests = RequestTable(wl_seat_interface(
        get_pointer: { client, seat, id in SeatDevice.create(.pointer, client, seat, id) },
        get_keyboard: { client, seat, id in SeatDevice.create(.keyboard, client, seat, id) },
        get_touch: { client, seat, id in SeatDevice.create(.touch, client, seat, id) },
        release: destroyResource
    ))
}

extension InputCapabilities {
    var wire: UInt32 {
        (contains(.pointer) ? WL_SEAT_CAPABILITY_POINTER.rawValue : 0)
            | (contains(.keyboard) ? WL_SEAT_CAPABILITY_KEYBOARD.rawValue : 0)
            | (contains(.touch) ? WL_SEAT_CAPABILITY_TOUCH.rawValue : 0)
    }
}

/// A wl_pointer, wl_keyboard or wl_touch: a channel to its client, listed in the client's
/// state while it lives so deliveries reach every one of them.
final class SeatDevice: ResourceObject {
    enum Kind { case pointer, keyboard, touch }

    let kind: Kind
    let owner: ClientState

    init(kind: Kind, owner: ClientState) {
        self.kind = kind
        self.owner = owner
    }

    static func create(_ kind: Kind, _ client: OpaquePointer?, _ seat: OpaquePointer?, _ id: UInt32) {
        guard let client, let server = WaylandServer.from(seat), let owner = server.clients[client] else { return }
        let device = SeatDevice(kind: kind, owner: owner)
        let version = wl_resource_get_version(seat)
        let bound = switch kind {
        case .pointer: device.bind(client: client, interface: tactile_wl_pointer_interface(), version: version, id: id, implementation: pointerRequests)
        case .keyboard: device.bind(client: client, interface: tactile_wl_keyboard_interface(), version: version, id: id, implementation: keyboardRequests)
        case .touch: device.bind(client: client, interface: tactile_wl_touch_interface(), version: version, id: id, implementation: touchRequests)
        }
        guard bound, let resource = device.resource else { return }
        switch kind {
        case .pointer: owner.pointers.append(resource)
        case .keyboard:
            owner.keyboards.append(resource)
            server.keymap?.send(to: resource)
            if version >= 4 { wl_keyboard_send_repeat_info(resource, 25, 600) }
        case .touch: owner.touches.append(resource)
        }
        owner.devicesChanged()
    }

    override func resourceDestroyed() {
        guard let resource else { return }
        switch kind {
        case .pointer: owner.pointers.removeAll { $0 == resource }
        case .keyboard: owner.keyboards.removeAll { $0 == resource }
        case .touch: owner.touches.removeAll { $0 == resource }
        }
        owner.devicesChanged()
    }

    /// Cursor images are not drawn headless; the request is accepted and ignored.
    static let pointerRequests = RequestTable(wl_pointer_interface(set_cursor: { _, _, _, _, _, _ in }, release: destroyResource))
    static let keyboardRequests = RequestTable(wl_keyboard_interface(release: destroyResource))
    static let touchRequests = RequestTable(wl_touch_interface(release: destroyResource))
}
