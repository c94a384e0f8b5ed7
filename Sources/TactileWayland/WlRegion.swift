import CWaylandServer
import Responder

/// wl_region: a Region the client builds, copied into surface state on set_input_region.
final class WlRegion: ResourceObject {
    var region = Region()

    static let requests = RequestTable(wl_region_interface(
        destroy: destroyResource,
        add: { _, resource, x, y, width, height in
            WlRegion.from(resource)?.region.add(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
        },
        subtract: { _, resource, x, y, width, height in
            WlRegion.from(resource)?.region.subtract(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
        }
    ))
}
