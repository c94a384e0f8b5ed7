import Responder
import Testing

/// Touchpad gestures: the client under the pointer at begin hears the whole gesture, and
/// touchpad recognizers meet it in the arena with the options meaning what they mean for
/// touches. Alice's surface covers the left half of the 1000 × 1000 output, Bob's the right.
@Suite struct TouchpadGestureTests {
    var desk = Desk()
    let a: NodeID
    let b: NodeID

    init() {
        a = desk.add(subsurface(alice, 0, 0, 500, 1000))
        b = desk.add(subsurface(bob, 500, 0, 500, 1000))
        _ = desk.send(.pointerMotion(global: p(100, 100), time: ms(1)))
    }

    /// A 3-finger swipe to the left, 40 pixels a step.
    func swipe(_ from: UInt64, steps: Int) -> [InputEvent] {
        [.touchpadGestureBegin(.swipe, fingers: 3, time: ms(from))]
            + (1...steps).map { .touchpadGestureUpdate(delta: p(-40, 0), scale: 1, rotation: 0, time: ms(from + UInt64($0))) }
            + [.touchpadGestureEnd(cancelled: false, time: ms(from + UInt64(steps) + 1))]
    }

    @Test mutating func theSurfaceUnderThePointerAtBeginHearsTheWholeGesture() {
        let events: [InputEvent] = [
            .touchpadGestureBegin(.pinch, fingers: 2, time: ms(10)),
            .pointerMotion(global: p(700, 100), time: ms(11)),
            .touchpadGestureUpdate(delta: p(1, 2), scale: 1.5, rotation: 10, time: ms(12)),
            .touchpadGestureEnd(cancelled: false, time: ms(13)),
        ]
        let heard = events.flatMap { desk.send($0) }.filter { $0.client == alice && !isPointer($0) }
        #expect(heard == [
            .touchpadGestureBegin(alice, surface: a, .pinch, fingers: 2, time: ms(10)),
            .touchpadGestureUpdate(alice, .pinch, delta: p(1, 2), scale: 1.5, rotation: 10, time: ms(12)),
            .touchpadGestureEnd(alice, .pinch, cancelled: false, time: ms(13)),
        ])
    }

    /// The default options: the client sees the swipe until the recognizer wins (at the
    /// third update, 120 px), then its end, cancelled; the rest of it is the compositor's.
    @Test mutating func aWinningTouchpadSwipeEndsTheClientsGestureAsCancelled() {
        desk.router.addGesture(Swipe(fingers: 3, direction: .left, distance: 100), on: desk.root, device: .touchpad)
        let heard = swipe(10, steps: 5).flatMap { desk.send($0) }
        #expect(heard == [
            .touchpadGestureBegin(alice, surface: a, .swipe, fingers: 3, time: ms(10)),
            .touchpadGestureUpdate(alice, .swipe, delta: p(-40, 0), scale: 1, rotation: 0, time: ms(11)),
            .touchpadGestureUpdate(alice, .swipe, delta: p(-40, 0), scale: 1, rotation: 0, time: ms(12)),
            .touchpadGestureEnd(alice, .swipe, cancelled: true, time: ms(13)),
        ])
        let states = desk.gestureEvents()
        #expect(states.first == .began && states.last == .ended)
    }

    /// delaysTouchesBegan: nothing reaches the client while the swipe may still win; it won,
    /// so the client never hears of the gesture. The next gesture, one the swipe fails, is
    /// delivered whole once the swipe has failed.
    @Test mutating func delaysTouchesBeganKeepsAWonGestureFromTheClientEntirely() {
        desk.router.addGesture(Swipe(fingers: 3, direction: .left, distance: 100), on: desk.root,
                               options: GestureOptions(delaysTouchesBegan: true), device: .touchpad)
        #expect(swipe(10, steps: 5).flatMap { desk.send($0) } == [])
        let right: [InputEvent] = [
            .touchpadGestureBegin(.swipe, fingers: 3, time: ms(30)),
            .touchpadGestureUpdate(delta: p(60, 0), scale: 1, rotation: 0, time: ms(31)),
            .touchpadGestureUpdate(delta: p(60, 0), scale: 1, rotation: 0, time: ms(32)),
        ]
        #expect(right.flatMap { desk.send($0) } == [
            .touchpadGestureBegin(alice, surface: a, .swipe, fingers: 3, time: ms(30)),
            .touchpadGestureUpdate(alice, .swipe, delta: p(60, 0), scale: 1, rotation: 0, time: ms(31)),
            .touchpadGestureUpdate(alice, .swipe, delta: p(60, 0), scale: 1, rotation: 0, time: ms(32)),
        ], "held until the swipe failed (going right), then replayed in order")
    }

    /// cancelsTouchesInView off: the compositor acts and the client keeps its gesture.
    @Test mutating func aWinnerThatDoesNotCancelLeavesTheClientItsGesture() {
        desk.router.addGesture(Swipe(fingers: 3, direction: .left, distance: 100), on: desk.root,
                               options: GestureOptions(cancelsTouchesInView: false), device: .touchpad)
        let heard = swipe(10, steps: 5).flatMap { desk.send($0) }
        #expect(heard.count == 7)
        #expect(heard.last == .touchpadGestureEnd(alice, .swipe, cancelled: false, time: ms(16)))
        #expect(desk.gestureEvents().first == .began)
    }

    /// A 4-finger swipe is not a 3-finger one; a touchscreen swipe does not read touchpads,
    /// nor a touchpad swipe touches.
    @Test mutating func recognizersHearOnlyTheirDeviceAndTheirFingerCount() {
        desk.router.addGesture(Swipe(fingers: 3, distance: 100), on: desk.root, device: .touchpad)
        desk.router.addGesture(Swipe(fingers: 4, distance: 100), on: desk.root)
        var four = swipe(10, steps: 5)
        four[0] = .touchpadGestureBegin(.swipe, fingers: 4, time: ms(10))
        #expect(!four.flatMap { desk.send($0) }.contains { if case .touchpadGestureEnd(_, _, true, _) = $0 { true } else { false } })
        #expect(desk.gestureEvents() == [])
        _ = desk.send(.touchDown(id: 1, global: p(100, 100), time: ms(30)), .touchDown(id: 2, global: p(120, 100), time: ms(30)),
                      .touchDown(id: 3, global: p(140, 100), time: ms(30)), .touchFrame)
        for step in 1...4 {
            let x = Double(step) * 40
            _ = desk.send(.touchMotion(id: 1, global: p(100 + x, 100), time: ms(30 + UInt64(step))),
                          .touchMotion(id: 2, global: p(120 + x, 100), time: ms(30 + UInt64(step))),
                          .touchMotion(id: 3, global: p(140 + x, 100), time: ms(30 + UInt64(step))), .touchFrame)
        }
        #expect(desk.gestureEvents() == [.failed], "the 4-finger touchscreen swipe gave up on three fingers; the touchpad one never saw them")
    }

    /// A pinch recognizer reads the touchpad's scale as the spread of its fingers.
    @Test mutating func aTouchpadPinchIsRecognizedFromTheReportedScale() {
        desk.router.addGesture(Pinch(fingers: 2, scale: 1.25, direction: .together), on: desk.root, device: .touchpad)
        _ = desk.send(.touchpadGestureBegin(.pinch, fingers: 2, time: ms(10)),
                      .touchpadGestureUpdate(delta: p(0, 0), scale: 0.9, rotation: 0, time: ms(11)))
        #expect(desk.gestureEvents() == [])
        #expect(desk.send(.touchpadGestureUpdate(delta: p(0, 0), scale: 0.7, rotation: 0, time: ms(12)))
            == [.touchpadGestureEnd(alice, .pinch, cancelled: true, time: ms(12))])
        #expect(desk.gestureEvents().first == .began)
    }

    /// Nonsense from a device: updates and ends without a gesture, no fingers, or a delta off
    /// the finite plane are refused; a begin during a gesture ends that one first.
    @Test mutating func nonsenseIsRefusedAndABeginEndsTheGestureBefore() {
        #expect(rejections(desk.diagnose(
            .touchpadGestureUpdate(delta: p(1, 1), scale: 1, rotation: 0, time: ms(10)),
            .touchpadGestureEnd(cancelled: false, time: ms(11)),
            .touchpadGestureBegin(.hold, fingers: 0, time: ms(12)),
            .touchpadGestureBegin(.hold, fingers: 11, time: ms(13))
        )) == [.noTouchpadGesture, .noTouchpadGesture, .fingerCountOutOfRange, .fingerCountOutOfRange])
        _ = desk.send(.touchpadGestureBegin(.swipe, fingers: 3, time: ms(14)))
        #expect(rejections(desk.diagnose(
            .touchpadGestureUpdate(delta: p(.infinity, 0), scale: 1, rotation: 0, time: ms(15)),
            .touchpadGestureUpdate(delta: p(0, 0), scale: .nan, rotation: 0, time: ms(16)),
            .touchpadGestureUpdate(delta: p(0, 0), scale: 1, rotation: -.infinity, time: ms(17))
        )) == [.nonFiniteCoordinates, .nonFiniteCoordinates, .nonFiniteCoordinates])
        #expect(desk.send(.touchpadGestureBegin(.pinch, fingers: 2, time: ms(20))) == [
            .touchpadGestureEnd(alice, .swipe, cancelled: true, time: ms(20)),
            .touchpadGestureBegin(alice, surface: a, .pinch, fingers: 2, time: ms(20)),
        ])
    }

    /// The owner's surface goes mid-gesture: its gesture ends at once, cancelled, the rest
    /// goes to nobody, and the next gesture goes to what is under the pointer then.
    @Test mutating func aGestureWhoseSurfaceGoesEndsCancelled() {
        _ = desk.send(.touchpadGestureBegin(.swipe, fingers: 3, time: ms(10)))
        #expect(desk.change { _ = $0.remove(a) }.filter { !isPointer($0) } == [.touchpadGestureEnd(alice, .swipe, cancelled: true, time: ms(10))])
        #expect(desk.send(.touchpadGestureUpdate(delta: p(1, 1), scale: 1, rotation: 0, time: ms(11)),
                          .touchpadGestureEnd(cancelled: false, time: ms(12))).filter { !isPointer($0) } == [])
        _ = desk.send(.pointerMotion(global: p(700, 100), time: ms(13)))
        #expect(desk.send(.touchpadGestureBegin(.hold, fingers: 2, time: ms(14)))
            == [.touchpadGestureBegin(bob, surface: b, .hold, fingers: 2, time: ms(14))])
    }

    func isPointer(_ delivery: Delivery) -> Bool {
        switch delivery {
        case .pointerEnter, .pointerLeave, .pointerMotion, .pointerFrame: true
        default: false
        }
    }
}
