import Responder
import Testing

/// The core's promises to every client, checked on long random streams of input and scene
/// changes with gestures attached (issue 12: what input fuzzing must never find):
/// - no touch event without its down, no second down for a touch the client holds;
/// - no down, motion or enter for a surface that is not the client's, or not in the scene;
/// - pointer and keyboard enters and leaves pair up, and nothing arrives between a leave and
///   the next enter;
/// - nothing for a client that went away;
/// - touchpad gestures begin on the client's surface, one at a time, and their updates and
///   end are of the gesture begun;
/// - a pen's tablet events go only to clients with a tablet seat, on their own surface,
///   between its proximity_in and proximity_out, its down and up paired, no tip left down;
/// - a pad's buttons, rings and strips go only to the surface with the keyboard focus;
/// - once every finger, button and key is up and every deadline passed, no client holds a touch.
@Suite struct RoutingInvariantTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomStreamsKeepEveryPromise(seed: UInt64) {
        var fuzz = RoutingFuzz(seed: seed)
        for _ in 0..<8_000 { fuzz.step() }
        fuzz.liftEverything()
        #expect(fuzz.violations == [], "seed \(seed)")
        #expect(fuzz.clients.values.allSatisfy { $0.touches.isEmpty }, "a touch is stuck (seed \(seed))")
        #expect(fuzz.clients.values.allSatisfy { $0.touchpadGesture == nil }, "a touchpad gesture is stuck (seed \(seed))")
        #expect(fuzz.clients.values.allSatisfy { $0.pens.isEmpty && $0.penTips.isEmpty }, "a pen is stuck (seed \(seed))")
        for kind in ["touchDown", "touchUp", "touchCancel", "pointerEnter", "pointerButton", "keyboardEnter", "key",
                     "touchpadGestureBegin", "touchpadGestureEnd", "penProximityIn", "penDown", "penButton", "pad"] {
            #expect(fuzz.delivered[kind, default: 0] > 0, "the stream never made a \(kind) (seed \(seed))")
        }
    }
}

/// What one client has been told, as a well-behaved client would track it.
struct ClientView {
    var touches: Set<Int32> = []
    var pointerFocus: NodeID?
    var keyboardFocus: NodeID?
    var touchpadGesture: TouchpadGesture?
    /// Pens in proximity of its surfaces, and those with the tip down.
    var pens: [Int32: NodeID] = [:]
    var penTips: Set<Int32> = []
}

/// A router driven by a seeded stream, with each delivery checked against the clients' views.
struct RoutingFuzz {
    var rng: TestRandom
    var desk: Desk
    var clients: [ClientID: ClientView] = [:]
    var gone: Set<ClientID> = []
    var nextClient: UInt64 = 1
    var nodes: [NodeID] = []
    /// Touch ids, buttons and keys the device holds down.
    var fingers: Set<Int32> = []
    var buttons: Set<UInt32> = []
    var keys: Set<UInt32> = []
    var gestureOnTouchpad = false
    /// The pen: in proximity, its tip down, its barrel button held.
    var pen = (near: false, tip: false, button: false)
    var now = ms(1)
    var violations: [String] = []
    /// The latest steps (what was done, what a client was sent), for a violation's message.
    var recent: [String] = []
    /// How many deliveries of each kind the stream made, so a test can see it reached them.
    var delivered: [String: Int] = [:]

    init(seed: UInt64) {
        rng = TestRandom(seed: seed)
        desk = Desk(bound: [:])
        let edgeOptions = GestureOptions(cancelsTouchesInView: true, delaysTouchesBegan: seed % 2 == 0)
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root, options: edgeOptions)
        desk.router.addGesture(Swipe(fingers: 3), on: desk.root)
        desk.router.addGesture(Tap(count: 2), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        desk.router.addGesture(LongPress(), on: desk.root, options: GestureOptions(inputTypes: [.touch, .pen]))
        desk.router.addGesture(Swipe(fingers: 3, direction: .left), on: desk.root,
                               options: GestureOptions(delaysTouchesBegan: seed % 3 == 0), device: .touchpad)
        for _ in 0..<3 { connect() }
        for _ in 0..<6 { addSurface() }
    }

    mutating func step() {
        now = now.advanced(by: .milliseconds(1 + rng.below(20)))
        switch rng.below(100) {
        case 0..<44: touch()
        case 44..<52: penStep()
        case 52..<55: touchpadGesture()
        case 55..<68: send(.pointerMotion(global: randomPoint(), time: now))
        case 68..<73: button()
        case 73..<76: key()
        case 76: pad()
        case 77..<80: _ = deliver(desk.fire(at: now))
        default: changeScene()
        }
    }

