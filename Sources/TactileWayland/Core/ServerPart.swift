import Logging
import Responder

/// One protocol family's state and behaviour, as Smithay keeps one `State` per protocol: its
/// globals, the objects clients made of them, and what it does when the server tells it that
/// focus moved, the output layout changed or a client left. The server makes each part with
/// the context it needs and lists it (`Parts`); the part's globals carry the part itself, so
/// its request handlers find their state without going through the server.
///
/// Every hook has an empty default beside it: a part implements the ones it follows.
protocol ServerPart: AnyObject {
    /// After a routing step that moved keyboard focus, pointer focus or the pointer.
    func focusChanged(_ focus: SeatFocus)
    /// The outputs, their places or their usable areas changed.
    func layoutChanged()
    /// A client disconnected; its resources are gone.
    func clientDisconnected(_ client: ClientID)
}

extension ServerPart {
    func focusChanged(_ focus: SeatFocus) {}
    func layoutChanged() {}
    func clientDisconnected(_ client: ClientID) {}
}

/// Where input focus is once a routing step is over; parts hear it when it changed.
struct SeatFocus: Equatable {
    var keyboard: NodeID?
    var pointer: NodeID?
    var pointerPosition: Point?
}

/// What a part may ask of the server: the scene and focus as the router has them, the
/// surfaces behind nodes, scene edits (batched with the commit under way), focus moves and
/// input it routes itself (a pointer warp). The server is the one implementation; parts hold
/// it as this, never as the server.
protocol PartContext: AnyObject {
    var logger: Logger { get }
    var currentTime: Instant { get }
    var scene: Scene { get }
    var focus: SeatFocus { get }
    /// A layer surface holds keyboard focus exclusively (a lock screen, a launcher).
    var keyboardFocusIsPinned: Bool { get set }
    /// A pointer button is down (the pointer's implicit grab).
    var pointerButtonsHeld: Bool { get }
    func surface(at node: NodeID) -> Surface?
    func updateScene(_ change: @escaping (inout Scene) -> Void)
    func afterScene(_ work: @escaping () -> Void)
    func focusKeyboard(on node: NodeID?, because reason: String)
    func handle(_ event: InputEvent)
    /// Runs one routing step on the core, with what follows every step (`WaylandServer.route`).
    func route(_ step: (inout InputRouter, inout ProtocolSink) -> Void)
    func nextSerial() -> UInt32
}

extension PartContext {
    /// Moves keyboard focus off `node` (with a leave), if it is there.
    func unfocusKeyboard(from node: NodeID) {
        guard focus.keyboard == node else { return }
        focusKeyboard(on: nil, because: "window-unfocused")
    }

    /// The client whose surface has keyboard focus.
    var keyboardFocusClient: ClientID? { focus.keyboard.flatMap { surface(at: $0)?.owner.id } }
}
