import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// weston_touch_calibration (weston-touch-calibrator, `tactile calibrate`): a privileged
/// client takes one touchscreen, shows a surface over everything on its output, hears the
/// touchscreen's touches with no calibration applied, and saves the matrix it works out.
/// tactile_touchscreen_mapper_v1 (`TouchMapping`) asks a screen which touchscreen lies on it
/// the same way.
///
/// One calibrator or question at a time, among all clients. Its surface hangs in a compositor node at the
/// top of the scene (`Windows.calibrationCeiling`: new windows open under it; a session lock
/// still goes over it). While it shows, the backend's touches come here, not to the seat
/// (`TouchscreenControl.capture`): the apps keep their state and hear no touch. Pointer and
/// keyboard stay as they are.
final class TouchCalibration: ServerPart {
    static let version: Int32 = 1
    let windows: Windows
    let logger: Logger
    private var global: Global?
    private var mapperGlobal: Global?
    /// The backend's touchscreens, once it has told of any.
    private(set) weak var control: (any TouchscreenControl)?
    /// The calibrator in force, shown or not yet.
    private(set) var calibrator: Calibrator?
    /// The touchscreen question in force, shown or not yet.
    var question: TouchscreenQuestion?
    /// Neither calibrating nor asking.
    var isIdle: Bool { calibrator == nil && question == nil }
    var context: any PartContext { windows.context }

    init(display: OpaquePointer, windows: Windows, logger: Logger) {
        self.windows = windows
        self.logger = logger
        global = Global(display: display, interface: tactile_weston_touch_calibration_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .touchCalibration, bound: { [unowned self] resource, _ in
            for touchscreen in control?.touchscreens ?? [] where touchscreen.calibratable {
                weston_touch_calibration_send_touch_device(resource, touchscreen.syspath, touchscreen.output)
            }
        })
        mapperGlobal = makeMapperGlobal(display: display)
    }

    /// The calibrated touchscreen was unplugged: calibration cannot go on.
    func touchscreensChanged(_ control: any TouchscreenControl) {
        self.control = control
        guard let calibrator, !control.touchscreens.contains(where: { $0.syspath == calibrator.device }) else { return }
        calibrator.cancelCalibration(because: "the touchscreen \(calibrator.device) went")
    }

    func outputWithdrawn(_ output: Output) {
        let name = output.placed.description.name
        if let question, question.output == name { question.cancel(because: "its output went") }
        guard let calibrator, calibrator.output == name else { return }
        calibrator.cancelCalibration(because: "its output \(calibrator.output) went")
    }

    func layoutChanged() {
        calibrator?.place()
        question?.place()
    }

    /// Where `device` (a syspath) may be calibrated: its output, if both are here.
    fileprivate func placement(of device: String) -> (touchscreen: TouchscreenDescription, output: PlacedOutput)? {
        guard let touchscreen = control?.touchscreens.first(where: { $0.syspath == device && $0.calibratable }),
              let output = windows.outputs.layout.first(where: { $0.description.name == touchscreen.output }) else { return nil }
        return (touchscreen, output)
    }

    /// The surface shows: its node goes over everything, and the touches come here with
    /// the device's own matrix set aside.
    fileprivate func shown(_ calibrator: Calibrator) {
        guard let control else { return }
        calibrator.savedMatrix = control.calibration(of: calibrator.device)
        control.setCalibration([1, 0, 0, 0, 1, 0], of: calibrator.device)
        control.capture { [weak calibrator] device, touch, time in calibrator?.heard(touch, from: device, at: time) }
        logger.info("touch calibration: \(calibrator.device) on \(calibrator.output) taken by \(calibrator.clientDescription); its matrix \(calibrator.savedMatrix.map { "\($0)" } ?? "(none)") set aside")
    }

    /// The surface no longer shows (the calibrator or its surface went, or calibration was
    /// cancelled): the touches go back to the seat with the matrix saved meanwhile, or the
    /// one set aside.
    fileprivate func hidden(_ calibrator: Calibrator) {
        guard let control else { return }
        control.capture(nil)
        if let matrix = calibrator.savedMatrix { control.setCalibration(matrix, of: calibrator.device) }
        logger.info("touch calibration: \(calibrator.device) given back with matrix \(calibrator.savedMatrix.map { "\($0)" } ?? "(none)")")
    }

    fileprivate func forget(_ calibrator: Calibrator) {
        guard self.calibrator === calibrator else { return }
        self.calibrator = nil
    }

    func forget(_ question: TouchscreenQuestion) {
        guard self.question === question else { return }
        self.question = nil
    }

