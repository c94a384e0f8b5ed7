import CWaylandClient
import WaylandProtocols

struct TabletSeatLogFailure: Error, CustomStringConvertible {
    var description: String { "zwp_tablet_manager_v2 is not offered" }
}

/// What a client's tablet seat (zwp_tablet_seat_v2) heard of tablets, tools and pads, one
/// line per event, for tests to compare with what a tablet-v2 client should hear.
final class TabletSeatLog {
    var lines: [String] = []
    /// The surfaces tools came near and pads entered, in order.
    var surfaces: [OpaquePointer] = []
    /// The tools described, and the serial of each proximity_in, in order.
    var tools: [OpaquePointer] = []
    var proximitySerials: [UInt32] = []

    /// Binds a tablet seat for `client`; what it hears lands in `lines`. The seat lives as
    /// long as the client: the log must too.
    init(of client: TestClient) throws {
        guard let manager = client.tabletManager else { throw TabletSeatLogFailure() }
        zwp_tablet_seat_v2_add_listener(zwp_tablet_manager_v2_get_tablet_seat(manager, client.seat), Self.seatListener,
                                        Unmanaged.passUnretained(self).toOpaque())
    }

    /// A listener table at a stable address, as libwayland-client wants; never freed.
    private static func make<T>(_ table: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: table)
        return pointer
    }

    static func heard(_ data: UnsafeMutableRawPointer?) -> TabletSeatLog { Unmanaged<TabletSeatLog>.fromOpaque(data!).takeUnretainedValue() }

    nonisolated(unsafe) static let seatListener: UnsafeMutablePointer<zwp_tablet_seat_v2_listener> = make(zwp_tablet_seat_v2_listener(
        tablet_added: { data, _, tablet in zwp_tablet_v2_add_listener(tablet, tabletListener, data) },
        tool_added: { data, _, tool in
            if let tool { heard(data).tools.append(tool) }
            zwp_tablet_tool_v2_add_listener(tool, toolListener, data)
        },
        pad_added: { data, _, pad in
            heard(data).lines.append("pad")
            zwp_tablet_pad_v2_add_listener(pad, padListener, data)
        }
    ))

    nonisolated(unsafe) static let padListener: UnsafeMutablePointer<zwp_tablet_pad_v2_listener> = make(zwp_tablet_pad_v2_listener(
        group: { data, _, group in
            heard(data).lines.append("group")
            zwp_tablet_pad_group_v2_add_listener(group, groupListener, data)
        },
        path: { data, _, path in heard(data).lines.append("pad path \(String(cString: path!))") },
        buttons: { data, _, count in heard(data).lines.append("pad buttons \(count)") },
        done: { data, _ in heard(data).lines.append("pad done") },
        button: { data, _, _, button, state in heard(data).lines.append("pad button \(button) \(state)") },
        enter: { data, _, _, _, surface in
            heard(data).lines.append("pad enter")
            if let surface { heard(data).surfaces.append(surface) }
        },
        leave: { data, _, _, _ in heard(data).lines.append("pad leave") },
        removed: { data, _ in heard(data).lines.append("pad removed") }
    ))

    nonisolated(unsafe) static let groupListener: UnsafeMutablePointer<zwp_tablet_pad_group_v2_listener> = make(zwp_tablet_pad_group_v2_listener(
        buttons: { data, _, array in
            let values = array.map { UnsafeBufferPointer(start: $0.pointee.data?.assumingMemoryBound(to: UInt32.self), count: $0.pointee.size / 4) }
            heard(data).lines.append("group buttons \(values.map(Array.init) ?? [])")
        },
        ring: { data, _, ring in
            heard(data).lines.append("ring")
            zwp_tablet_pad_ring_v2_add_listener(ring, ringListener, data)
        },
        strip: { data, _, strip in
            heard(data).lines.append("strip")
            zwp_tablet_pad_strip_v2_add_listener(strip, stripListener, data)
        },
        modes: { data, _, modes in heard(data).lines.append("modes \(modes)") },
        done: { data, _ in heard(data).lines.append("group done") },
        mode_switch: { data, _, _, _, mode in heard(data).lines.append("mode \(mode)") }
    ))

    nonisolated(unsafe) static let ringListener: UnsafeMutablePointer<zwp_tablet_pad_ring_v2_listener> = make(zwp_tablet_pad_ring_v2_listener(
        source: { data, _, source in heard(data).lines.append("ring source \(source)") },
        angle: { data, _, degrees in heard(data).lines.append("ring angle \(wl_fixed_to_double(degrees))") },
        stop: { data, _ in heard(data).lines.append("ring stop") },
        frame: { data, _, _ in heard(data).lines.append("ring frame") }
    ))

    nonisolated(unsafe) static let stripListener: UnsafeMutablePointer<zwp_tablet_pad_strip_v2_listener> = make(zwp_tablet_pad_strip_v2_listener(
        source: { data, _, source in heard(data).lines.append("strip source \(source)") },
        position: { data, _, position in heard(data).lines.append("strip position \(position)") },
        stop: { data, _ in heard(data).lines.append("strip stop") },
        frame: { data, _, _ in heard(data).lines.append("strip frame") }
    ))

    nonisolated(unsafe) static let tabletListener: UnsafeMutablePointer<zwp_tablet_v2_listener> = make(zwp_tablet_v2_listener(
        name: { data, _, name in heard(data).lines.append("tablet \(String(cString: name!))") },
        id: { data, _, vendor, product in heard(data).lines.append("tablet id \(vendor):\(product)") },
        path: { data, _, path in heard(data).lines.append("tablet path \(String(cString: path!))") },
        done: { data, _ in heard(data).lines.append("tablet done") },
        removed: { data, _ in heard(data).lines.append("tablet removed") }
    ))

    nonisolated(unsafe) static let toolListener: UnsafeMutablePointer<zwp_tablet_tool_v2_listener> = make(zwp_tablet_tool_v2_listener(
        type: { data, _, type in heard(data).lines.append("type 0x\(String(type, radix: 16))") },
        hardware_serial: { data, _, high, low in heard(data).lines.append("serial \(high) \(low)") },
        hardware_id_wacom: { data, _, high, low in heard(data).lines.append("wacom id \(high) \(low)") },
        capability: { data, _, capability in heard(data).lines.append("capability \(capability)") },
        done: { data, _ in heard(data).lines.append("done") },
        removed: { data, _ in heard(data).lines.append("removed") },
        proximity_in: { data, _, serial, _, surface in
            heard(data).lines.append("proximity_in")
            heard(data).proximitySerials.append(serial)
            if let surface { heard(data).surfaces.append(surface) }
        },
        proximity_out: { data, _ in heard(data).lines.append("proximity_out") },
        down: { data, _, _ in heard(data).lines.append("down") },
        up: { data, _ in heard(data).lines.append("up") },
        motion: { data, _, x, y in heard(data).lines.append("motion \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))") },
        pressure: { data, _, pressure in heard(data).lines.append("pressure \(pressure)") },
        distance: { data, _, distance in heard(data).lines.append("distance \(distance)") },
        tilt: { data, _, x, y in heard(data).lines.append("tilt \(wl_fixed_to_double(x)) \(wl_fixed_to_double(y))") },
        rotation: { data, _, degrees in heard(data).lines.append("rotation \(wl_fixed_to_double(degrees))") },
        slider: { data, _, position in heard(data).lines.append("slider \(position)") },
        wheel: { data, _, degrees, clicks in heard(data).lines.append("wheel \(wl_fixed_to_double(degrees)) \(clicks)") },
        button: { data, _, _, button, state in heard(data).lines.append("button 0x\(String(button, radix: 16)) \(state)") },
        frame: { data, _, _ in heard(data).lines.append("frame") }
    ))
}
