/// The server's parts (`ServerPart`), made with it, in the order their globals are offered.
/// A new protocol family is one more part here: its state, its globals, its hooks.
final class Parts {
    let relativePointers: RelativePointers
    let pointerConstraints: PointerConstraints
    let pointerGestures: PointerGestures
    let virtualKeyboards: VirtualKeyboards
    let virtualPointers: VirtualPointers
    let selections: Selections
    let textInputs: TextInputs
    /// Every part, for the hooks.
    let all: [any ServerPart]
    /// Focus as the parts last heard it.
    private var focus = SeatFocus()

    init(display: OpaquePointer, context: any PartContext, seat: Seat, outputs: Outputs) {
        relativePointers = RelativePointers(display: display, context: context)
        pointerConstraints = PointerConstraints(display: display, context: context)
        pointerGestures = PointerGestures(display: display, seat: seat)
        virtualKeyboards = VirtualKeyboards(display: display, context: context, seat: seat)
        virtualPointers = VirtualPointers(display: display, context: context, outputs: outputs)
        selections = Selections(display: display, context: context)
        textInputs = TextInputs(display: display, context: context, seat: seat)
        all = [relativePointers, pointerConstraints, pointerGestures, virtualKeyboards, virtualPointers, selections, textInputs]
    }
}

extension Parts {
    /// After a routing step: the parts hear of focus if it moved.
    func focusMayHaveChanged(_ now: SeatFocus) {
        guard now != focus else { return }
        focus = now
        for part in all { part.focusChanged(now) }
    }
}
