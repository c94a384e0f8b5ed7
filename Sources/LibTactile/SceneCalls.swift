import Glibc
import Responder
import TactileABI

// The scene half of tactile.h: routers, nodes, input regions, the hit test.

private let knownFlags = UInt32(TACTILE_NODE_MAPPED.rawValue | TACTILE_NODE_HIDDEN.rawValue | TACTILE_NODE_NO_INPUT.rawValue
    | TACTILE_NODE_TOPLEVEL.rawValue | TACTILE_NODE_CLIPS.rawValue)

@_cdecl("tactile_version")
public func tactile_version() -> UnsafePointer<CChar> { versionString }
nonisolated(unsafe) private let versionString: UnsafePointer<CChar> = UnsafePointer(strdup("\(TACTILE_VERSION_MAJOR).\(TACTILE_VERSION_MINOR)")!)

@_cdecl("tactile_router_create")
public func tactile_router_create() -> OpaquePointer? {
    RouterTable.add(Router())
}

@_cdecl("tactile_router_destroy")
public func tactile_router_destroy(_ handle: OpaquePointer?) {
    // Not from inside its own callback: the router is in use below this call.
    if idleRouter(handle) != nil { RouterTable.remove(handle) }
}

@_cdecl("tactile_router_error")
public func tactile_router_error(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    RouterTable.router(handle)?.takeUnretainedValue().errorMessage ?? noRouterMessage
}
nonisolated(unsafe) private let noRouterMessage: UnsafePointer<CChar> = UnsafePointer(strdup("the router is NULL or was destroyed")!)

@_cdecl("tactile_router_root")
public func tactile_router_root(_ handle: OpaquePointer?) -> tactile_node {
    idleRouter(handle)?.core.scene.root.handle ?? 0
}

extension Router {
    /// The node a handle names, or why not.
    func node(_ handle: tactile_node, _ role: String = "node") -> Result<NodeID, Failure> {
        guard let id = NodeID(handle: handle), core.scene.contains(id) else {
            return .failure(Failure(status: TACTILE_ERROR_NO_NODE, message: "\(role) \(handle) is not in the scene"))
        }
        return .success(id)
    }

    /// Changes the scene through the core, which settles touches and focus it affects.
    func change(_ body: (inout Scene) -> Bool, failure: String) -> tactile_status {
        var changed = false
        let status = route { sink in changed = core.updateScene(sink: &sink, body) }
        guard status.rawValue == TACTILE_OK.rawValue else { return status }
        return changed ? TACTILE_OK : fail(TACTILE_ERROR_INVALID, failure)
    }

    func fail(_ failure: Failure) -> tactile_status { fail(failure.status, failure.message) }
}

struct Failure: Error {
    let status: tactile_status
    let message: String
}

/// The description as a core node, keeping `inputRegion`; or why it cannot be one.
private func node(from desc: UnsafePointer<tactile_node_desc>?, inputRegion: Region?) -> Result<Node, Failure> {
    guard let d = desc?.pointee else { return .failure(Failure(status: TACTILE_ERROR_INVALID, message: "the description is NULL")) }
    guard d.width >= 0, d.height >= 0 else {
        return .failure(Failure(status: TACTILE_ERROR_INVALID, message: "size \(d.width)x\(d.height) is negative"))
    }
    guard d.alpha.isFinite, d.alpha >= 0, d.alpha <= 1 else {
        return .failure(Failure(status: TACTILE_ERROR_INVALID, message: "alpha \(d.alpha) is not from 0 to 1"))
    }
    guard d.flags & ~knownFlags == 0 else {
        return .failure(Failure(status: TACTILE_ERROR_INVALID, message: "unknown flags 0x\(String(d.flags & ~knownFlags, radix: 16))"))
    }
    let client = d.client == 0 ? nil : ClientID(d.client)
    let has = { (flag: tactile_node_flag) in d.flags & flag.rawValue != 0 }
    return .success(Node(
        client: client, isToplevel: has(TACTILE_NODE_TOPLEVEL), position: Position(x: Int(d.x), y: Int(d.y)),
        size: Size(width: Int(d.width), height: Int(d.height)),
        inputRegion: inputRegion ?? (client == nil ? .empty : .infinite), isMapped: has(TACTILE_NODE_MAPPED),
        isHidden: has(TACTILE_NODE_HIDDEN), acceptsInput: !has(TACTILE_NODE_NO_INPUT), alpha: d.alpha, clipsToBounds: has(TACTILE_NODE_CLIPS)
    ))
}

