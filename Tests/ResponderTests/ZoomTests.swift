import Responder
import Testing

/// The seat's touches through `TouchZoom` on one 1280x800 output, as the panel reports them.
private struct Glass {
    var zoom = TouchZoom(settings: ZoomSettings())
    var output = RecordingZoomOutput()
    static let screen = Rect(x: 0, y: 0, width: 1280, height: 800)

    init() { zoom.setOutputs([Self.screen], into: &output) }

    mutating func send(_ events: InputEvent...) {
        for event in events { zoom.process(event, into: &output) }
    }

    /// Three fingers down around (x, y) at `ms`, and up `held` ms later.
    mutating func threeFingerTap(_ x: Double, _ y: Double, at ms: UInt64, held: UInt64 = 80, first id: Int32 = 0) {
        send(.touchDown(id: id, global: p(x - 40, y), time: .milliseconds(ms)), .touchDown(id: id + 1, global: p(x, y - 30), time: .milliseconds(ms + 10)),
             .touchDown(id: id + 2, global: p(x + 40, y + 30), time: .milliseconds(ms + 20)), .touchFrame)
        send(.touchUp(id: id, time: .milliseconds(ms + held)), .touchUp(id: id + 1, time: .milliseconds(ms + held)),
             .touchUp(id: id + 2, time: .milliseconds(ms + held)), .touchFrame)
    }

    /// What went on since the last call, frames left out.
    mutating func passed() -> [InputEvent] {
        defer { output.events.removeAll() }
        return output.events.filter { $0 != .touchFrame }
    }
}

