import CWaylandServer
import WaylandProtocols

/// wp_cursor_shape_manager_v1: clients name their cursors (`text`, `pointer`, a resize
/// arrow) and Tactile draws them from the Xcursor theme (`CursorTheme`), as GTK 4, Qt 6 and
/// browsers ask where it is offered.
final class CursorShapes: ServerPart {
    static let version: Int32 = 2
    private unowned let seat: Seat
    private var global: Global?

    init(display: OpaquePointer, seat: Seat) {
        self.seat = seat
        global = Global(display: display, interface: tactile_wp_cursor_shape_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    /// The Xcursor name of each shape value, 1 to 36 (CSS's names, with dashes); version 2
    /// added the last two.
    static let names = [
        "default", "context-menu", "help", "pointer", "progress", "wait", "cell", "crosshair", "text", "vertical-text", "alias", "copy",
        "move", "no-drop", "not-allowed", "grab", "grabbing", "e-resize", "n-resize", "ne-resize", "nw-resize", "s-resize", "se-resize",
        "sw-resize", "w-resize", "ew-resize", "ns-resize", "nesw-resize", "nwse-resize", "col-resize", "row-resize", "all-scroll", "zoom-in",
        "zoom-out", "dnd-ask", "all-resize",
    ]

    /// How many shapes a device of `version` may name.
    static func shapeCount(version: Int32) -> Int { version >= 2 ? names.count : 34 }

    private static let requests = RequestTable(wp_cursor_shape_manager_v1_interface(
        destroy: destroyResource,
        get_pointer: { client, resource, id, _ in
            guard let client, let resource, let part = Global.context(of: resource, as: CursorShapes.self) else { return }
            let device = CursorShapeDevice(seat: part.seat, client: ClientState.of(client))
            device.bind(client: client, interface: tactile_wp_cursor_shape_device_v1_interface(), version: wl_resource_get_version(resource),
                        id: id, implementation: CursorShapeDevice.requests)
        },
        get_tablet_tool_v2: { client, resource, id, _ in
            // No tablet tools yet: the device is inert.
            guard let client, let resource else { return }
            CursorShapeDevice(seat: nil, client: nil).bind(client: client, interface: tactile_wp_cursor_shape_device_v1_interface(),
                                                           version: wl_resource_get_version(resource), id: id, implementation: CursorShapeDevice.requests)
        }
    ))
}

/// wp_cursor_shape_device_v1: one client's pointer (or tool), whose cursor it names.
final class CursorShapeDevice: ResourceObject {
    private weak var seat: Seat?
    private let client: ClientState?

    init(seat: Seat?, client: ClientState?) {
        self.seat = seat
        self.client = client
    }

    static let requests = RequestTable(wp_cursor_shape_device_v1_interface(
        destroy: destroyResource,
        set_shape: { _, resource, serial, shape in
            guard let device = CursorShapeDevice.from(resource) else { return }
            let count = CursorShapes.shapeCount(version: wl_resource_get_version(resource))
            guard (1...UInt32(count)).contains(shape) else {
                return device.postError(WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue,
                                        "cursor shape \(shape) is none of the protocol's at version \(wl_resource_get_version(resource)) (1 to \(count))")
            }
            guard let seat = device.seat, let state = device.client else { return }
            seat.setCursorShape(for: seat.client(state), serial: serial, name: CursorShapes.names[Int(shape) - 1])
        }
    ))
}
