import Responder

/// The run command until the server exists: a kiosk-like scene in the routing core, a
/// scripted sequence of touches, and every decision the core makes, printed as it makes it.
/// Nothing here is canned: each line comes from the core's sink.
struct Demo {
    var router = InputRouter(scene: Scene(root: .compositor(size: Size(width: 1280, height: 800))))
    var sink = PrintingSink()
    var clock = Instant.milliseconds(1000)
    var step = 0

    let gallery = ClientID(1), pinPad = ClientID(2), legacy = ClientID(3)

    mutating func run() {
        print("Tactile demo: the routing core on a built-in 1280x800 kiosk scene (no display needed).\n")
        let ids = buildScene()
        printScene()

        section("Explain on request: the hit test at (1000, 40), under the pass-through notification banner")
        print(describe(router.explainHitTest(at: Point(x: 1000, y: 40))))

        section("A tap on a photo: the gallery's surface owns the touch; keyboard focus follows")
        send(.touchDown(id: 1, global: Point(x: 200, y: 300), time: tick()), .touchFrame, .touchUp(id: 1, time: tick()), .touchFrame)

        section("The magnifier subsurface sticks out past the gallery's right edge: still hit there")
        send(.touchDown(id: 1, global: Point(x: 820, y: 120), time: tick()), .touchFrame, .touchUp(id: 1, time: tick()), .touchFrame)

        section("A drag that starts on the toolbar and leaves it: coordinates stay toolbar-local")
        send(.touchDown(id: 2, global: Point(x: 100, y: 750), time: tick()), .touchFrame,
             .touchMotion(id: 2, global: Point(x: 900, y: 300), time: tick()), .touchFrame)

        section("A second finger on the PIN pad at the same time: one frame per client per group")
        send(.touchDown(id: 3, global: Point(x: 1000, y: 300), time: tick()), .touchFrame,
             .touchMotion(id: 2, global: Point(x: 905, y: 300), time: tick()),
             .touchMotion(id: 3, global: Point(x: 1010, y: 310), time: tick()), .touchFrame)

        section("A dialog maps on top of the PIN pad mid-touch: the finger still belongs to the PIN pad")
        addSurface("confirm-dialog", .surface(of: pinPad, isToplevel: true, position: Position(x: 900, y: 200), size: Size(width: 300, height: 200)))
        send(.touchMotion(id: 3, global: Point(x: 1020, y: 320), time: tick()), .touchFrame)

        section("The gallery destroys its toolbar while finger 2 is on it: up and frame at once, nothing after")
        changeScene { $0.remove(ids.toolbar) }
        send(.touchMotion(id: 2, global: Point(x: 910, y: 300), time: tick()), .touchFrame, .touchUp(id: 2, time: tick()), .touchFrame)

        section("The PIN pad client disconnects mid-touch: its touch is dropped silently")
        print("   ▶ client \(sink.name(pinPad)) disconnects")
        router.clientDisconnected(pinPad, sink: &sink)
        send(.touchMotion(id: 3, global: Point(x: 1030, y: 330), time: tick()), .touchFrame, .touchUp(id: 3, time: tick()), .touchFrame)

        section("A tap on an app that never bound wl_touch: the responder chain ends in pointer emulation")
        send(.touchDown(id: 4, global: Point(x: 1000, y: 600), time: tick()), .touchFrame,
             .touchMotion(id: 4, global: Point(x: 1010, y: 605), time: tick()), .touchFrame,
             .touchUp(id: 4, time: tick()), .touchFrame)

        section("A system swipe from the left edge wins: the client that saw the touch gets one wl_touch.cancel")
        let swipe = router.addGesture(EdgeSwipe(edge: .left), on: router.scene.root)
        sink.gestureNames[swipe] = "edge-swipe-left"
        send(.touchDown(id: 6, global: Point(x: 4, y: 400), time: tick()), .touchFrame,
             .touchMotion(id: 6, global: Point(x: 40, y: 400), time: tick()), .touchFrame,
             .touchMotion(id: 6, global: Point(x: 120, y: 400), time: tick()), .touchFrame,
             .touchUp(id: 6, time: tick()), .touchFrame)

        section("Nonsense input is refused with a reason and changes nothing")
        send(.touchMotion(id: 9, global: Point(x: 10, y: 10), time: tick()),
             .touchDown(id: 5, global: Point(x: .nan, y: 10), time: tick()))

    }

