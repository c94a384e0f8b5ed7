/// The routing core: input events in, delivery decisions out.
///
/// ```
///   backend ──InputEvent──▶ InputRouter ──Delivery──▶ DeliverySink ──▶ wl_touch / wl_pointer / wl_keyboard
///                             │    ▲                   (protocol layer, or RecordingSink in tests)
///                  hit test   ▼    │ updateScene (commits, destroys)
///                            Scene ◀──── protocol layer
/// ```
///
/// - Touch: the surface hit at touch-down owns the touch until it ends; motion is delivered in
///   that surface's coordinates wherever the finger goes. Each client gets one frame per group.
/// - Pointer: focus follows the hit test; while a button is held the pressed surface keeps it.
/// - Keyboard: focus goes to the toplevel last touched or clicked.
///
/// A value type, driven from one thread (the event loop). Routing a motion event allocates
/// nothing once the touch and frame tables have grown to the number of fingers in use.
public struct InputRouter {
    public internal(set) var scene: Scene
    public var policy: RoutingPolicy
    var touches: [ActiveTouch] = []
    /// Clients that received touch events in the group still open, in first-event order.
    var touchFrameOwed: [ClientID] = []
    var pointer = PointerState()
    var keyboard = KeyboardState()
    var capabilities: [ClientID: InputCapabilities] = [:]
    /// The time of the latest event, stamped on events the core makes up (an up for a destroyed surface).
    var latestTime = Instant.zero
    /// Compositor gesture recognizers and how they relate (`InputRouter+Gestures`).
    var gestures: [GestureSlot] = []
    var nextGestureID = 0
    var simultaneousGestures: [(GestureID, GestureID)] = []
    var failureRequirements: [(GestureID, GestureID)] = []
    /// The touchpad gesture under way (`InputRouter+TouchpadGestures`).
    var touchpadGesture: ActiveTouchpadGesture?
    /// Pens in proximity (`InputRouter+Pen`).
    var pens: [PenState] = []
    /// The emulated touch that may yet be a right click (`InputRouter+SecondaryClick`).
    var longPress: EmulatedLongPress?

    public init(scene: Scene = Scene(), policy: RoutingPolicy = RoutingPolicy()) {
        self.scene = scene
        self.policy = policy
        touches.reserveCapacity(16)
        touchFrameOwed.reserveCapacity(16)
    }

    public mutating func handle(_ event: InputEvent, sink: inout some DeliverySink) {
        switch event {
        case .touchDown(let id, let global, let time): touchDown(id, global, time, event, &sink)
        case .touchMotion(let id, let global, let time): touchMotion(id, global, time, event, &sink)
        case .touchUp(let id, let time): touchUp(id, time, event, &sink)
        case .touchCancel(let id, let time): touchCancel(id, time, event, &sink)
        case .touchFrame: endTouchGroup(&sink)
        case .pointerMotion(let global, let time): pointerMotion(global, time, event, &sink)
        case .pointerButton(let button, let state, let time): pointerButton(button, state, time, event, &sink)
        case .pointerAxis(let motion, let time): pointerAxis(motion, time, &sink)
        case .key(let key, let state, let time): keyEvent(key, state, time, event, &sink)
        case .touchpadGestureBegin(let kind, let fingers, let time): touchpadGestureBegin(kind, fingers, time, event, &sink)
        case .touchpadGestureUpdate(let delta, let scale, let rotation, let time):
            touchpadGestureUpdate(delta, scale, rotation, time, event, &sink)
        case .touchpadGestureEnd(let cancelled, let time): touchpadGestureEnd(cancelled, time, event, &sink)
        case .penProximity(let pen, let entering, let global, let axes, let time): penProximity(pen, entering, global, axes, time, event, &sink)
        case .penTip(let pen, let down, let time): penTip(pen, down, time, event, &sink)
        case .penMotion(let pen, let global, let axes, let time): penMotion(pen, global, axes, time, event, &sink)
        case .penButton(let pen, let button, let state, let time): penButton(pen, button, state, time, event, &sink)
        case .pad(let pad, let action, let time): padEvent(pad, action, time, event, &sink)
        }
    }

    /// Applies a change to the scene, then settles what it affects: touches whose surface is
    /// gone end (up and frame, at once), touches whose surface moved get a motion to their
    /// new local position, focus on a removed surface is dropped, and the pointer re-enters
    /// whatever is now under it (or moves on its surface) if no button holds it.
    @discardableResult
    public mutating func updateScene<R>(sink: inout some DeliverySink, _ change: (inout Scene) throws -> R) rethrows -> R {
        let result = try change(&scene)
        endTouchesOnRemovedSurfaces(&sink)
        followMovedOwners(&sink)
        if let focus = keyboard.focus, !scene.contains(focus.node) {
            keyboard.focus = nil
            if sink.isTracing { sink.trace(.keyboardFocus(nil, nil, .surfaceRemoved)) }
        }
        endTouchpadGestureOfRemovedSurface(&sink)
        if let focus = pointer.focus, !scene.contains(focus.node) {
            pointer.focus = nil
            if sink.isTracing { sink.trace(.pointerFocus(nil, nil, .surfaceRemoved)) }
        }
        // After the pointer's focus is settled: a pen may go back to driving it.
        followPensOnRemovedSurfaces(&sink)
        if pointer.pressed.isEmpty { refocusPointer(motionTime: nil, because: .sceneChanged, &sink) }
        return result
    }

