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
    let xdgOutputs: XdgOutputs
    let screencopy: Screencopy
    let edgeDeferrals: EdgeDeferrals
    let viewporter: Viewporter
    /// Offered with `--inspect` or `--test-input` only.
    let inspector: Inspector?
    /// Every part, for the hooks.
    let all: [any ServerPart]
    /// Focus as the parts last heard it.
    private var focus = SeatFocus()

    init(display: OpaquePointer, configuration: ServerConfiguration, context: any PartContext, inspected: any Inspectable, seat: Seat, outputs: Outputs, schedule: @escaping () -> Void) {
        relativePointers = RelativePointers(display: display, context: context)
        pointerConstraints = PointerConstraints(display: display, context: context)
        pointerGestures = PointerGestures(display: display, seat: seat)
        virtualKeyboards = VirtualKeyboards(display: display, context: context, seat: seat)
        virtualPointers = VirtualPointers(display: display, context: context, outputs: outputs)
        selections = Selections(display: display, context: context)
        textInputs = TextInputs(display: display, context: context, seat: seat)
        xdgOutputs = XdgOutputs(display: display)
        screencopy = Screencopy(display: display, outputs: outputs, schedule: schedule)
        inspector = configuration.offersInspector ? Inspector(display: display, subject: inspected) : nil
        edgeDeferrals = EdgeDeferrals(display: display, limit: configuration.routingPolicy.edgeDeferralLimit)
        viewporter = Viewporter(display: display)
        all = (inspector.map { [$0] } ?? []) + [edgeDeferrals, viewporter, xdgOutputs, screencopy, relativePointers, pointerConstraints, pointerGestures, virtualKeyboards, virtualPointers, selections, textInputs]
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