    /// Shows a calibrator's or a question's first buffer, if it is `size`, over everything at
    /// `output`'s place: in the node they show in, made at the top (under a session lock's
    /// shield, so a lock still covers it) when first needed, and kept. Otherwise, why not.
    func show(_ surface: Surface, sized size: Size, on output: String?) -> String? {
        guard surface.size == size else {
            return "the surface is \(surface.size.width)x\(surface.size.height), configure said \(size.width)x\(size.height)"
        }
        context.updateScene { [unowned self] scene in
            guard windows.calibrationCeiling == nil else { return }
            windows.calibrationCeiling = scene.add(.compositor(), to: scene.root, at: windows.ceiling.map { .below($0) } ?? windows.underOverlays)
        }
        surface.createNode(.surface(of: surface.owner.id, isToplevel: true, isMapped: false), under: { [unowned self] in windows.calibrationCeiling })
        place(surface, on: output)
        return nil
    }

    /// A shown surface at its output's place (again, when the layout changed).
    func place(_ surface: Surface?, on output: String?) {
        guard let surface, let placed = output.flatMap(placed(named:)) else { return }
        surface.placeWindow(at: placed.rect.origin)
    }

    func placed(named name: String) -> PlacedOutput? {
        windows.outputs.layout.first { $0.description.name == name }
    }

    private func save(_ resource: OpaquePointer, device: String, matrix: [Float]) {
        guard let control, let (touchscreen, _) = placement(of: device) else {
            return tactile_post_error(resource, WESTON_TOUCH_CALIBRATION_ERROR_INVALID_DEVICE.rawValue, "no touchscreen \(device) that can be calibrated")
        }
        guard matrix.count == 6, matrix.allSatisfy(\.isFinite) else {
            // The protocol has no error for it; a client's nonsense is not applied.
            return logger.warning("touch calibration: a matrix of \(matrix.count) values for \(device), not six finite ones: ignored")
        }
        if let calibrator, calibrator.device == device, calibrator.isShown {
            calibrator.savedMatrix = matrix
        } else {
            control.setCalibration(matrix, of: device)
        }
        logger.notice("touch calibration: \(touchscreen.name) (\(device)) calibrated with \(matrix); a devices entry with match: \(touchscreen.name) and this calibration keeps it")
    }

    private static let requests = RequestTable(weston_touch_calibration_interface(
        destroy: destroyResource,
        create_calibrator: { client, resource, surfaceResource, device, id in
            guard let client, let resource, let part = Global.context(of: resource, as: TouchCalibration.self),
                  let surface = Surface.from(surfaceResource) else { return }
            let device = device.map { String(cString: $0) } ?? ""
            guard part.isIdle else {
                return tactile_post_error(resource, WESTON_TOUCH_CALIBRATION_ERROR_ALREADY_EXISTS.rawValue, "a calibrator or a touchscreen question exists already")
            }
            guard !surface.hasRole else {
                return tactile_post_error(resource, WESTON_TOUCH_CALIBRATION_ERROR_INVALID_SURFACE.rawValue, "the wl_surface already has a role")
            }
            guard let (_, output) = part.placement(of: device) else {
                return tactile_post_error(resource, WESTON_TOUCH_CALIBRATION_ERROR_INVALID_DEVICE.rawValue, "no touchscreen \"\(device)\" that can be calibrated")
            }
            let calibrator = Calibrator(part: part, surface: surface, device: device, output: output.description.name)
            guard calibrator.bind(client: client, interface: tactile_weston_touch_calibrator_interface(), version: 1, id: id,
                                  implementation: Calibrator.requests) else { return }
            surface.role = calibrator
            part.calibrator = calibrator
            calibrator.configure(size: output.rect.size)
        },
        save: { _, resource, device, array in
            guard let resource, let part = Global.context(of: resource, as: TouchCalibration.self) else { return }
            var matrix: [Float] = []
            if let array, let data = array.pointee.data {
                let count = array.pointee.size / MemoryLayout<Float>.size
                matrix = (0..<count).map { data.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Float>.size, as: Float.self) }
            }
            part.save(resource, device: device.map { String(cString: $0) } ?? "", matrix: matrix)
        }
    ))
}

/// weston_touch_calibrator: one touchscreen taken, its surface the size of its output.
final class Calibrator: ResourceObject, SurfaceRole {
    private unowned let part: TouchCalibration
    private(set) weak var surface: Surface?
    /// The touchscreen's syspath and its output's name.
    let device: String
    let output: String
    /// The size configure asked for.
    private var size = Size(width: 0, height: 0)
    private(set) var isShown = false
    /// The touchscreen's matrix to put back: the one it had, or the one saved meanwhile.
    var savedMatrix: [Float]?
    /// After cancel_calibration: nothing more shows or is heard.
    private var cancelled = false
    /// The calibrated touchscreen's touches down, and whether they were cancelled (nothing
    /// more is sent until all have lifted).
    private var down: Set<Int32> = []
    private var touchesCancelled = false

    var roleName: String { "weston_touch_calibrator" }
    var isMapped: Bool { resource != nil && isShown }

    fileprivate init(part: TouchCalibration, surface: Surface, device: String, output: String) {
        self.part = part
        self.surface = surface
        self.device = device
        self.output = output
    }

    var clientDescription: String {
        guard let resource, let client = wl_resource_get_client(resource) else { return "(gone)" }
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return "pid \(pid)"
    }