    /// Lets go of everything and lets every deadline pass.
    mutating func liftEverything() {
        for id in fingers.sorted() { send(.touchUp(id: id, time: now)) }
        send(.touchFrame)
        fingers.removeAll()
        for button in buttons.sorted() { send(.pointerButton(button: button, state: .released, time: now)) }
        for key in keys.sorted() { send(.key(key: key, state: .released, time: now)) }
        (buttons, keys) = ([], [])
        if gestureOnTouchpad { send(.touchpadGestureEnd(cancelled: false, time: now)) }
        if pen.near { send(.penProximity(pen: 1, entering: false, global: p(0, 0), time: now)) }
        pen = (false, false, false)
        now = now.advanced(by: .seconds(10))
        _ = deliver(desk.fire(at: now))
    }

    private mutating func touch() {
        let id = Int32(rng.below(5))
        if fingers.contains(id) {
            switch rng.below(10) {
            case 0..<7: send(.touchMotion(id: id, global: randomPoint(), time: now))
            case 7..<9:
                send(.touchUp(id: id, time: now))
                fingers.remove(id)
            default:
                send(.touchCancel(id: id, time: now))
                fingers.remove(id)
            }
        } else {
            send(.touchDown(id: id, global: randomPoint(), time: now))
            fingers.insert(id)
        }
        if rng.below(2) == 0 { send(.touchFrame) }
    }

    private mutating func touchpadGesture() {
        if !gestureOnTouchpad || rng.below(8) == 0 {
            // Mostly with the mouse's buttons up: a button held over nothing keeps the
            // pointer's focus on nothing, and the stream, holding some button most of the
            // time, would then hardly ever begin a gesture anyone hears.
            if rng.below(4) > 0 {
                for button in buttons.sorted() { send(.pointerButton(button: button, state: .released, time: now)) }
                buttons.removeAll()
            }
            // Mostly over a surface, so that someone hears it.
            if let node = randomNode(), let origin = desk.router.scene.absolutePosition(of: node) {
                send(.pointerMotion(global: p(Double(origin.x) + 2, Double(origin.y) + 2), time: now))
            }
            let kinds = TouchpadGesture.allCases
            send(.touchpadGestureBegin(kinds[rng.below(kinds.count)], fingers: 2 + rng.below(3), time: now))
            gestureOnTouchpad = true
        } else if rng.below(5) == 0 {
            send(.touchpadGestureEnd(cancelled: rng.below(4) == 0, time: now))
            gestureOnTouchpad = false
        } else {
            let delta = p(Double(rng.below(81)) - 60, Double(rng.below(41)) - 20)
            send(.touchpadGestureUpdate(delta: delta, scale: Double(50 + rng.below(100)) / 100, rotation: 0, time: now))
        }
    }

    /// Now and then a nonsense value, which the core refuses or brings into range.
    private mutating func pad() {
        let value = [Double.nan, -1e300, 1e300, -3, 0.5, 400][rng.below(6)]
        let action: PadAction = switch rng.below(3) {
        case 0: .button(UInt32(rng.below(6)), rng.below(2) == 0 ? .pressed : .released)
        case 1: .ring(UInt32(rng.below(2)), degrees: rng.below(4) == 0 ? nil : value, byFinger: true)
        default: .strip(UInt32(rng.below(2)), position: rng.below(4) == 0 ? nil : value, byFinger: true)
        }
        send(.pad(pad: Int32(rng.below(3)), action, time: now))
    }

    private mutating func penStep() {
        guard pen.near else {
            send(.penProximity(pen: 1, entering: true, global: randomPenPoint(), time: now))
            pen.near = true
            return
        }
        switch rng.below(10) {
        case 0..<5:
            let axes = PenAxes(pressure: Double(rng.below(101)) / 100, tiltX: Double(rng.below(121)) - 60)
            send(.penMotion(pen: 1, global: randomPenPoint(), axes: axes, time: now))
        case 5..<7:
            pen.tip.toggle()
            send(.penTip(pen: 1, down: pen.tip, time: now))
        case 7..<9:
            pen.button.toggle()
            send(.penButton(pen: 1, button: 0x14b, state: pen.button ? .pressed : .released, time: now))
        default:
            send(.penProximity(pen: 1, entering: false, global: p(0, 0), time: now))
            pen = (false, false, false)
        }
    }