    private mutating func buildScene() -> (toolbar: NodeID, Void) {
        sink.clientNames = [gallery: "gallery", pinPad: "pin-pad", legacy: "legacy-app"]
        sink.surfaceNames[router.scene.root] = "output"
        router.setCapabilities(.all, for: gallery)
        router.setCapabilities(.all, for: pinPad)
        router.setCapabilities([.pointer, .keyboard], for: legacy)
        let photos = addSurface("gallery", .surface(of: gallery, isToplevel: true, size: Size(width: 800, height: 800)))
        let toolbar = addSurface("toolbar", .surface(of: gallery, position: Position(x: 0, y: 720), size: Size(width: 800, height: 80)), to: photos)
        addSurface("magnifier", .surface(of: gallery, position: Position(x: 780, y: 100), size: Size(width: 60, height: 60)), to: photos)
        addSurface("pin-pad", .surface(of: pinPad, isToplevel: true, position: Position(x: 840, y: 0), size: Size(width: 440, height: 500)))
        addSurface("legacy-app", .surface(of: legacy, isToplevel: true, position: Position(x: 840, y: 520), size: Size(width: 440, height: 280)))
        var banner = Node.compositor(position: Position(x: 840, y: 0), size: Size(width: 440, height: 100), inputRegion: .infinite)
        banner.acceptsInput = false
        addSurface("notification-banner", banner)
        return (toolbar, ())
    }

    @discardableResult
    private mutating func addSurface(_ name: String, _ node: Node, to parent: NodeID? = nil) -> NodeID {
        let parent = parent ?? router.scene.root
        var added: NodeID?
        changeScene { added = $0.add(node, to: parent) }
        sink.surfaceNames[added!] = name
        return added!
    }

    private mutating func changeScene(_ change: (inout Scene) -> Void) {
        router.updateScene(sink: &sink, change)
    }

    private func printScene() {
        print("Scene (children listed after their parent, later siblings on top):")
        printNode(router.scene.root, depth: 1)
    }

    private func printNode(_ id: NodeID, depth: Int) {
        guard let node = router.scene.node(id) else { return }
        let owner = node.client.map { "client \(sink.name($0))" } ?? "compositor"
        var traits = [owner]
        if node.isToplevel { traits.append("toplevel") }
        if !node.acceptsInput { traits.append("input off (pass-through)") }
        if let client = node.client, router.scene.parent(of: id).flatMap({ router.scene.node($0)?.client }) == client { traits.append("subsurface") }
        let indent = String(repeating: "  ", count: depth)
        print("\(indent)\(sink.name(id)): \(Rect(origin: node.position, size: node.size)) [\(traits.joined(separator: ", "))]")
        let (below, above) = router.scene.children(of: id)
        for child in below + above { printNode(child, depth: depth + 1) }
    }

    private mutating func section(_ title: String) {
        step += 1
        print("\n\(step). \(title)")
    }

    private mutating func send(_ events: InputEvent...) {
        for event in events {
            print("   ▶ \(event)")
            router.handle(event, sink: &sink)
        }
    }

    /// The explanation with surface names in place of node ids.
    private func describe(_ explanation: HitTestExplanation) -> String {
        var lines = explanation.steps.map { "     \(sink.name($0.node)) at \($0.local): \($0.verdict)" }
        if let result = explanation.result {
            let chain = result.chain.map(sink.name).joined(separator: " → ")
            lines.append("     first responder: \(sink.name(result.node)) at \(result.local); chain \(chain)")
        } else {
            lines.append("     nothing hit")
        }
        return lines.joined(separator: "\n")
    }

    private mutating func tick() -> Instant {
        clock = clock.advanced(by: .milliseconds(8))
        return clock
    }
}
