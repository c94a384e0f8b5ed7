import Responder
import Testing

/// The core's explained decisions (`TraceEvent`) and their lines (`TraceFormatter`): what
/// `--trace` prints, told apart from the routing itself. The scene is built so every reason a
/// surface can be passed over shows up once.
@Suite struct TraceTests {
    struct Names: TraceNaming {
        let names: [NodeID: String]
        func name(_ node: NodeID) -> String { names[node].map { "surface=\($0)" } ?? "surface=none" }
        func name(_ client: ClientID) -> String { "client=\(client.rawValue)" }
        func name(_ gesture: GestureID) -> String { "swipe" }
        func place(_ global: Point) -> String { TraceFormatter.coordinates(global) }
    }

    /// Topmost first: a hidden window, a window with input off, one whose input region has its
    /// top right quarter cut out, one far away, then the window that takes the touch, then one under it.
    static func desk() -> (Desk, Names) {
        var desk = Desk()
        let under = desk.add(window(bob, 0, 0, 400, 400))
        let taker = desk.add(window(alice, 0, 0, 300, 300))
        let far = desk.add(window(bob, 700, 700, 50, 50))
        let halfInput = desk.add(window(bob, 0, 0, 200, 200))
        var notch = Region(Rect(x: 0, y: 0, width: 200, height: 200))
        notch.subtract(Rect(x: 100, y: 0, width: 100, height: 100))
        desk.router.updateScene(sink: &desk.sink) { $0.update(halfInput) { $0.inputRegion = notch } }
        let noInput = desk.add(window(bob, 0, 0, 200, 200))
        desk.router.updateScene(sink: &desk.sink) { $0.update(noInput) { $0.acceptsInput = false } }
        let hidden = desk.add(window(bob, 0, 0, 200, 200))
        desk.router.updateScene(sink: &desk.sink) { $0.update(hidden) { $0.isHidden = true } }
        desk.sink = RecordingSink(tracing: true)
        let names = [under: "under", taker: "taker", far: "far", halfInput: "half-input", noInput: "no-input", hidden: "hidden", desk.root: "root"]
        return (desk, Names(names: Dictionary(uniqueKeysWithValues: names.map { ($0.key, $0.value) })))
    }

    @Test func aTouchDownNamesEverySkippedSurfaceWithItsReasonAndTheCoveredOnes() {
        var (desk, names) = Self.desk()
        _ = desk.send(.touchDown(id: 1, global: p(150, 50), time: ms(1)))
        let lines = desk.sink.traces.flatMap { TraceFormatter.lines($0, naming: names) }
        #expect(lines.first == "touch 1 down at=150,50")
        #expect(lines.contains("touch 1 hit-test surface=hidden local=150,50 verdict=hidden"))
        #expect(lines.contains("touch 1 hit-test surface=no-input local=150,50 verdict=input-disabled"))
        #expect(lines.contains("touch 1 hit-test surface=half-input local=150,50 verdict=outside-input-region"))
        #expect(lines.contains("touch 1 hit-test surface=far local=-550,-650 verdict=pruned"))
        #expect(lines.contains("touch 1 hit-test surface=taker local=150,50 verdict=hit"))
        #expect(lines.contains("touch 1 hit-test surface=under local=150,50 verdict=covered"))
        #expect(lines.contains("touch 1 owner surface=taker local=150,50"))
        #expect(lines.contains("keyboard focus surface=taker cause=touched"))
        // The root, an ancestor of the winner, is its responder chain: never "covered".
        #expect(!lines.contains { $0.contains("surface=root") && $0.contains("covered") })
    }

    @Test func theExplainedHitTestAgreesWithThePlainOneEverywhere() {
        var scene = Self.desk().0.router.scene
        for x in stride(from: -10.0, through: 800, by: 23) {
            for y in stride(from: -10.0, through: 800, by: 29) {
                let plain = scene.hitTest(at: p(x, y))
                let explained = scene.explainHitTest(at: p(x, y))
                #expect(plain?.node == explained.result?.node && plain?.local == explained.result?.local)
                #expect(explained.steps.filter { $0.verdict == HitVerdict.hit }.count == (plain == nil ? 0 : 1))
            }
        }
    }

    @Test func aSinkThatDoesNotTraceIsToldNothingAndRoutingIsTheSame() {
        var (traced, _) = Self.desk()
        var (plain, _) = Self.desk()
        plain.sink = RecordingSink()
        let events: [InputEvent] = [.touchDown(id: 1, global: p(150, 50), time: ms(1)), .touchFrame,
                                    .touchMotion(id: 1, global: p(500, 500), time: ms(2)), .touchFrame, .touchUp(id: 1, time: ms(3)), .touchFrame]
        for event in events {
            traced.router.handle(event, sink: &traced.sink)
            plain.router.handle(event, sink: &plain.sink)
        }
        #expect(plain.sink.traces.isEmpty)
        #expect(!traced.sink.traces.isEmpty)
        #expect(traced.sink.deliveries == plain.sink.deliveries)
    }

    @Test func aWonSwipeTellsWhoseTouchItCancelled() {
        var desk = Desk()
        let taker = desk.add(window(alice, 0, 0, 1000, 1000))
        let swipe = desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        desk.sink = RecordingSink(tracing: true)
        _ = desk.send(.touchDown(id: 1, global: p(4, 400), time: ms(1)), .touchFrame,
                      .touchMotion(id: 1, global: p(40, 400), time: ms(2)), .touchFrame,
                      .touchMotion(id: 1, global: p(140, 400), time: ms(3)), .touchFrame)
        let names = Names(names: [taker: "taker"])
        let lines = desk.sink.traces.flatMap { TraceFormatter.lines($0, naming: names) }
        #expect(lines.contains("touch 1 offered gesture=swipe"))
        #expect(lines.contains("touch 1 claimed gesture=swipe cancelled client=\(alice.rawValue) (wl_touch.cancel)"))
        #expect(desk.sink.gestures.contains { $0.gesture == swipe && $0.state == .began })
    }
}