    /// Mostly over a surface, so that someone hears the pen.
    private mutating func randomPenPoint() -> Point {
        guard rng.below(4) > 0, let node = randomNode(), let origin = desk.router.scene.absolutePosition(of: node) else { return randomPoint() }
        return p(Double(origin.x) + Double(rng.below(40)), Double(origin.y) + Double(rng.below(40)))
    }

    private mutating func button() {
        let button = UInt32(0x110 + rng.below(3))
        let pressed = !buttons.contains(button)
        send(.pointerButton(button: button, state: pressed ? .pressed : .released, time: now))
        if pressed { buttons.insert(button) } else { buttons.remove(button) }
    }

    private mutating func key() {
        let key = UInt32(16 + rng.below(4))
        let pressed = !keys.contains(key)
        send(.key(key: key, state: pressed ? .pressed : .released, time: now))
        if pressed { keys.insert(key) } else { keys.remove(key) }
    }

    private mutating func changeScene() {
        nodes.removeAll { !desk.router.scene.contains($0) }
        switch rng.below(20) {
        case 0..<6: addSurface()
        case 6..<9: if let node = randomNode() { change { $0.remove(node) } }
        case 9..<13:
            let position = Position(x: rng.below(900), y: rng.below(900))
            if let node = randomNode() { change { $0.update(node) { $0.position = position } } }
        case 13..<15: if let node = randomNode() { change { $0.update(node) { $0.isMapped.toggle() } } }
        case 15..<17:
            let region = Region(Rect(x: rng.below(100), y: rng.below(100), width: rng.below(300), height: rng.below(300)))
            if let node = randomNode() { change { $0.update(node) { $0.inputRegion = region } } }
        case 17: if let node = randomNode() { change { $0.restack(node, to: .bottom) } }
        default: disconnectAndReplace()
        }
    }

    private mutating func connect() {
        let id = ClientID(nextClient)
        nextClient += 1
        let devices: [InputCapabilities] = [.all, .all, [.pointer, .keyboard], [.touch], []]
        var bound = devices[rng.below(devices.count)]
        // Every other client has a tablet seat too: pens reach it as tablet tools.
        if id.rawValue % 2 == 1, !bound.isEmpty { bound.insert(.tablet) }
        desk.router.setCapabilities(bound, for: id)
        clients[id] = ClientView()
    }

    private mutating func disconnectAndReplace() {
        guard let client = liveClients.first(where: { _ in rng.below(2) == 0 }) else { return }
        note("\(client) disconnects")
        desk.router.clientDisconnected(client, sink: &desk.sink)
        _ = deliver(desk.sink.take().deliveries)
        clients[client] = nil
        gone.insert(client)
        connect()
    }

    private mutating func addSurface() {
        guard let client = liveClients.randomElement(using: &rng) else { return }
        let scene = desk.router.scene
        let parent = rng.below(3) == 0 ? nodes.filter { scene.node($0)?.client == client }.randomElement(using: &rng) : nil
        let size = Size(width: 20 + rng.below(400), height: 20 + rng.below(400))
        let node = Node.surface(of: client, isToplevel: parent == nil, position: Position(x: rng.below(900), y: rng.below(900)), size: size)
        var added: NodeID?
        let root = desk.root
        change { added = $0.add(node, to: parent ?? root) }
        if let added { nodes.append(added) }
    }

    private mutating func randomNode() -> NodeID? { nodes.randomElement(using: &rng) }

    /// In a fixed order: a dictionary's order changes from run to run, a seed's stream must not.
    private var liveClients: [ClientID] { clients.keys.sorted { $0.rawValue < $1.rawValue } }

    private mutating func randomPoint() -> Point { p(Double(rng.below(4000)) / 4, Double(rng.below(4000)) / 4) }

    private mutating func send(_ event: InputEvent) {
        note("\(event)")
        _ = deliver(desk.send(event))
    }

    private mutating func note(_ step: String) {
        if recent.count == 30 { recent.removeFirst() }
        recent.append(step)
    }

    /// A client whose focused surface is gone knows it lost that focus, without a leave, and
    /// before whatever the same change enters next.
    private mutating func change(_ body: (inout Scene) -> Void) {
        note("scene change")
        let deliveries = desk.change(body)
        let scene = desk.router.scene
        for (client, view) in clients {
            if let node = view.pointerFocus, !scene.contains(node) { clients[client]?.pointerFocus = nil }
            if let node = view.keyboardFocus, !scene.contains(node) { clients[client]?.keyboardFocus = nil }
        }
        _ = deliver(deliveries)
    }