    /// The topmost node at `global`, as a touch-down there would find it; routes nothing.
    public mutating func hitTest(at global: Point) -> HitTestResult? {
        scene.hitTest(at: global)
    }

    /// Why a touch at `global` would go where it goes: every node the hit test looked at,
    /// with its verdict. Costs nothing unless called.
    public mutating func explainHitTest(at global: Point) -> HitTestExplanation {
        scene.explainHitTest(at: global)
    }

    /// Records which devices a client has bound on this seat; touch routing falls back along
    /// the responder chain for a client without wl_touch. A client with none is not kept: a
    /// departing client releases its devices after it was forgotten.
    public mutating func setCapabilities(_ bound: InputCapabilities, for client: ClientID) {
        capabilities[client] = bound.isEmpty ? nil : bound
    }

    /// The devices `client` has bound; nil for a client without any, or one that went away.
    public func capabilities(of client: ClientID) -> InputCapabilities? { capabilities[client] }

    /// Forgets a client that went away: its touches end silently (nobody to tell), its
    /// surfaces leave the scene, and the pointer enters whatever is under it now.
    public mutating func clientDisconnected(_ client: ClientID, sink: inout some DeliverySink) {
        dropTouches(of: client)
        forgetPens(of: client)
        capabilities[client] = nil
        if pointer.focus?.client == client { pointer.focus = nil }
        if keyboard.focus?.client == client { keyboard.focus = nil }
        updateScene(sink: &sink) { scene in
            for node in scene.nodes(of: client) { scene.remove(node) }
        }
    }

    func acceptsTouch(_ client: ClientID) -> Bool { capabilities[client]?.contains(.touch) ?? false }
    func acceptsPointer(_ client: ClientID) -> Bool { capabilities[client]?.contains(.pointer) ?? false }
    func acceptsTablet(_ client: ClientID) -> Bool { capabilities[client]?.contains(.tablet) ?? false }

    /// The surface the protocol layer should treat as focused, as a node and its client.
    struct Focus: Equatable {
        var node: NodeID
        var client: ClientID
    }

    func focus(for node: NodeID?) -> Focus? {
        guard let node, let client = scene.node(node)?.client else { return nil }
        return Focus(node: node, client: client)
    }

    func local(_ global: Point, in node: NodeID) -> Point? {
        scene.absolutePosition(of: node).map { global.relative(to: $0) }
    }
}

/// Compositor policy for routing choices the protocol leaves open.
public struct RoutingPolicy: Sendable {
    /// When the touch's owner has no wl_touch: drive its pointer with the first finger (enter,
    /// motion, left button) instead of dropping the touch. On by default, as older toolkits
    /// and X11-era kiosk apps only read the pointer.
    public var emulatesPointerForTouch: Bool
    /// How many pixels along each screen edge one client may keep system edge gestures off
    /// (`Node.edgeGestureDeferral`): enough for a drawer handle or a slider, never the whole
    /// edge, so no client can lock a kiosk user out of the system gesture.
    public var edgeDeferralLimit: Double
    /// While a pen hovers over a client, that client's new touches wait: the hand resting on
    /// the screen as it signs (`InputRouter+Palms`).
    public var rejectsPalms: Bool
    /// In the pointer emulation, a finger held still this long right-clicks where it is,
    /// and sends no left button (`InputRouter+SecondaryClick`); nil: off.
    public var secondaryClick: Duration?

    public init(emulatesPointerForTouch: Bool = true, edgeDeferralLimit: Double = 200, rejectsPalms: Bool = true, secondaryClick: Duration? = nil) {
        self.emulatesPointerForTouch = emulatesPointerForTouch
        self.edgeDeferralLimit = edgeDeferralLimit
        self.rejectsPalms = rejectsPalms
        self.secondaryClick = secondaryClick
    }
}

/// The devices a client has bound on the seat.
public struct InputCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let pointer = InputCapabilities(rawValue: 1 << 0)
    public static let keyboard = InputCapabilities(rawValue: 1 << 1)
    public static let touch = InputCapabilities(rawValue: 1 << 2)
    /// A zwp_tablet_seat_v2: pens reach the client as tablet tools, not as its pointer.
    public static let tablet = InputCapabilities(rawValue: 1 << 3)
    public static let all: InputCapabilities = [.pointer, .keyboard, .touch]
}
