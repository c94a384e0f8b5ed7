import Logging
import Responder

/// One protocol family's state and behaviour, as Smithay keeps one `State` per protocol: its
/// globals, the objects clients made of them, and what it does when the server tells it that
/// focus moved, an output came, changed, went or showed a frame, the layout changed or a
/// client left. The server makes each part with the context it needs and lists it (`Parts`);
/// the part's globals carry the part itself, so its request handlers find their state
/// without going through the server.
///
/// Every hook has an empty default beside it: a part implements the ones it follows.
protocol ServerPart: AnyObject {
    /// After a routing step that moved keyboard focus, pointer focus or the pointer.
    func focusChanged(_ focus: SeatFocus)
    /// An output joined the layout (plugged in, or enabled); `layoutChanged` follows.
    func outputAdded(_ output: Output)
    /// A live output's mode, scale, transform or place changed; `layoutChanged` follows.
    func outputChanged(_ output: Output)
    /// An output left the layout (unplugged, or disabled): what waited on it fails or goes
    /// elsewhere; `layoutChanged` follows.
    func outputWithdrawn(_ output: Output)
    /// `output` showed a frame (its presentation feedback and frame callbacks are done).
    func framePresented(on output: Output, _ frame: PresentedFrame)
    /// The outputs, their places or their usable areas changed.
    func layoutChanged()
    /// A client disconnected; its resources are gone.
    func clientDisconnected(_ client: ClientID)
    /// The server is going: the part removes its event sources before the loop they are on.
    func stop()
}

extension ServerPart {
    func focusChanged(_ focus: SeatFocus) {}
    func outputAdded(_ output: Output) {}
    func outputChanged(_ output: Output) {}
    func outputWithdrawn(_ output: Output) {}
    func framePresented(on output: Output, _ frame: PresentedFrame) {}
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
