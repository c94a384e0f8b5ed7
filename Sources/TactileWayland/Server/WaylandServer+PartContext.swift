import Glibc
import Responder

/// The server as its parts and surfaces see it (`PartContext`, `SurfaceHost`); the rest of
/// what they ask for it already has (`surface(at:)`, `updateScene`, `focusKeyboard`, `handle`,
/// `inSceneBatch`, ...).
extension WaylandServer: SurfaceHost {
    var scene: Scene { router.scene }

    func nodeHit(at global: Point) -> NodeID? { router.hitTest(at: global)?.node }

    var focus: SeatFocus {
        SeatFocus(keyboard: router.keyboardFocus, pointer: router.pointerFocus, pointerPosition: router.pointerPosition, pen: router.penOverTablet)
    }

    var keyboardFocusIsPinned: Bool {
        get { router.keyboardFocusIsPinned }
        set { router.keyboardFocusIsPinned = newValue }
    }

    var pointerButtonsHeld: Bool { router.pointerButtonsHeld }

    func bind(_ surface: Surface?, to node: NodeID) { surfaces.set(surface, at: node) }

    func queueFrameCallbacks(_ callbacks: [FrameCallback]) {
        parts.outputs.frameCallbacks.appendSharing(callbacks)
        parts.composition.schedule()
    }

    func frameAnswered(by surface: Surface) {
        parts.outputs.clientClock.answered(surface, refresh: parts.outputs.refresh)
    }

    func damaged(_ surface: Surface, _ damage: SurfaceDamage) { parts.composition.damage(surface, damage) }
    func pace(_ surface: Surface) { parts.framePacing.watch(surface) }

    func trace(_ event: TraceEvent) {
        guard parts.tracer.isOn else { return }
        parts.tracer.publish([.core(event)], naming: naming)
    }

    func routeVirtualKey(_ key: UInt32, _ state: PressState) {
        let time = currentTime
        route { router, sink in router.handle(.key(key: key, state: state, time: time), sink: &sink) }
    }

    func takePointerUntilReleased() -> Bool {
        var taken = false
        route { router, sink in taken = router.takePointerUntilReleased(sink: &sink) }
        return taken
    }

    /// The time an event happening now is stamped with: the monotonic clock, as libinput's.
    var currentTime: Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000)
    }

    func placeToplevel(_ surface: OpaquePointer?, at position: Position) -> Bool {
        guard let surface = Surface.from(surface), let node = surface.node,
              router.scene.node(node)?.isToplevel == true || surface.role is LayerSurface else { return false }
        surface.placeWindow(at: position)
        return true
    }
}
