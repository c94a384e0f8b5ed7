import Responder
import Testing

let alice = ClientID(1)
let bob = ClientID(2)

func ms(_ value: UInt64) -> Instant { .milliseconds(value) }

func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

/// A mapped toplevel surface of `client` at `x, y` with size `w × h`.
func window(_ client: ClientID, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Node {
    .surface(of: client, isToplevel: true, position: Position(x: x, y: y), size: Size(width: w, height: h))
}

/// A mapped subsurface of `client` at `x, y` relative to its parent.
func subsurface(_ client: ClientID, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Node {
    .surface(of: client, position: Position(x: x, y: y), size: Size(width: w, height: h))
}

/// A router, a recording sink, and shorthands: what each routing test drives.
struct Desk {
    var router: InputRouter
    var sink = RecordingSink()

    init(policy: RoutingPolicy = RoutingPolicy(), bound: [ClientID: InputCapabilities] = [alice: .all, bob: .all]) {
        router = InputRouter(scene: Scene(root: .compositor(size: Size(width: 1000, height: 1000))), policy: policy)
        for (client, caps) in bound { router.setCapabilities(caps, for: client) }
    }

    var root: NodeID { router.scene.root }

    @discardableResult
    mutating func add(_ node: Node, to parent: NodeID? = nil, at position: StackPosition = .top) -> NodeID {
        let parent = parent ?? root
        let id = router.updateScene(sink: &sink) { $0.add(node, to: parent, at: position) }!
        sink = RecordingSink()
        return id
    }

    /// What the last `send`, `diagnose` or `change` reported.
    var reported: [Diagnostic] = []

    /// Routes the events; returns what they delivered (what they reported is in `reported`).
    mutating func send(_ events: InputEvent...) -> [Delivery] {
        for e in events { router.handle(e, sink: &sink) }
        let (deliveries, diagnostics) = sink.take()
        reported = diagnostics
        return deliveries
    }

    /// Routes the events; returns what they reported, and fails the test if they delivered anything.
    mutating func diagnose(_ events: InputEvent..., sourceLocation: SourceLocation = #_sourceLocation) -> [Diagnostic] {
        for e in events { router.handle(e, sink: &sink) }
        let (deliveries, diagnostics) = sink.take()
        #expect(deliveries == [], sourceLocation: sourceLocation)
        reported = diagnostics
        return diagnostics
    }

    /// The gesture tests' time: it moves only when `fire(at:)` says.
    var clock = ManualClock()

    /// Moves the clock to `now`, firing each recognizer deadline on the way at its own time;
    /// returns what that delivered.
    mutating func fire(at now: Instant) -> [Delivery] {
        var (clock, router, sink) = (self.clock, self.router, self.sink)
        clock.advance(by: now - clock.now, nextDeadline: { router.nextGestureDeadline }) { due in
            router.fireGestureDeadlines(at: due, sink: &sink)
        }
        (self.clock, self.router, self.sink) = (clock, router, sink)
        let (deliveries, diagnostics) = self.sink.take()
        reported = diagnostics
        return deliveries
    }

    /// The gesture events since the last call, as (gesture, state).
    mutating func gestureEvents() -> [GestureState] {
        defer { sink.gestures.removeAll() }
        return sink.gestures.map(\.state)
    }

    /// Changes the scene through the router; returns what the change delivered.
    mutating func change(_ body: (inout Scene) -> Void) -> [Delivery] {
        router.updateScene(sink: &sink, body)
        let (deliveries, diagnostics) = sink.take()
        reported = diagnostics
        return deliveries
    }
}

/// A scene behind a reference, so expectations can call the hit test (which refreshes cached
/// bounds, hence is mutating) inside `#expect`.
final class SceneProbe {
    var scene = Scene(root: .compositor(size: Size(width: 1000, height: 1000)))
    var root: NodeID { scene.root }

    func hit(_ point: Point) -> HitTestResult? { scene.hitTest(at: point) }
    func restack(_ node: NodeID, to position: StackPosition) -> Bool { scene.restack(node, to: position) }
    func remove(_ node: NodeID) -> Bool { scene.remove(node) }
}

/// Why each diagnostic rejected its event (NaN events never compare equal, their reasons do).
func rejections(_ diagnostics: [Diagnostic]) -> [Diagnostic.Rejection] {
    diagnostics.compactMap { if case .ignored(_, let reason) = $0 { reason } else { nil } }
}
