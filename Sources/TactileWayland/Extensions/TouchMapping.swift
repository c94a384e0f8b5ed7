import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// tactile_touchscreen_mapper_v1 (`tactile calibrate --map`): a question shown over
/// everything on one screen, answered by whichever touchscreen touches it, and the
/// touchscreen then mapped to that screen. Part of `TouchCalibration`, whose layer, capture
/// of touches and one-at-a-time rule it shares with the calibrator.
extension TouchCalibration {
    func makeMapperGlobal(display: OpaquePointer) -> Global {
        Global(display: display, interface: tactile_tactile_touchscreen_mapper_v1_interface(), version: 1, context: self,
               requests: Self.mapperRequests, privilege: .touchCalibration, bound: { [unowned self] resource, _ in
            for touchscreen in control?.touchscreens ?? [] {
                tactile_touchscreen_mapper_v1_send_touchscreen(resource, touchscreen.syspath, touchscreen.name, touchscreen.output,
                                                               touchscreen.mappedBy.rawValue)
            }
            tactile_touchscreen_mapper_v1_send_done(resource)
        })
    }

    fileprivate func map(_ device: String, to output: Output?) {
        guard let control, let output, windows.outputs.live.contains(where: { $0 === output }), control.touchscreens.contains(where: { $0.syspath == device }) else {
            return logger.info("touchscreen mapping: \(device) or its output is gone; nothing mapped")
        }
        control.map(device, to: output.placed.description.name)
    }

    private static let mapperRequests = RequestTable(tactile_touchscreen_mapper_v1_interface(
        destroy: destroyResource,
        ask: { client, resource, surfaceResource, outputResource, id in
            guard let client, let resource, let part = Global.context(of: resource, as: TouchCalibration.self),
                  let surface = Surface.from(surfaceResource) else { return }
            guard !surface.hasRole else {
                return tactile_post_error(resource, TACTILE_TOUCHSCREEN_MAPPER_V1_ERROR_ROLE.rawValue, "the wl_surface already has a role")
            }
            guard part.isIdle else {
                return tactile_post_error(resource, TACTILE_TOUCHSCREEN_MAPPER_V1_ERROR_BUSY.rawValue, "a question or a calibration is under way")
            }
            let output = Global.context(of: outputResource, as: Output.self)
            let question = TouchscreenQuestion(part: part, surface: surface, output: output?.placed.description.name)
            guard question.bind(client: client, interface: tactile_tactile_touchscreen_question_v1_interface(), version: 1, id: id,
                                implementation: TouchscreenQuestion.requests) else { return }
            surface.role = question
            part.question = question
            question.configure()
        },
        map: { _, resource, device, outputResource in
            guard let part = Global.context(of: resource, as: TouchCalibration.self) else { return }
            part.map(device.map { String(cString: $0) } ?? "", to: Global.context(of: outputResource, as: Output.self))
        }
    ))
}

/// tactile_touchscreen_question_v1: one screen asking to be touched.
final class TouchscreenQuestion: ResourceObject, SurfaceRole {
    private unowned let part: TouchCalibration
    private(set) weak var surface: Surface?
    /// The output asked about, by name; nil when the client named one already gone.
    let output: String?
    private var size = Size(width: 0, height: 0)
    private(set) var isShown = false
    /// Answered or cancelled: it shows no more.
    private var over = false

    var roleName: String { "tactile_touchscreen_question_v1" }
    var isMapped: Bool { resource != nil && isShown }

    fileprivate init(part: TouchCalibration, surface: Surface, output: String?) {
        self.part = part
        self.surface = surface
        self.output = output
    }

    fileprivate func configure() {
        guard let resource else { return }
        guard let placed = output.flatMap(part.placed(named:)) else { return cancel(because: "its output is gone") }
        size = placed.rect.size
        tactile_touchscreen_question_v1_send_configure(resource, Int32(clamping: size.width), Int32(clamping: size.height))
    }

    func place() {
        if isShown { part.place(surface, on: output) }
    }

    func committed(surface: Surface, hadBuffer: Bool) {
        guard resource != nil, !over, !isShown, surface.hasBuffer else { return surface.syncNode() }
        // Shown before its node is made, which asks whether it is.
        isShown = true
        if let wrong = part.show(surface, sized: size, on: output) {
            isShown = false
            return postError(TACTILE_TOUCHSCREEN_QUESTION_V1_ERROR_BAD_SIZE.rawValue, wrong)
        }
        part.control?.capture { [weak self] device, touch, _ in
            if case .down = touch { self?.answer(device) }
        }
        part.logger.info("touchscreen mapping: \(output ?? "?") asks to be touched")
    }

    private func answer(_ device: String) {
        guard let resource, !over else { return }
        over = true
        hide()
        tactile_touchscreen_question_v1_send_touched(resource, device)
        part.logger.info("touchscreen mapping: \(output ?? "?") was touched on \(device)")
    }

    func cancel(because reason: String) {
        guard let resource, !over else { return }
        over = true
        hide()
        part.logger.warning("touchscreen mapping: the question on \(output ?? "?") is cancelled: \(reason)")
        tactile_touchscreen_question_v1_send_cancelled(resource)
    }

    private func hide() {
        guard isShown else { return }
        isShown = false
        surface?.removeNode()
        part.control?.capture(nil)
    }

    func surfaceDestroyed() {
        hide()
        surface = nil
    }

    override func resourceDestroyed() {
        hide()
        part.forget(self)
    }

    static let requests = RequestTable(tactile_touchscreen_question_v1_interface(destroy: destroyResource))
}
