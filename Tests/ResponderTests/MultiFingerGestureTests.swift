import Responder
import Testing

/// The multi-finger built-ins (N-finger swipe, pinch) in the arena, on a 1000 × 1000 output
/// with one client surface covering it.
@Suite struct MultiFingerGestureTests {
    var desk = Desk()
    let surface: NodeID

    init() { surface = desk.add(subsurface(alice, 0, 0, 1000, 1000)) }

    /// Three fingers down within the gather time, moving down 100 px together: the swipe
    /// begins, the client (which saw the downs) gets one cancel, and the translation is the
    /// centroid's.
    @Test mutating func threeFingersSwipingDownWinAndCancelTheClient() {
        let swipe = desk.router.addGesture(Swipe(fingers: 3, direction: .down, distance: 100), on: desk.root)
        _ = desk.send(
            .touchDown(id: 1, global: p(400, 300), time: ms(0)), .touchDown(id: 2, global: p(500, 300), time: ms(20)),
            .touchDown(id: 3, global: p(600, 300), time: ms(40)), .touchFrame
        )
        #expect(desk.send(
            .touchMotion(id: 1, global: p(400, 350), time: ms(60)), .touchMotion(id: 2, global: p(500, 350), time: ms(60)),
            .touchMotion(id: 3, global: p(600, 350), time: ms(60)), .touchFrame
        ).count == 4)
        // The second finger's motion takes the centroid past 100 px: the first finger's
        // motion already went out, the cancel follows it, the third finger's is never sent.
        #expect(desk.send(.touchMotion(id: 1, global: p(400, 450), time: ms(80)), .touchMotion(id: 2, global: p(500, 450), time: ms(80)),
                          .touchMotion(id: 3, global: p(600, 450), time: ms(80)), .touchFrame) == [
            .touchMotion(alice, surface: surface, id: 1, local: p(400, 450), time: ms(80)), .touchCancel(alice),
        ])
        #expect(desk.router.gestureState(swipe) == .changed)
        let last = desk.sink.gestures.last
        #expect(last?.detail.translation == p(0, 150))
        #expect(last?.detail.count == 3)
    }

    /// The same fingers going up instead: a swipe down fails, and the client keeps them.
    @Test mutating func aSwipeTheWrongWayFails() {
        let swipe = desk.router.addGesture(Swipe(fingers: 2, direction: .down, distance: 100), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(400, 500), time: ms(0)), .touchDown(id: 2, global: p(500, 500), time: ms(0)), .touchFrame)
        let delivered = desk.send(
            .touchMotion(id: 1, global: p(400, 390), time: ms(20)), .touchMotion(id: 2, global: p(500, 390), time: ms(20)), .touchFrame
        )
        #expect(!delivered.contains(.touchCancel(alice)))
        #expect(desk.router.gestureState(swipe) == .failed)
    }

    /// One finger alone: the three-finger swipe fails when the gather time runs out, and an up
    /// it held (delaysTouchesEnded) is released then.
    @Test mutating func fingersThatDoNotGatherInTimeFailTheSwipe() {
        let swipe = desk.router.addGesture(Swipe(fingers: 3), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(400, 500), time: ms(0)), .touchFrame)
        #expect(desk.router.nextGestureDeadline == ms(150))
        #expect(desk.fire(at: ms(150)) == [])
        #expect(desk.router.gestureState(swipe) == .failed)
        #expect(desk.gestureEvents() == [.failed])
        #expect(desk.send(.touchUp(id: 1, time: ms(200)), .touchFrame) == [.touchUp(alice, id: 1, time: ms(200)), .touchFrame(alice)])
    }

    /// Two fingers spreading from 100 px apart to 130 px (×1.3): a pinch begins and reports
    /// the scale; spreading further changes it.
    @Test mutating func twoFingersSpreadingApartPinch() {
        let pinch = desk.router.addGesture(Pinch(fingers: 2, scale: 1.25), on: desk.root, options: GestureOptions(cancelsTouchesInView: false))
        _ = desk.send(.touchDown(id: 1, global: p(450, 500), time: ms(0)), .touchDown(id: 2, global: p(550, 500), time: ms(0)), .touchFrame)
        _ = desk.send(.touchMotion(id: 1, global: p(440, 500), time: ms(10)), .touchMotion(id: 2, global: p(560, 500), time: ms(10)), .touchFrame)
        #expect(desk.router.gestureState(pinch) == .possible)
        // The first finger's motion alone takes the spread to ×1.25: it begins there.
        _ = desk.send(.touchMotion(id: 1, global: p(435, 500), time: ms(20)), .touchMotion(id: 2, global: p(565, 500), time: ms(20)), .touchFrame)
        #expect(desk.sink.gestures.map(\.state) == [.began, .changed])
        #expect(desk.sink.gestures.map(\.detail.scale) == [1.25, 1.3])
        _ = desk.send(.touchMotion(id: 1, global: p(400, 500), time: ms(30)), .touchMotion(id: 2, global: p(600, 500), time: ms(30)), .touchFrame)
        #expect(desk.router.gestureState(pinch) == .changed)
        #expect(desk.sink.gestures.last?.detail.scale == 2)
    }

    /// A pinch limited to "together" ignores spreading; fingers travelling together fail it.
    @Test mutating func aPinchFailsWhenTheFingersTravelTogether() {
        let pinch = desk.router.addGesture(Pinch(fingers: 2, direction: .together, maximumTranslation: 80), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(450, 500), time: ms(0)), .touchDown(id: 2, global: p(550, 500), time: ms(0)), .touchFrame)
        _ = desk.send(.touchMotion(id: 1, global: p(400, 500), time: ms(10)), .touchMotion(id: 2, global: p(600, 500), time: ms(10)), .touchFrame)
        #expect(desk.router.gestureState(pinch) == .possible)
        _ = desk.send(.touchMotion(id: 1, global: p(400, 600), time: ms(20)), .touchMotion(id: 2, global: p(600, 600), time: ms(20)), .touchFrame)
        #expect(desk.router.gestureState(pinch) == .failed)
    }
}

