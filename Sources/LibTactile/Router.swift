import Glibc
import GestureConfiguration
import Responder
import TactileABI

/// What a `tactile_router *` names: the core's router, the embedder's pointers and
/// callbacks, and the last failure's message.
final class Router {
    var core = InputRouter()
    /// The touchscreens' filters, ahead of the core (`FilterCalls`).
    var filters = TouchFilters()
    /// The touch accommodations, after the filters (`AccommodationCalls`), and the nodes the
    /// embedder exempts from them.
    var accommodations = TouchAccommodations()
    var exemptNodes: [NodeID] = []
    /// Zoom by touch, before the accommodations (`ZoomCalls`), and the outputs it may magnify.
    var zoom = TouchZoom()
    /// Each node's user_data, by slot, with the node's generation: the callbacks read it
    /// while the core is busy routing, so it is checked without asking the scene; entries of
    /// removed nodes are dropped after each removal. A buffer of its own rather than an
    /// array, so that reading it for every event retains nothing.
    private var userData = UnsafeMutableBufferPointer<(generation: UInt32, pointer: UnsafeMutableRawPointer?)>(start: nil, count: 0)
    var events: (callback: tactile_event_fn, data: UnsafeMutableRawPointer?)?
    var traces: (callback: tactile_trace_fn, data: UnsafeMutableRawPointer?)?
    var gestureEvents: (callback: tactile_gesture_fn, data: UnsafeMutableRawPointer?)?
    /// Gestures by handle minus one; their names and YAML commands as C strings.
    var gestures: [Gesture] = []
    /// Set while a call is inside the core: a callback calling back in is refused.
    var busy = false
    private var message: UnsafeMutablePointer<CChar>? = strdup("")

    struct Gesture {
        let id: GestureID
        let name: UnsafeMutablePointer<CChar>
        let command: UnsafeMutablePointer<CChar>?
        let when: UnsafeMutablePointer<CChar>?
    }

    deinit {
        userData.deallocate()
        free(message)
        for gesture in gestures {
            free(gesture.name)
            free(gesture.command)
            free(gesture.when)
        }
    }

    var errorMessage: UnsafePointer<CChar>? { UnsafePointer(message) }

    func fail(_ status: tactile_status, _ text: String) -> tactile_status {
        free(message)
        message = strdup(text)
        return status
    }

    func userData(of node: NodeID) -> UnsafeMutableRawPointer? {
        node.slot < userData.count && userData[node.slot].generation == node.generationValue ? userData[node.slot].pointer : nil
    }

    func setUserData(_ pointer: UnsafeMutableRawPointer?, of node: NodeID) {
        if userData.count <= node.slot {
            let grown = UnsafeMutableBufferPointer<(generation: UInt32, pointer: UnsafeMutableRawPointer?)>.allocate(capacity: max(64, 2 * (node.slot + 1)))
            grown.initialize(repeating: (0, nil))
            _ = grown.update(fromContentsOf: userData)
            userData.deallocate()
            userData = grown
        }
        userData[node.slot] = (node.generationValue, pointer)
    }

    /// Forgets the pointers of nodes no longer in the scene (a subtree, a client's surfaces).
    func dropRemovedUserData() {
        for slot in userData.indices where userData[slot].pointer != nil {
            if !core.scene.contains(NodeID(index: Int32(slot), generation: userData[slot].generation)) { userData[slot].pointer = nil }
        }
    }

    func gesture(_ handle: tactile_gesture) -> Gesture? {
        handle >= 1 && Int(handle) <= gestures.count ? gestures[Int(handle) - 1] : nil
    }

    /// Runs `body` with a sink that hands the core's decisions to the callbacks; refuses a
    /// call made from inside a callback. The status says whether the core ignored the event.
    func route(_ body: (inout CallbackSink) -> Void) -> tactile_status {
        busy = true
        defer { busy = false }
        var sink = CallbackSink(router: self)
        body(&sink)
        if let ignored = sink.ignored { return fail(TACTILE_ERROR_IGNORED, "ignored: \(ignored)") }
        return TACTILE_OK
    }
}

/// Resolves a handle, or answers why not: a router already inside a call (its callback
/// calling back in) is refused before anything touches its core, which is in use.
@inline(__always)
func withRouter(_ handle: OpaquePointer?, _ body: (Router) -> tactile_status) -> tactile_status {
    guard let router = RouterTable.router(handle) else { return TACTILE_ERROR_NO_ROUTER }
    return router._withUnsafeGuaranteedRef { router in
        guard !router.busy else { return router.fail(TACTILE_ERROR_BUSY, "called from inside one of this router's callbacks") }
        return body(router)
    }
}

/// The router, when it is free to be read (not inside one of its own calls).
@inline(__always)
func idleRouter(_ handle: OpaquePointer?) -> Router? {
    guard let router = RouterTable.router(handle)?.takeUnretainedValue(), !router.busy else { return nil }
    return router
}