@Suite struct ZoomTests {
    /// A three-finger double tap magnifies to 2x around the fingers, keeping the point under
    /// them there; a tap while zoomed lands where the magnified screen shows it; a second
    /// double tap restores. The two fingers the app had got a cancel; nothing else of the
    /// zoom's fingers went on.
    @Test func aThreeFingerDoubleTapZoomsAndASecondRestores() {
        var glass = Glass()
        glass.threeFingerTap(640, 400, at: 1000)
        #expect(glass.passed() == [.touchDown(id: 0, global: p(600, 400), time: ms(1000)), .touchDown(id: 1, global: p(640, 370), time: ms(1010)),
                                   .touchCancel(id: 0, time: ms(1020)), .touchCancel(id: 1, time: ms(1020))])
        #expect(glass.zoom.view == nil, "one three-finger tap is not a double tap")
        glass.threeFingerTap(640, 400, at: 1300)
        let view = ZoomView(output: Glass.screen, scale: 2, origin: Position(x: 320, y: 200))
        #expect(glass.output.views == [view])
        #expect(glass.zoom.view?.region == Rect(x: 320, y: 200, width: 640, height: 400))
        _ = glass.passed()
        glass.send(.touchDown(id: 5, global: p(700, 300), time: ms(3000)))
        #expect(glass.passed().map(glass.zoom.map) == [.touchDown(id: 5, global: p(670, 350), time: ms(3000))])
        #expect(glass.zoom.map(.pointerMotion(global: p(0, 0), time: ms(3001))) == .pointerMotion(global: p(320, 200), time: ms(3001)))
        glass.send(.touchUp(id: 5, time: ms(3050)))
        glass.threeFingerTap(100, 100, at: 4000)
        glass.threeFingerTap(100, 100, at: 4200)
        #expect(glass.output.views.last == .some(nil))
        #expect(glass.zoom.map(.touchDown(id: 9, global: p(700, 300), time: ms(5000))) == .touchDown(id: 9, global: p(700, 300), time: ms(5000)))
    }

    /// The point under the fingers stays there: a double tap in a corner shows the corner.
    @Test func aDoubleTapInACornerShowsTheCorner() {
        var glass = Glass()
        glass.threeFingerTap(1240, 760, at: 0)
        glass.threeFingerTap(1240, 760, at: 200)
        #expect(glass.zoom.view?.region == Rect(x: 620, y: 380, width: 640, height: 400))
        #expect(glass.zoom.view?.map(p(1240, 760)) == p(1240, 760))
    }

    /// Three fingers dragged while zoomed move the region the other way (the content follows
    /// the fingers); a double tap whose second tap drags up zooms in further, down out.
    @Test func aDragPansAndADoubleTapDragScales() {
        var glass = Glass()
        glass.threeFingerTap(640, 400, at: 0)
        glass.threeFingerTap(640, 400, at: 200)
        glass.send(.touchDown(id: 0, global: p(600, 400), time: ms(1000)), .touchDown(id: 1, global: p(640, 400), time: ms(1000)),
                   .touchDown(id: 2, global: p(680, 400), time: ms(1000)))
        for (id, x) in [(Int32(0), 500.0), (1, 540), (2, 580)] { glass.send(.touchMotion(id: id, global: p(x, 400), time: ms(1100))) }
        #expect(glass.zoom.view?.origin == Position(x: 370, y: 200), "100 px of fingers to the left: 50 layout px to the right")
        for id: Int32 in [0, 1, 2] { glass.send(.touchUp(id: id, time: ms(1200))) }

        glass.threeFingerTap(640, 400, at: 2000)
        glass.send(.touchDown(id: 0, global: p(600, 400), time: ms(2200)), .touchDown(id: 1, global: p(640, 400), time: ms(2200)),
                   .touchDown(id: 2, global: p(680, 400), time: ms(2200)))
        for (id, x) in [(Int32(0), 600.0), (1, 640), (2, 680)] { glass.send(.touchMotion(id: id, global: p(x, 250), time: ms(2300))) }
        let scale = glass.zoom.view?.scale ?? 0
        #expect(abs(scale - 4) < 0.001, "150 px up doubles the scale: \(scale)")
        for (id, x) in [(Int32(0), 600.0), (1, 640), (2, 680)] { glass.send(.touchMotion(id: id, global: p(x, 2000), time: ms(2400))) }
        #expect(glass.zoom.view?.scale == 1)
        for id: Int32 in [0, 1, 2] { glass.send(.touchUp(id: id, time: ms(2500))) }
        #expect(glass.zoom.view == nil, "let go at 1: nothing magnified")
    }

    /// Fingers that land far apart in time are the app's: a third finger 300 ms after two
    /// others is a third touch. Two-finger taps, however doubled, pass.
    @Test func slowFingersAndTwoFingerTapsAreTheApps() {
        var glass = Glass()
        glass.send(.touchDown(id: 0, global: p(100, 100), time: ms(0)), .touchDown(id: 1, global: p(200, 100), time: ms(10)),
                   .touchDown(id: 2, global: p(300, 100), time: ms(310)))
        #expect(glass.passed().count == 3)
        for id: Int32 in [0, 1, 2] { glass.send(.touchUp(id: id, time: ms(400))) }
        _ = glass.passed()
        for start: UInt64 in [1000, 1200] {
            glass.send(.touchDown(id: 0, global: p(100, 100), time: ms(start)), .touchDown(id: 1, global: p(200, 100), time: ms(start)),
                       .touchUp(id: 0, time: ms(start + 50)), .touchUp(id: 1, time: ms(start + 50)))
        }
        #expect(glass.passed().count == 8 && glass.zoom.view == nil)
    }

    /// While zoomed, a text field's cursor out of sight brings the region to it, centred on
    /// it as far as the output allows.
    @Test func theZoomFollowsATextFieldsCursor() {
        var glass = Glass()
        glass.threeFingerTap(200, 200, at: 0)
        glass.threeFingerTap(200, 200, at: 200)
        #expect(glass.zoom.view?.region == Rect(x: 100, y: 100, width: 640, height: 400))
        glass.zoom.follow(Rect(x: 300, y: 100, width: 2, height: 20), into: &glass.output)
        #expect(glass.zoom.view?.origin == Position(x: 100, y: 100), "in sight: it stays")
        glass.zoom.follow(Rect(x: 1000, y: 700, width: 2, height: 20), into: &glass.output)
        #expect(glass.zoom.view?.region == Rect(x: 640, y: 400, width: 640, height: 400))
        glass.zoom.follow(Rect(x: 800, y: 300, width: 2, height: 20), into: &glass.output)
        #expect(glass.zoom.view?.region == Rect(x: 481, y: 110, width: 640, height: 400))
    }

    /// Off: three fingers are the app's; turned off while zoomed, the screen is restored.
    @Test func offItPassesEverythingAndTurningItOffRestores() {
        var glass = Glass()
        glass.threeFingerTap(640, 400, at: 0)
        glass.threeFingerTap(640, 400, at: 200)
        glass.zoom.setSettings(nil, into: &glass.output)
        #expect(glass.zoom.view == nil && glass.output.views.last == .some(nil))
        _ = glass.passed()
        glass.threeFingerTap(640, 400, at: 1000)
        #expect(glass.passed().count == 6)
        #expect(!glass.zoom.isActive)
    }

    /// A hostile device's points (not numbers, beyond any screen) neither trap nor move the
    /// view: they go on for the router to refuse, and three fingers far out pan nothing
    /// farther than the output.
    @Test func hostilePointsNeitherTrapNorMoveTheView() {
        var glass = Glass()
        glass.threeFingerTap(640, 400, at: 0)
        glass.threeFingerTap(640, 400, at: 200)
        _ = glass.passed()
        let view = glass.zoom.view
        glass.send(.touchDown(id: 9, global: p(.nan, 3), time: ms(1000)), .touchMotion(id: 9, global: p(1e300, -1e300), time: ms(1001)))
        #expect(glass.passed().count == 2 && glass.zoom.view == view)
        glass.send(.touchDown(id: 0, global: p(600, 400), time: ms(2000)), .touchDown(id: 1, global: p(640, 400), time: ms(2000)),
                   .touchDown(id: 2, global: p(680, 400), time: ms(2000)))
        for id: Int32 in [0, 1, 2] { glass.send(.touchMotion(id: id, global: p(1e12, -1e12), time: ms(2100))) }
        #expect(glass.zoom.view?.region == Rect(x: 0, y: 400, width: 640, height: 400), "\(String(describing: glass.zoom.view))")
    }
}
