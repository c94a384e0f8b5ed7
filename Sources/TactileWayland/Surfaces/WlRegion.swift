import CWaylandServer
import Responder

/// wl_region: a Region the client builds, copied into surface state on set_input_region.
///
/// A client's regions together may hold `maximumRectsPerClient` rectangles: real input
/// regions have a handful, and the cap bounds what one client can make every edit and every
/// hit test of its surfaces cost. Past it, the client gets a protocol error.
final class WlRegion: ResourceObject {
    static let maximumRectsPerClient = 10_000

    private(set) var region = Region()
    let owner: ClientState

    init(owner: ClientState) { self.owner = owner }

    private func edit(_ change: (inout Region) -> Void) {
        let before = region.rectCount
        change(&region)
        owner.regionRects += region.rectCount - before
        guard owner.regionRects > Self.maximumRectsPerClient else { return }
        postLimitError("wl_region: the client's regions hold more than \(Self.maximumRectsPerClient) rectangles")
    }

    override func resourceDestroyed() {
        owner.regionRects -= region.rectCount
    }

    static let requests = RequestTable(wl_region_interface(
        destroy: destroyResource,
        add: { _, resource, x, y, width, height in
            WlRegion.from(resource)?.edit { $0.add(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))) }
        },
        subtract: { _, resource, x, y, width, height in
            WlRegion.from(resource)?.edit { $0.subtract(Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))) }
        }
    ))
}