/// A client deferring system edge gestures over part of its surface, and the per-edge limit.
@Suite struct EdgeDeferralTests {
    var desk = Desk(policy: RoutingPolicy(edgeDeferralLimit: 200))

    /// The left edge deferred over y 100..<300 of a full-screen surface: a swipe from there is
    /// the client's; from y 500 the system gesture still wins.
    @Test mutating func aDeferredStretchOfTheEdgeLeavesTheTouchToTheClient() {
        var node = subsurface(alice, 0, 0, 1000, 1000)
        node.edgeGestureDeferral[.left] = Region(Rect(x: 0, y: 100, width: 50, height: 200))
        let w = desk.add(node)
        let swipe = desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(5, 150), time: ms(0)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(150, 150), time: ms(10)), .touchFrame) == [
            .touchMotion(alice, surface: w, id: 1, local: p(150, 150), time: ms(10)), .touchFrame(alice),
        ])
        #expect(desk.router.gestureState(swipe) == .possible)
        _ = desk.send(.touchUp(id: 1, time: ms(20)), .touchFrame, .touchDown(id: 2, global: p(5, 500), time: ms(30)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 2, global: p(150, 500), time: ms(40)), .touchFrame) == [.touchCancel(alice)])
    }

    /// Deferring another edge, or the left edge elsewhere, does not protect this touch.
    @Test mutating func deferralIsPerEdge() {
        var node = subsurface(alice, 0, 0, 1000, 1000)
        node.edgeGestureDeferral[.right] = Region(Rect(x: 0, y: 0, width: 1000, height: 1000))
        desk.add(node)
        desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(5, 150), time: ms(0)), .touchFrame)
        #expect(desk.send(.touchMotion(id: 1, global: p(150, 150), time: ms(10)), .touchFrame) == [.touchCancel(alice)])
    }

    /// A client deferring the whole left edge, over two surfaces, gets only the first 200 px
    /// along it: y 0..<200 is its, below that the system gesture wins.
    @Test(arguments: [(150.0, false), (199.0, false), (260.0, true), (900.0, true)])
    mutating func theLimitCapsHowMuchOfAnEdgeOneClientDefers(y: Double, swipeWins: Bool) {
        var top = subsurface(alice, 0, 0, 1000, 120)
        top.edgeGestureDeferral[.left] = Region(Rect(x: 0, y: 0, width: 40, height: 120))
        var rest = subsurface(alice, 0, 120, 1000, 880)
        rest.edgeGestureDeferral[.left] = Region(Rect(x: 0, y: 0, width: 40, height: 880))
        desk.add(top)
        desk.add(rest)
        let swipe = desk.router.addGesture(EdgeSwipe(edge: .left), on: desk.root)
        _ = desk.send(.touchDown(id: 1, global: p(5, y), time: ms(0)), .touchFrame)
        _ = desk.send(.touchMotion(id: 1, global: p(150, y), time: ms(10)), .touchFrame)
        #expect(desk.router.gestureState(swipe) == (swipeWins ? .began : .possible))
    }
}
