import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_pointer_gesture_swipe_v1, _pinch_v1 and _hold_v1: where a client hears touchpad
/// gestures over its surfaces. The core decides who hears a gesture and when it is cancelled
/// (`InputRouter+TouchpadGestures`); these only write.
final class PointerGesture: ResourceObject {
    let client: ClientID
    let kind: TouchpadGesture
    private let destroyed: (PointerGesture) -> Void

    /// Hold arrived in version 3; 2 added only `release`.
    static let version: Int32 = 3

    init(client: ClientID, kind: TouchpadGesture, destroyed: @escaping (PointerGesture) -> Void) {
        self.client = client
        self.kind = kind
        self.destroyed = destroyed
    }

    override func resourceDestroyed() {
        destroyed(self)
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

/// zwp_pointer_gestures_v1: every client's swipe, pinch and hold objects, which the routing
/// core's touchpad gesture deliveries are written to (through `ProtocolSink`).
final class PointerGestures: ServerPart {
    private let seat: Seat
    private var gestures: [PointerGesture] = []
    private var global: Global?

    init(display: OpaquePointer, seat: Seat) {
        self.seat = seat
        global = Global(display: display, interface: tactile_zwp_pointer_gestures_v1_interface(), version: PointerGesture.version,
                        context: self, requests: Self.requests)
    }

    /// Touchpad gesture events go to every gesture object of the kind the client made.
    func touchpadGestureBegin(_ client: SeatClient, _ kind: TouchpadGesture, surface: OpaquePointer, fingers: Int, time: Instant) {
        let serial = seat.serial()
        for gesture in gestures where gesture.client == client.id && gesture.kind == kind {
            gesture.begin(serial: serial, time: time, surface: surface, fingers: fingers)
        }
    }

    func touchpadGestureUpdate(_ client: SeatClient, _ kind: TouchpadGesture, delta: Point, scale: Double, rotation: Double, time: Instant) {
        for gesture in gestures where gesture.client == client.id && gesture.kind == kind {
            gesture.update(time: time, delta: delta, scale: scale, rotation: rotation)
        }
    }

    func touchpadGestureEnd(_ client: SeatClient, _ kind: TouchpadGesture, cancelled: Bool, time: Instant) {
        let serial = seat.serial()
        for gesture in gestures where gesture.client == client.id && gesture.kind == kind {
            gesture.end(serial: serial, time: time, cancelled: cancelled)
        }
    }

    private static let requests = RequestTable(zwp_pointer_gestures_v1_interface(
        get_swipe_gesture: { client, manager, id, _ in makePointerGesture(.swipe, client, manager, id) },
        get_pinch_gesture: { client, manager, id, _ in makePointerGesture(.pinch, client, manager, id) },
        release: destroyResource,
        get_hold_gesture: { client, manager, id, _ in makePointerGesture(.hold, client, manager, id) }
    ))

    /// The gesture object speaks the manager's version, as the protocol asks of new objects.
    private static func makePointerGesture(_ kind: TouchpadGesture, _ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32) {
        guard let client, let manager, let part = Global.context(of: manager, as: PointerGestures.self), let owner = ClientState.of(client) else { return }
        let gesture = PointerGesture(client: owner.id, kind: kind) { [unowned part] gone in part.gestures.removeAll { $0 === gone } }
        let version = wl_resource_get_version(manager)
        let bound = switch kind {
        case .swipe: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_swipe_v1_interface(), version: version, id: id,
                                  implementation: PointerGesture.swipeRequests)
        case .pinch: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_pinch_v1_interface(), version: version, id: id,
                                  implementation: PointerGesture.pinchRequests)
        case .hold: gesture.bind(client: client, interface: tactile_zwp_pointer_gesture_hold_v1_interface(), version: version, id: id,
                                 implementation: PointerGesture.holdRequests)
        }
        if bound { part.gestures.append(gesture) }
    }
}