    /// Checks each delivery against its client's view, then updates the view.
    private mutating func deliver(_ deliveries: [Delivery]) -> Bool {
        for delivery in deliveries {
            let client = delivery.client
            guard !gone.contains(client) else {
                violations.append("\(delivery) to a client that went away")
                continue
            }
            delivered[String(describing: delivery).prefix { $0 != "(" }.description, default: 0] += 1
            note("  -> \(delivery)")
            var view = clients[client] ?? ClientView()
            check(delivery, against: &view)
            clients[client] = view
        }
        return violations.isEmpty
    }

    private mutating func check(_ delivery: Delivery, against view: inout ClientView) {
        func fail(_ why: String) {
            let scene = desk.router.scene
            let focus = view.pointerFocus.map { "\($0) in scene: \(scene.contains($0)) mapped: \(scene.node($0)?.isMapped ?? false)" }
            violations.append("\(delivery): \(why) (\(focus ?? "")), after:\n" + recent.joined(separator: "\n"))
        }
        func owned(_ node: NodeID) -> Bool { desk.router.scene.node(node)?.client == delivery.client }
        switch delivery {
        case .touchDown(_, let node, let id, _, _):
            if !owned(node) { fail("surface not the client's") }
            if !view.touches.insert(id).inserted { fail("second down") }
        case .touchMotion(_, let node, let id, _, _):
            if !owned(node) { fail("surface not the client's") }
            if !view.touches.contains(id) { fail("motion without a down") }
        case .touchUp(_, let id, _):
            if view.touches.remove(id) == nil { fail("up without a down") }
        case .touchCancel:
            view.touches.removeAll()
        case .pointerEnter(_, let node, _):
            if !owned(node) { fail("surface not the client's") }
            if view.pointerFocus != nil { fail("enter without a leave") }
            view.pointerFocus = node
        case .pointerLeave(_, let node):
            if view.pointerFocus != node { fail("leave of a surface not entered") }
            view.pointerFocus = nil
        case .pointerMotion(_, let node, _, _):
            if view.pointerFocus != node { fail("motion outside the entered surface") }
        case .pointerButton, .pointerAxis:
            if view.pointerFocus == nil { fail("no pointer focus") }
        case .keyboardEnter(_, let node, _):
            if !owned(node) { fail("surface not the client's") }
            if view.keyboardFocus != nil { fail("enter without a leave") }
            view.keyboardFocus = node
        case .keyboardLeave(_, let node):
            if view.keyboardFocus != node { fail("leave of a surface not entered") }
            view.keyboardFocus = nil
        case .key:
            if view.keyboardFocus == nil { fail("key without keyboard focus") }
        case .touchpadGestureBegin(_, let node, let kind, _, _):
            if !owned(node) { fail("surface not the client's") }
            if view.touchpadGesture != nil { fail("begin during a gesture") }
            view.touchpadGesture = kind
        case .touchpadGestureUpdate(_, let kind, _, _, _, _):
            if view.touchpadGesture != kind { fail("update of a gesture not begun") }
        case .touchpadGestureEnd(_, let kind, _, _):
            if view.touchpadGesture != kind { fail("end of a gesture not begun") }
            view.touchpadGesture = nil
        case .penProximityIn(let client, let node, let pen, _, _, _):
            if !owned(node) { fail("surface not the client's") }
            if !(desk.router.capabilities(of: client)?.contains(.tablet) ?? false) { fail("a client without a tablet seat") }
            if view.pens[pen] != nil { fail("second proximity_in") }
            view.pens[pen] = node
        case .penProximityOut(_, let pen, _):
            if view.pens.removeValue(forKey: pen) == nil { fail("proximity_out without proximity_in") }
            if view.penTips.contains(pen) { fail("proximity_out with the tip down") }
        case .penDown(_, let pen, _):
            if view.pens[pen] == nil { fail("down out of proximity") }
            if !view.penTips.insert(pen).inserted { fail("second down") }
        case .penUp(_, let pen, _):
            if view.penTips.remove(pen) == nil { fail("up without a down") }
        case .penMotion(_, let pen, _, _, _), .penButton(_, let pen, _, _, _):
            if view.pens[pen] == nil { fail("out of proximity") }
        case .pad(_, let node, _, let action, _):
            if view.keyboardFocus != node { fail("a pad outside the keyboard focus") }
            switch action {
            case .ring(_, let degrees?, _): if !(0..<360).contains(degrees) { fail("a ring angle out of range") }
            case .strip(_, let position?, _): if !(0...1).contains(position) { fail("a strip position out of range") }
            default: break
            }
        case .touchFrame, .pointerFrame, .penFrame:
            break
        }
    }
}
