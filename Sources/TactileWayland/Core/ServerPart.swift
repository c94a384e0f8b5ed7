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
    /// The server is going: the part removes its event sources before the loop they are on.
    func stop()
}

extension ServerPart {
    func focusChanged(_ focus: SeatFocus) {}
    func layoutChanged() {}
    func clientDisconnected(_ client: ClientID) {}
    func stop() {}
}

/// Where input focus is once a routing step is over; parts hear it when it changed.
struct SeatFocus: Equatable {
    var keyboard: NodeID?
    var pointer: NodeID?
    var pointerPosition: Point?
    /// The pen a tool's cursor follows, if one is near as a tablet tool.
    var pen: PenOverTablet?
}