    fileprivate func configure(size: Size) {
        guard let resource else { return }
        self.size = size
        weston_touch_calibrator_send_configure(resource, Int32(clamping: size.width), Int32(clamping: size.height))
    }

    func place() {
        if isShown { part.place(surface, on: output) }
    }

    func committed(surface: Surface, hadBuffer: Bool) {
        guard resource != nil, !cancelled, !isShown, surface.hasBuffer else { return surface.syncNode() }
        // Shown before its node is made, which asks whether it is.
        isShown = true
        if let wrong = part.show(surface, sized: size, on: output) {
            isShown = false
            return postError(WESTON_TOUCH_CALIBRATOR_ERROR_BAD_SIZE.rawValue, wrong)
        }
        part.shown(self)
    }

    /// What the touchscreen did, as the backend heard it; other touchscreens' touches only
    /// say that they are not wanted.
    fileprivate func heard(_ touch: CapturedTouch, from device: String, at time: Instant) {
        guard let resource, isShown else { return }
        guard device == self.device else {
            if case .down = touch { weston_touch_calibrator_send_invalid_touch(resource) }
            return
        }
        let ms = UInt32(truncatingIfNeeded: time.microseconds / 1000)
        switch touch {
        case .down(let id, let at), .motion(let id, let at):
            let isDown = if case .down = touch { true } else { false }
            if isDown { down.insert(id) }
            guard !touchesCancelled else { return }
            guard let (x, y) = Self.wire(at) else {
                if !isDown {
                    weston_touch_calibrator_send_cancel(resource)
                    touchesCancelled = true
                }
                return weston_touch_calibrator_send_invalid_touch(resource)
            }
            if isDown { weston_touch_calibrator_send_down(resource, ms, id, x, y) } else { weston_touch_calibrator_send_motion(resource, ms, id, x, y) }
        case .up(let id):
            down.remove(id)
            if touchesCancelled {
                if down.isEmpty { touchesCancelled = false }
                return
            }
            weston_touch_calibrator_send_up(resource, ms, id)
        case .frame:
            if !touchesCancelled { weston_touch_calibrator_send_frame(resource) }
        case .cancel:
            down = []
            touchesCancelled = false
            weston_touch_calibrator_send_cancel(resource)
        }
    }

    /// A fraction of the output in the protocol's fixed point, where 0xffffffff is 1; nil
    /// outside 0...1.
    static func wire(_ point: Point) -> (UInt32, UInt32)? {
        guard (0...1).contains(point.x), (0...1).contains(point.y) else { return nil }
        return (UInt32((point.x * Double(UInt32.max)).rounded()), UInt32((point.y * Double(UInt32.max)).rounded()))
    }

    fileprivate func cancelCalibration(because reason: String) {
        guard let resource, !cancelled else { return }
        part.context.logger.warning("touch calibration cancelled: \(reason)")
        cancelled = true
        weston_touch_calibrator_send_cancel_calibration(resource)
        hide()
    }

    /// Out of the scene, and the touchscreen given back.
    private func hide() {
        guard isShown else { return }
        isShown = false
        surface?.removeNode()
        part.hidden(self)
    }

    func surfaceDestroyed() {
        hide()
        surface = nil
    }

    override func resourceDestroyed() {
        hide()
        part.forget(self)
    }

    /// Where surface point (x, y) lies in touch coordinates: through the layout onto the
    /// output's panel, before its transform.
    private func convert(x: Int32, y: Int32, reply id: UInt32) {
        guard let resource, let client = wl_resource_get_client(resource),
              let reply = wl_resource_create(client, tactile_weston_touch_coordinate_interface(), version, id) else {
            return
        }
        defer { wl_resource_destroy(reply) }
        guard !cancelled else { return weston_touch_coordinate_send_result(reply, 0, 0) }
        guard isShown, let placed = part.placed(named: output) else {
            return postError(WESTON_TOUCH_CALIBRATOR_ERROR_NOT_MAPPED.rawValue, "convert before the calibrator's surface shows")
        }
        guard x >= 0, y >= 0, Int(x) < size.width, Int(y) < size.height else {
            return postError(WESTON_TOUCH_CALIBRATOR_ERROR_BAD_COORDINATES.rawValue, "convert(\(x), \(y)) is outside the \(size.width)x\(size.height) surface")
        }
        let global = Point(x: Double(placed.rect.x) + Double(x), y: Double(placed.rect.y) + Double(y))
        guard let (u, v) = Self.wire(placed.panelFraction(of: global)) else {
            return postError(WESTON_TOUCH_CALIBRATOR_ERROR_BAD_COORDINATES.rawValue, "convert(\(x), \(y)) falls outside the output")
        }
        weston_touch_coordinate_send_result(reply, u, v)
    }

    static let requests = RequestTable(weston_touch_calibrator_interface(
        destroy: destroyResource,
        convert: { _, resource, x, y, id in Calibrator.from(resource)?.convert(x: x, y: y, reply: id) }
    ))
}