@_cdecl("tactile_node_add")
public func tactile_node_add(_ handle: OpaquePointer?, _ parentHandle: tactile_node, _ desc: UnsafePointer<tactile_node_desc>?,
                             _ out: UnsafeMutablePointer<tactile_node>?) -> tactile_status {
    withRouter(handle) { router in
        guard let out else { return router.fail(TACTILE_ERROR_INVALID, "the out pointer is NULL") }
        out.pointee = 0
        let parent: NodeID, made: Node
        switch router.node(parentHandle, "parent") {
        case .success(let p): parent = p
        case .failure(let f): return router.fail(f)
        }
        switch node(from: desc, inputRegion: nil) {
        case .success(let n): made = n
        case .failure(let f): return router.fail(f)
        }
        var added: NodeID?
        let status = router.change({ scene in
            added = scene.add(made, to: parent)
            // Before the core settles the change: the pointer may enter the new node at once.
            if let added { router.setUserData(desc?.pointee.user_data, of: added) }
            return added != nil
        }, failure: "the node could not be added")
        out.pointee = added?.handle ?? 0
        return status
    }
}

@_cdecl("tactile_node_remove")
public func tactile_node_remove(_ handle: OpaquePointer?, _ nodeHandle: tactile_node) -> tactile_status {
    withRouter(handle) { router in
        switch router.node(nodeHandle) {
        case .failure(let f): return router.fail(f)
        case .success(let id):
            defer { router.dropRemovedUserData() }
            return router.change({ $0.remove(id) }, failure: "the root cannot be removed")
        }
    }
}

@_cdecl("tactile_node_update")
public func tactile_node_update(_ handle: OpaquePointer?, _ nodeHandle: tactile_node, _ desc: UnsafePointer<tactile_node_desc>?) -> tactile_status {
    withRouter(handle) { router in
        let id: NodeID
        switch router.node(nodeHandle) {
        case .success(let n): id = n
        case .failure(let f): return router.fail(f)
        }
        switch node(from: desc, inputRegion: router.core.scene.node(id)?.inputRegion) {
        case .failure(let f): return router.fail(f)
        case .success(let updated):
            router.setUserData(desc?.pointee.user_data, of: id)
            return router.change({ $0.update(id) { node in node = updated } }, failure: "the node could not be updated")
        }
    }
}

@_cdecl("tactile_node_set_geometry")
public func tactile_node_set_geometry(_ handle: OpaquePointer?, _ nodeHandle: tactile_node, _ x: Int32, _ y: Int32, _ width: Int32,
                                      _ height: Int32) -> tactile_status {
    withRouter(handle) { router in
        guard width >= 0, height >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "size \(width)x\(height) is negative") }
        switch router.node(nodeHandle) {
        case .failure(let f): return router.fail(f)
        case .success(let id):
            return router.change({ scene in
                scene.update(id) { node in
                    node.position = Position(x: Int(x), y: Int(y))
                    node.size = Size(width: Int(width), height: Int(height))
                }
            }, failure: "the node could not be updated")
        }
    }
}

