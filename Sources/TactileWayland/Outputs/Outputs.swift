import CWaylandServer
import Responder

/// The outputs backends announced, laid out in one global coordinate space, and the frame
/// callbacks waiting for the next frame one of them shows.
final class Outputs {
    /// The configured scale, transform and position of outputs, by name.
    let settings: [OutputSettings]
    /// What output managers (wlr-randr, kanshi) set since, by name: over the configured
    /// settings, kept for a screen that comes back.
    var overrides: [String: OutputSettings] = [:]
    /// The live outputs, in the order they came.
    private(set) var live: [Output] = []
    /// Outputs removed while clients may still hold their wl_output: kept so those
    /// resources' user data stays valid (outputs come and go rarely; each is small).
    private var retired: [Output] = []
    private var nextID = 1
    /// Committed since the last repaint; the next frame an output composes takes them, and
    /// completes them when it is shown. With no output they wait for one.
    var frameCallbacks: [FrameCallback] = []

    /// What layer surfaces leave of each output for windows, where it is not all of it.
    var usableAreas: [OutputID: Rect] = [:]

    init(settings: [OutputSettings]) {
        self.settings = settings
    }

    var layout: [PlacedOutput] { live.map(withUsableArea) }

    /// The layout's extent from the origin: the size of the scene's root.
    var extent: Size {
        Size(width: live.map(\.placed.rect.maxX).max() ?? 0, height: live.map(\.placed.rect.maxY).max() ?? 0)
    }

    /// The first output: where new windows go and what a kiosk window fills.
    var primary: PlacedOutput? { live.first.map(withUsableArea) }

    private func withUsableArea(_ output: Output) -> PlacedOutput {
        var placed = output.placed
        placed.usableArea = usableAreas[output.id].map { $0.intersection(placed.rect) } ?? placed.rect
        return placed
    }

    func add(_ description: OutputDescription, presenter: any OutputPresenter, display: OpaquePointer) -> Output {
        let id = OutputID(raw: nextID)
        nextID += 1
        let placed = place(description, id: id, rightOf: live)
        let output = Output(id: id, announced: description, placed: placed, presenter: presenter, display: display)
        live.append(output)
        return output
    }

    /// Where `description`, with its configured settings, goes: at its position, or right
    /// of `others`. Layout coordinates stay non-negative, as the scene's root starts at the
    /// origin.
    private func place(_ announced: OutputDescription, id: OutputID, rightOf others: [Output]) -> PlacedOutput {
        let description = announced.applying(OutputSettings.merged(settings + [overrides[announced.name]].compactMap { $0 }, for: announced.name,
                                                                   make: announced.make, model: announced.model, serial: announced.serial))
        let origin = description.position.map { Position(x: max(0, $0.x), y: max(0, $0.y)) }
            ?? Position(x: others.map(\.placed.rect.maxX).max() ?? 0, y: 0)
        return PlacedOutput(id: id, description: description, rect: Rect(origin: origin, size: description.logicalSize))
    }

    /// `id`'s backend describes it anew (a new mode, a resized nested window).
    func update(_ id: OutputID, _ description: OutputDescription) -> Output? {
        guard let output = live.first(where: { $0.id == id }) else { return nil }
        let others = live.prefix { $0.id != id }
        output.update(announced: description, place(description, id: id, rightOf: Array(others)))
        return output
    }

    /// Places every output again from what its backend said and the settings now (an output
    /// manager changed them); the outputs whose place, size, scale or transform changed.
    func relayout() -> [Output] {
        var changed: [Output] = []
        for (index, output) in live.enumerated() {
            let placed = place(output.announced, id: output.id, rightOf: Array(live.prefix(index)))
            guard placed.description != output.placed.description || placed.rect != output.placed.rect else { continue }
            output.update(announced: output.announced, placed)
            changed.append(output)
        }
        return changed
    }

    func remove(_ id: OutputID) -> Output? {
        guard let index = live.firstIndex(where: { $0.id == id }) else { return nil }
        let output = live.remove(at: index)
        output.withdraw()
        retired.append(output)
        return output
    }

    func output(_ id: OutputID) -> Output? {
        live.first { $0.id == id } ?? retired.first { $0.id == id }
    }

    /// `id` showed a frame: the callbacks committed before it was composed are done.
    func presented(_ id: OutputID, at time: Instant) {
        guard let output = output(id) else { return }
        output.framePending = false
        let due = output.screen.inFlight
        output.screen.inFlight.removeAll()
        for callback in due { callback.complete(at: time.milliseconds) }
    }

    /// `target`, kept inside the layout: where the layout continues the pointer crosses to
    /// the neighbouring output, and it stops at the layout's outer edges.
    func keep(_ target: Point, from: Point) -> Point {
        let layout = self.layout.map(\.rect)
        if layout.contains(where: { $0.contains(target) }) { return target }
        guard let current = layout.first(where: { $0.contains(from) }) ?? layout.first else { return from }
        // The last pixel is the furthest it goes.
        return Point(x: min(max(target.x, Double(current.x)), Double(current.maxX - 1)),
                     y: min(max(target.y, Double(current.y)), Double(current.maxY - 1)))
    }
}
