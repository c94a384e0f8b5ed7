import CWaylandServer
import Logging
import Responder
import TactileRender

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
    /// Outputs whose settings turn them off: out of the layout, their screens dark, kept so an
    /// output manager can turn them on again.
    private(set) var disabled: [Output] = []
    /// Outputs removed while clients may still hold their wl_output: kept so those
    /// resources' user data stays valid (outputs come and go rarely; each is small).
    private var retired: [Output] = []
    private var nextID = 1
    /// Committed since the last repaint; the next frame an output composes takes them, and
    /// completes them when it is shown. With no output they wait for one.
    var frameCallbacks: [FrameCallback] = []
    var spareFrameCallbacks = SpareFrameCallbacks()
    /// When the callbacks a shown frame completes are sent, client by client.
    let clientClock: ClientFrameClock
    /// Presentation feedback of commits applied since the last frame that showed their
    /// surface; a frame composed on an output the surface is on takes it.
    var presentationFeedback: [PresentationFeedback] = []

    /// What layer surfaces leave of each output for windows, where it is not all of it.
    var usableAreas: [OutputID: Rect] = [:]
    /// Told each time an output's panel goes to sleep or wakes (composition repaints a
    /// woken one whole; output-power clients hear its mode).
    var powerObservers: [(Output) -> Void] = []

    private let display: OpaquePointer
    private let logger: Logger
    /// What composes every output's frames.
    let renderer: any Renderer

    init(settings: [OutputSettings], display: OpaquePointer, renderer: any Renderer, logger: Logger, now: @escaping () -> Instant) {
        self.settings = settings
        clientClock = ClientFrameClock(loop: wl_display_get_event_loop(display), logger: logger, now: now)
        self.display = display
        self.renderer = renderer
        self.logger = logger
        clientClock.sent = { [unowned self] in spareFrameCallbacks.keep(&$0) }
    }

    /// The first output's refresh interval (60 Hz where there is none).
    var refresh: Duration {
        primary.flatMap { RefreshGrid(vblank: .zero, refreshMilliHertz: $0.description.refresh)?.refresh } ?? .nanoseconds(16_666_667)
    }

    var layout: [PlacedOutput] { live.map(withUsableArea) }

    /// The layout's extent from the origin: the size of the scene's root.
    var extent: Size {
        Size(width: live.map(\.placed.rect.maxX).max() ?? 0, height: live.map(\.placed.rect.maxY).max() ?? 0)
    }

    /// The first output: where new windows go and what a kiosk window fills.
    var primary: PlacedOutput? { live.first.map(withUsableArea) }

    /// The output holding `point` in the layout, found without making the layout (windows
    /// ask at every commit).
    func placed(at point: Point) -> PlacedOutput? {
        live.first { $0.placed.rect.contains(point) }.map(withUsableArea)
    }

    private func withUsableArea(_ output: Output) -> PlacedOutput {
        var placed = output.placed
        placed.usableArea = usableAreas[output.id].map { $0.intersection(placed.rect) } ?? placed.rect
        return placed
    }

    /// A new output, in the mode its settings ask for; disabled (out of the layout, with no
    /// wl_output) when they turn it off.
    func add(_ description: OutputDescription, presenter: any OutputPresenter) -> Output {
        let id = OutputID(raw: nextID)
        nextID += 1
        let wanted = self.wanted(for: description)
        let announced = switching(description, of: presenter, to: wanted.mode)
        let output = Output(id: id, announced: announced, placed: place(announced, id: id, rightOf: live), presenter: presenter, renderer: renderer)
        if wanted.enabled == false {
            disabled.append(output)
            presenter.setEnabled(false)
        } else {
            output.announce(on: display)
            live.append(output)
        }
        return output
    }

    /// What the configuration file and output managers ask of the screen `announced` describes.
    private func wanted(for announced: OutputDescription) -> OutputSettings {
        OutputSettings.merged(settings + [overrides[announced.name]].compactMap { $0 }, for: announced.name,
                              make: announced.make, model: announced.model, serial: announced.serial)
    }

    /// `announced`, switched by `presenter` to the mode `wanted` names where the screen is in
    /// another: what the backend describes then. Unchanged when the screen offers no such
    /// mode (the log says what it offers) or cannot switch (the backend says why).
    private func switching(_ announced: OutputDescription, of presenter: (any OutputPresenter)?, to wanted: OutputSettings.Mode?) -> OutputDescription {
        guard let wanted, wanted.pick(among: [announced.currentMode]) == nil else { return announced }
        guard let mode = wanted.pick(among: announced.offeredModes) else {
            logger.warning("\(announced.name): no mode \(wanted); it stays at \(OutputSettings.Mode(announced.currentMode)) (it offers \(OutputSettings.Mode.list(announced.offeredModes)))")
            return announced
        }
        return presenter?.setMode(mode) ?? announced
    }

    /// Whether the live output named `name` is in the mode `mode` names.
    func shows(_ mode: OutputSettings.Mode, on name: String) -> Bool {
        live.contains { $0.announced.name == name && mode.pick(among: [$0.announced.currentMode]) != nil }
    }

    /// Where `announced`, with its settings, goes: at its position, or right of `others`.
    /// Layout coordinates stay non-negative, as the scene's root starts at the origin.
    private func place(_ announced: OutputDescription, id: OutputID, rightOf others: [Output]) -> PlacedOutput {
        var description = announced.applying(wanted(for: announced))
        let origin = description.position.map { Position(x: max(0, $0.x), y: max(0, $0.y)) }
            ?? Position(x: others.map(\.placed.rect.maxX).max() ?? 0, y: 0)
        // Where it is now is the rect's: an output asked to stay where it is has not changed.
        description.position = nil
        return PlacedOutput(id: id, description: description, rect: Rect(origin: origin, size: description.logicalSize))
    }

    /// Puts `output`'s panel to sleep or wakes it, through its presenter.
    func setPower(_ on: Bool, of output: Output) {
        guard output.poweredOn != on else { return }
        output.poweredOn = on
        output.presenter?.setPower(on)
        logger.info("output \(output.placed.description.name): \(on ? "on" : "off (asleep)")")
        for observer in powerObservers { observer(output) }
    }

    /// `id`'s backend describes it anew (a resized nested window).
    func update(_ id: OutputID, _ description: OutputDescription) -> Output? {
        guard let output = live.first(where: { $0.id == id }) ?? disabled.first(where: { $0.id == id }) else { return nil }
        let others = live.prefix { $0.id != id }
        output.update(announced: description, place(description, id: id, rightOf: Array(others)))
        return output
    }

    /// What `relayout` changed.
    struct Relayout {
        /// Turned off: out of the layout now.
        var disabled: [Output] = []
        /// Turned on again, with a new wl_output.
        var enabled: [Output] = []
        /// Live outputs with a new mode, place, scale or transform (the enabled ones too).
        var changed: [Output] = []
    }

    /// Applies the settings now (an output manager changed them) to every output: outputs
    /// turned off or on, modes switched, and every live one placed again.
    func relayout() -> Relayout {
        var result = Relayout()
        for output in live where wanted(for: output.announced).enabled == false {
            live.removeAll { $0 === output }
            output.withdraw()
            disabled.append(output)
            output.presenter?.setEnabled(false)
            result.disabled.append(output)
        }
        for output in disabled where wanted(for: output.announced).enabled != false {
            guard let presenter = output.presenter else { continue }
            // The same output, with a new global: clients bind it afresh.
            disabled.removeAll { $0 === output }
            retired.append(output)
            let back = Output(id: output.id, announced: output.announced, placed: output.placed, presenter: presenter, renderer: renderer)
            back.announce(on: display)
            live.insert(back, at: live.firstIndex { $0.id.raw > back.id.raw } ?? live.endIndex)
            presenter.setEnabled(true)
            result.enabled.append(back)
        }
        for (index, output) in live.enumerated() {
            let announced = switching(output.announced, of: output.presenter, to: wanted(for: output.announced).mode)
            let placed = place(announced, id: output.id, rightOf: Array(live.prefix(index)))
            let back = result.enabled.contains { $0 === output }
            guard back || announced != output.announced || placed.description != output.placed.description || placed.rect != output.placed.rect else { continue }
            output.update(announced: announced, placed)
            result.changed.append(output)
        }
        return result
    }

    /// The output went (unplugged), and whether it was live; a disabled one just goes.
    func remove(_ id: OutputID) -> (output: Output, wasLive: Bool)? {
        if let index = disabled.firstIndex(where: { $0.id == id }) {
            let output = disabled.remove(at: index)
            retired.append(output)
            return (output, false)
        }
        guard let index = live.firstIndex(where: { $0.id == id }) else { return nil }
        let output = live.remove(at: index)
        output.withdraw()
        retired.append(output)
        return (output, true)
    }

    /// The most bytes kept of a buffer destroyed while shown (`BufferReference`).
    var keptCopyLimit: Int {
        // Asked at every commit with a buffer: found without making an array.
        var largest: Size?
        for output in live {
            let size = output.announced.currentMode.size
            if largest.map({ $0.width * $0.height < size.width * size.height }) ?? true { largest = size }
        }
        return BufferReference.keptCopyLimit(largestScreen: largest)
    }

    func output(_ id: OutputID) -> Output? {
        live.first { $0.id == id } ?? disabled.first { $0.id == id } ?? retired.first { $0.id == id }
    }

    /// `id` showed a frame: the callbacks committed before it was composed are done, and
    /// the feedback of the content it showed is presented.
    func presented(_ id: OutputID, _ frame: PresentedFrame) {
        guard let output = output(id) else { return }
        output.framePending = false
        output.framesPresented += 1
        output.lastPresented = frame.time
        var due = output.screen.inFlight
        let shown = output.screen.feedbackInFlight
        let hadVblanks = !output.repaintSchedule.withoutVblank
        // A parent's vblank is the parent's to compose for: to the frame clock, a nested
        // window's frame was shown without one.
        let clocked = output.presenter?.composedAgainByAParent == true ? PresentedFrame(time: frame.time) : frame
        if let budget = output.repaintSchedule.presented(clocked, refreshMilliHertz: output.placed.description.refresh, releasedCallbacks: !due.isEmpty) {
            logger.debug("output \(output.placed.description.name): frames composed \(budget.milliseconds) ms before the vblank")
        }
        if hadVblanks, output.repaintSchedule.withoutVblank {
            logger.info("output \(output.placed.description.name) shows frames without vblanks: commits are composed at once, frame callbacks keep to its refresh")
        }
        output.screen.inFlight.removeAll()
        output.screen.feedbackInFlight.removeAll()
        let deadline = output.repaintSchedule.withoutVblank ? nil : output.repaintSchedule.notBefore
        clientClock.frameShown(&due, deadline: deadline)
        for feedback in shown { feedback.presented(on: output, frame) }
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
