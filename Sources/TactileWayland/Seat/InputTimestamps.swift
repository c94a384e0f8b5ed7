import CWaylandServer
import Responder
import WaylandProtocols

/// zwp_input_timestamps_manager_v1: a client that measures latency hears each input event's
/// time in nanoseconds, before the event, on the wl_touch, wl_pointer or wl_keyboard it
/// asked about. The times are the devices' own (libinput's microseconds from the kernel's
/// evdev timestamps; the parent's when nested; test input's when injected), on
/// CLOCK_MONOTONIC, as wp_presentation's.
final class InputTimestampsManager: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_zwp_input_timestamps_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    private static func subscribe(_ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32, _ device: OpaquePointer?) {
        guard let client, let device = SeatDevice.from(device) else { return }
        let timestamps = InputTimestamps(device: device)
        guard timestamps.bind(client: client, interface: tactile_zwp_input_timestamps_v1_interface(), version: 1, id: id,
                              implementation: InputTimestamps.requests), let resource = timestamps.resource, let deviceResource = device.resource else { return }
        device.owner.timestamps[deviceResource, default: []].append(resource)
    }

    private static let requests = RequestTable(zwp_input_timestamps_manager_v1_interface(
        destroy: destroyResource,
        get_keyboard_timestamps: { client, manager, id, keyboard in subscribe(client, manager, id, keyboard) },
        get_pointer_timestamps: { client, manager, id, pointer in subscribe(client, manager, id, pointer) },
        get_touch_timestamps: { client, manager, id, touch in subscribe(client, manager, id, touch) }
    ))
}

/// zwp_input_timestamps_v1: one device's subscription; it ends with itself or its device.
final class InputTimestamps: ResourceObject {
    private weak var device: SeatDevice?

    init(device: SeatDevice) { self.device = device }

    override func resourceDestroyed() {
        guard let resource, let device, let deviceResource = device.resource else { return }
        device.owner.timestamps[deviceResource]?.removeAll { $0 == resource }
        if device.owner.timestamps[deviceResource]?.isEmpty == true { device.owner.timestamps[deviceResource] = nil }
    }

    static let requests = RequestTable(zwp_input_timestamps_v1_interface(destroy: destroyResource))
}

extension SeatClient {
    /// Sends `time` to the subscribers of `device` (a wl_touch, wl_pointer or wl_keyboard of
    /// this client), just before an event that carries it.
    @inline(__always)
    func stamp(_ device: OpaquePointer, _ time: Instant) {
        guard !timestamps.isEmpty, let subscribers = timestamps[device] else { return }
        let seconds = time.microseconds / 1_000_000
        for resource in subscribers {
            zwp_input_timestamps_v1_send_timestamp(resource, UInt32(truncatingIfNeeded: seconds >> 32), UInt32(truncatingIfNeeded: seconds),
                                                   UInt32((time.microseconds % 1_000_000) * 1000))
        }
    }
}
