import Responder

/// The surface behind each scene node, by `NodeID.slot`. A value, so a routing step's sink
/// holds the map as it was when the step began.
struct SurfaceIndex {
    private var bySlot: [Int: Surface] = [:]

    /// Nil for a node that is gone, even when its slot now holds another surface's node.
    func surface(at node: NodeID) -> Surface? {
        guard let surface = bySlot[node.slot], surface.node == node else { return nil }
        return surface
    }

    mutating func set(_ surface: Surface?, at node: NodeID) { bySlot[node.slot] = surface }

    var all: Dictionary<Int, Surface>.Values { bySlot.values }
}
