import Responder

/// Relative motion, from mice and touchpads (a backend) or virtual pointers.
extension WaylandServer {
    /// A mouse or touchpad moved: the focused client's relative pointers hear it; then the
    /// cursor moves from where it is, kept inside a confining region and inside the layout:
    /// it crosses to a neighbouring output where the layout continues and stops at the
    /// layout's outer edges (a lock, a grab, keeps it still). It starts in the middle of the
    /// first output.
    public func handleRelativeMotion(_ motion: RelativeMotion, time: Instant) {
        parts.relativePointers.send(motion, time: time)
        let active = parts.pointerConstraints.active
        let first = parts.outputs.layout.first?.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let from = router.pointerPosition ?? Point(x: Double(first.x) + Double(first.width) / 2, y: Double(first.y) + Double(first.height) / 2)
        var to = parts.outputs.keep(Point(x: from.x + motion.dx, y: from.y + motion.dy), from: from)
        if let active, active.kind == .confine { to = active.confine(to, from: from) }
        handle(.pointerMotion(global: to, time: time))
    }
}
