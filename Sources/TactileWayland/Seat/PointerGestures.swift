import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_pointer_gesture_swipe_v1, _pinch_v1 and _hold_v1: where a client hears touchpad
/// gestures over its surfaces. The core decides who hears a gesture and when it is cancelled
/// (`InputRouter+TouchpadGestures`); these only write.
final class PointerGesture: ResourceObject {
    unowned(unsafe) let seat: Seat
    let client: ClientID
    let kind: TouchpadGesture

    /// Hold arrived in version 3; 2 added only `release`.
    static let version: Int32 = 3

    init(seat: Seat, client: ClientID, kind: TouchpadGesture) {
        self.seat = seat
        self.client = client
        self.kind = kind
    }

    override func resourceDestroyed() {
        seat.pointerGestures.removeAll { $0 === self }
    }

    func begin(serial: UInt32, time: Instant, surface: OpaquePointer, fingers: Int) {
        guard let resource else { return }
        let count = UInt32(fingers)
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_begin(resource, serial, time.milliseconds, surface, count)
        case .pinch: zwp_pointer_gesture_pinch_v1_send_begin(resource, serial, time.milliseconds, surface, count)
        case .hold: zwp_pointer_gesture_hold_v1_send_begin(resource, serial, time.milliseconds, surface, count)
        }
    }

    /// A hold has no updates: its fingers rest.
    func update(time: Instant, delta: Point, scale: Double, rotation: Double) {
        guard let resource else { return }
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_update(resource, time.milliseconds, wl_fixed_from_double(delta.x), wl_fixed_from_double(delta.y))
        case .pinch:
            zwp_pointer_gesture_pinch_v1_send_update(
                resource, time.milliseconds, wl_fixed_from_double(delta.x), wl_fixed_from_double(delta.y),
                wl_fixed_from_double(scale), wl_fixed_from_double(rotation))
        case .hold: break
        }
    }

    func end(serial: UInt32, time: Instant, cancelled: Bool) {
        guard let resource else { return }
        let flag: Int32 = cancelled ? 1 : 0
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_end(resource, serial, time.milliseconds, flag)
        case .pinch: zwp_pointer_gesture_pinch_v1_send_end(resource, serial, time.milliseconds, flag)
        case .hold: zwp_pointer_gesture_hold_v1_send_end(resource, serial, time.milliseconds, flag)
        }
    }

    static let swipeRequests = RequestTable(zwp_pointer_gesture_swipe_v1_interface(destroy: destroyResource))
    static let pinchRequests = RequestTable(zwp_pointer_gesture_pinch_v1_interface(destroy: destroyResource))
    static let holdRequests = RequestTable(zwp_pointer_gesture_hold_v1_interface(destroy: destroyResource))
}

/// Touchpad gesture events, to every gesture object of the kind the client made.
extension Seat {
    func touchpadGestureBegin(_ client: SeatClient, _ kind: TouchpadGesture, surface: OpaquePointer, fingers: Int, time: Instant) {
        let serial = self.serial()
        for gesture in pointerGestures where gesture.client == client.id && gesture.kind == kind {
            gesture.begin(serial: serial, time: time, surface: surface, fingers: fingers)
        }
    }

    func touchpadGestureUpdate(_ client: SeatClient, _ kind: TouchpadGesture, delta: Point, scale: Double, rotation: Double, time: Instant) {
        for gesture in pointerGestures where gesture.client == client.id && gesture.kind == kind {
            gesture.update(time: time, delta: delta, scale: scale, rotation: rotation)
        }
    }

    func touchpadGestureEnd(_ client: SeatClient, _ kind: TouchpadGesture, cancelled: Bool, time: Instant) {
        let serial = self.serial()
        for gesture in pointerGestures where gesture.client == client.id && gesture.kind == kind {
            gesture.end(serial: serial, time: time, cancelled: cancelled)
        }
    }
}

extension WaylandServer {
    static let pointerGesturesRequests = RequestTable(zwp_pointer_gestures_v1_interface(
        get_swipe_gesture: { client, manager, id, _ in makePointerGesture(.swipe, client, manager, id) },
        get_pinch_gesture: { client, manager, id, _ in makePointerGesture(.pinch, client, manager, id) },
        release: destroyResource,
        get_hold_gesture: { client, manager, id, _ in makePointerGesture(.hold, client, manager, id) }
    ))

    /// The gesture object speaks the manager's version, as the protocol asks of new objects.
    private static func makePointerGesture(_ kind: TouchpadGesture, _ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32) {
        guard let client, let manager, let server = WaylandServer.from(manager), let owner = ClientState.of(client) else { return }
        let gesture = PointerGesture(seat: server.seat, client: owner.id, kind: kind)
        let version = wl_resource_get_version(manager)
        let bound = switch kind {
        case .swipe: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_swipe_v1_interface(), version: version, id: id,
                                  implementation: PointerGesture.swipeRequests)
        case .pinch: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_pinch_v1_interface(), version: version, id: id,
                                  implementation: PointerGesture.pinchRequests)
        case .hold: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_hold_v1_interface(), version: version, id: id,
                                 implementation: PointerGesture.holdRequests)
        }
        if bound { server.seat.pointerGestures.append(gesture) }
    }
}
