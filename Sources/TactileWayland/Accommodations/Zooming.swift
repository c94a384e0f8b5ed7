import Logging
import Responder

/// Zoom by touch on the server (`TouchZoom` in the core): the settings, the outputs it may
/// magnify, and what each change of view does: the output draws the region magnified
/// (`Output.magnification`, which composition, screenshots and screen capture all read), is
/// repainted whole, and the log says what shows.
final class Zooming: ServerPart {
    private var zoom = TouchZoom()
    private let outputs: Outputs
    private let repaint: Signal<Void>
    private let logger: Logger
    /// Kept between calls, taken out while in use (as `TouchFiltering`'s): no allocation per event.
    private var spare = Changes()

    init(outputs: Outputs, repaint: Signal<Void>, logger: Logger) {
        self.outputs = outputs
        self.repaint = repaint
        self.logger = logger
    }

    /// Whether touches must pass through here.
    var isActive: Bool { zoom.isActive }

    /// Zoom on with these settings, or off (nil: what is magnified is restored).
    func set(_ settings: ZoomSettings?) {
        var output = Changes()
        zoom.setSettings(settings, into: &output)
        apply(output)
        if let settings {
            logger.notice("zoom: a three-finger double tap magnifies \(settings.scale)x (up to \(settings.maximum)x by a double tap and drag)")
        }
    }

    /// Runs a touch event (screen coordinates) through the zoom's gestures; `route` gets what
    /// goes on.
    func process(_ event: InputEvent, route: (InputEvent) -> Void) {
        var output = spare
        spare = Changes()
        zoom.process(event, into: &output)
        for event in output.events { route(event) }
        apply(output)
        output.events.removeAll(keepingCapacity: true)
        output.views.removeAll(keepingCapacity: true)
        spare = output
    }

    /// The event's points where the magnified screen shows them in the layout.
    func map(_ event: InputEvent) -> InputEvent { zoom.map(event) }

    /// A screen point where it is in the layout.
    func map(_ point: Point) -> Point { zoom.view?.map(point) ?? point }

    /// A text field's cursor rectangle (layout pixels) moved: shown, while zoomed.
    func follow(_ rect: Rect) {
        var output = Changes()
        zoom.follow(rect, into: &output)
        apply(output)
    }

    func layoutChanged() {
        var output = Changes()
        zoom.setOutputs(outputs.live.map(\.placed.rect), into: &output)
        apply(output)
    }

    private func apply(_ changes: Changes) {
        guard let last = changes.views.last else { return }
        for output in outputs.live {
            let magnification = last.flatMap { $0.output == output.placed.rect ? $0 : nil }
            guard output.magnification != magnification else { continue }
            output.magnification = magnification
            output.screen.damage.append(Rect(size: output.placed.description.pixelSize))
            if let magnification {
                logger.info("zoom: \(output.placed.description.name) shows \(magnification.region) at \(magnification.scale)x")
            } else {
                logger.info("zoom: \(output.placed.description.name) restored")
            }
        }
        repaint.send(())
    }

    private struct Changes: ZoomOutput {
        var events: [InputEvent] = []
        var views: [ZoomView?] = []
        mutating func pass(_ event: InputEvent) { events.append(event) }
        mutating func zoomChanged(_ view: ZoomView?) { views.append(view) }
    }
}
