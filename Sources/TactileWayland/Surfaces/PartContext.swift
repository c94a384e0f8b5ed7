import Logging
import Responder

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
    /// The node a point hits first, as the router's hit test finds it.
    func nodeHit(at global: Point) -> NodeID?
    /// The surface behind each node, as a routing step's sink reads them.
    var surfaces: SurfaceIndex { get }
    func updateScene(_ change: @escaping (inout Scene) -> Void)
    func afterScene(_ work: @escaping () -> Void)
    func focusKeyboard(on node: NodeID?, because reason: String)
    /// Tells the trace and the inspector of a decision a part made (the core's own
    /// decisions reach them from the router).
    func trace(_ event: TraceEvent)
    /// Routes an input event, as a device's (through the seat's grabs).
    func handle(_ event: InputEvent)
    /// A mouse or touchpad moved by `motion`: relative pointers hear it, the cursor moves
    /// within the layout and any confinement.
    func handleRelativeMotion(_ motion: RelativeMotion, time: Instant)
    /// A key typed under a keymap of a client's own (a virtual keyboard): routed to the focus
    /// without the seat's grabs or its XKB state.
    func routeVirtualKey(_ key: UInt32, _ state: PressState)
    /// Takes the pointer from clients until its buttons are released (an interactive move
    /// or resize); false when no button is held.
    func takePointerUntilReleased() -> Bool
    /// Moves the window of a toplevel wl_surface so its window geometry starts at `position`;
    /// false for a surface that is no toplevel.
    func placeToplevel(_ surface: OpaquePointer?, at position: Position) -> Bool
    func nextSerial() -> UInt32
}

/// What a wl_surface asks of the server beyond what a part does: its scene node bound to it,
/// its commits batched, its frame callbacks and damage handed to composition.
protocol SurfaceHost: PartContext {
    /// Runs `body`, its scene changes made as one when it is done (a commit).
    func inSceneBatch(_ body: () -> Void)
    /// The surface `node` is (nil: none any more), for hit testing's answers.
    func bind(_ surface: Surface?, to node: NodeID)
    /// A commit's frame callbacks: done once a frame showing it is on screen.
    func queueFrameCallbacks(_ callbacks: [FrameCallback])
    /// A commit answered the frame callback the surface was sent (`ClientFrameClock`).
    func frameAnswered(by surface: Surface)
    /// What a commit changed, to repaint.
    func damaged(_ surface: Surface, _ damage: SurfaceDamage)
    /// The surface has a fifo barrier set or updates waiting (`FramePacing`).
    func pace(_ surface: Surface)
    /// The surface's committed state to its scene node with the commit (`Surface.writeNode`),
    /// then `updateOutputs`.
    func syncNode(of surface: Surface)
    /// `Surface.sceneShows` once the scene shows the commit under way.
    func afterScene(commitOf surface: Surface, hadBuffer: Bool, damage: SurfaceDamage)
}

extension PartContext {
    /// Moves keyboard focus off `node` (with a leave), if it is there.
    func unfocusKeyboard(from node: NodeID) {
        guard focus.keyboard == node else { return }
        focusKeyboard(on: nil, because: "window-unfocused")
    }

    /// The client whose surface has keyboard focus.
    var keyboardFocusClient: ClientID? { focus.keyboard.flatMap { surface(at: $0)?.owner.id } }

    /// The client whose surface has pointer focus.
    var pointerFocusClient: ClientID? { focus.pointer.flatMap { surface(at: $0)?.owner.id } }
}