@_cdecl("tactile_node_set_input_region")
public func tactile_node_set_input_region(_ handle: OpaquePointer?, _ nodeHandle: tactile_node, _ rects: UnsafePointer<tactile_rect>?,
                                          _ count: Int, _ infinite: Int32) -> tactile_status {
    withRouter(handle) { router in
        let id: NodeID
        switch router.node(nodeHandle) {
        case .success(let n): id = n
        case .failure(let f): return router.fail(f)
        }
        var region = Region()
        if infinite != 0 {
            region = .infinite
        } else if count > 0 {
            guard let rects else { return router.fail(TACTILE_ERROR_INVALID, "\(count) rectangles, but the array is NULL") }
            for r in UnsafeBufferPointer(start: rects, count: count) {
                guard r.width >= 0, r.height >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "a rectangle of negative size \(r.width)x\(r.height)") }
                region.add(Rect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)))
            }
        }
        return router.change({ $0.update(id) { node in node.inputRegion = region } }, failure: "the node could not be updated")
    }
}

@_cdecl("tactile_node_restack")
public func tactile_node_restack(_ handle: OpaquePointer?, _ nodeHandle: tactile_node, _ position: tactile_stack, _ siblingHandle: tactile_node) -> tactile_status {
    withRouter(handle) { router in
        let id: NodeID
        switch router.node(nodeHandle) {
        case .success(let n): id = n
        case .failure(let f): return router.fail(f)
        }
        let stack: StackPosition
        switch position {
        case TACTILE_STACK_TOP: stack = .top
        case TACTILE_STACK_BOTTOM: stack = .bottom
        case TACTILE_STACK_ABOVE, TACTILE_STACK_BELOW:
            switch router.node(siblingHandle, "sibling") {
            case .failure(let f): return router.fail(f)
            case .success(let sibling): stack = position == TACTILE_STACK_ABOVE ? .above(sibling) : .below(sibling)
            }
        default: return router.fail(TACTILE_ERROR_INVALID, "\(position.rawValue) is not a tactile_stack")
        }
        return router.change({ $0.restack(id, to: stack) }, failure: "the sibling is neither the node's parent nor one of its siblings, or the node is the root")
    }
}

@_cdecl("tactile_node_reparent")
public func tactile_node_reparent(_ handle: OpaquePointer?, _ nodeHandle: tactile_node, _ parentHandle: tactile_node) -> tactile_status {
    withRouter(handle) { router in
        switch (router.node(nodeHandle), router.node(parentHandle, "parent")) {
        case (.failure(let f), _), (_, .failure(let f)): return router.fail(f)
        case (.success(let id), .success(let parent)):
            return router.change({ $0.move(id, under: parent) }, failure: "the parent is inside the node's own subtree, or the node is the root")
        }
    }
}

@_cdecl("tactile_node_user_data")
public func tactile_node_user_data(_ handle: OpaquePointer?, _ nodeHandle: tactile_node) -> UnsafeMutableRawPointer? {
    guard let router = idleRouter(handle), let id = NodeID(handle: nodeHandle), router.core.scene.contains(id) else { return nil }
    return router.userData(of: id)
}

@_cdecl("tactile_hit_test")
public func tactile_hit_test(_ handle: OpaquePointer?, _ x: Double, _ y: Double, _ out: UnsafeMutablePointer<tactile_node>?,
                             _ localX: UnsafeMutablePointer<Double>?, _ localY: UnsafeMutablePointer<Double>?) -> tactile_status {
    withRouter(handle) { router in
        guard let out else { return router.fail(TACTILE_ERROR_INVALID, "the out pointer is NULL") }
        out.pointee = 0
        guard x.isFinite, y.isFinite else { return router.fail(TACTILE_ERROR_INVALID, "the point (\(x), \(y)) is not finite") }
        guard let hit = router.core.hitTest(at: Point(x: x, y: y)) else { return TACTILE_OK }
        out.pointee = hit.node.handle
        localX?.pointee = hit.local.x
        localY?.pointee = hit.local.y
        return TACTILE_OK
    }
}
