import CWaylandClient
import Glibc
import Responder
import WaylandProtocols

/// A client of weston_touch_calibration: the touchscreens a compositor offers, and one of
/// them taken to show crosses on its output and hear its uncalibrated taps; and of
/// tactile_touchscreen_mapper_v1 (`--map`): each screen asked which touchscreen touches it.
final class CalibrateClient {
    typealias Failure = GlobalConnection.Failure

    private let connection: ClientConnection
    private var display: OpaquePointer { connection.display }
    private var calibration: OpaquePointer?
    /// Each touchscreen offered: its syspath and its output's name.
    fileprivate(set) var touchscreens: [(syspath: String, output: String)] = []
    /// The outputs, by name, in the order announced.
    var outputs: [(proxy: OpaquePointer, name: String?)] { connection.outputs }
    // `--map`: the mapper, every touchscreen it lists (done once listed), and the answer
    // to the question asked.
    private var mapper: OpaquePointer?
    fileprivate(set) var mappable: [(syspath: String, name: String, output: String, rule: String)] = []
    fileprivate var listed = false
    fileprivate var answer: Answer?

    // The calibrator, once taken.
    private var surface: OpaquePointer?
    private var calibrator: OpaquePointer?
    private var buffers: [OpaquePointer] = []
    private var pixels: UnsafeMutablePointer<UInt32>?
    private var pixelBytes = 0
    private var drawn = 0
    fileprivate var size: (width: Int32, height: Int32)?
    fileprivate var events: [Event] = []
    fileprivate var conversions: [Int: Point] = [:]

    /// What the calibrator heard, in order; positions as fractions of the panel, times in the
    /// panel's milliseconds.
    enum Event: Equatable {
        case down(id: Int32, Point, time: UInt32)
        case motion(id: Int32, Point, time: UInt32)
        case up(id: Int32, time: UInt32)
        /// A touch on another touchscreen, or off this one's screen.
        case invalid
        /// The touches down are void.
        case cancel
        /// The touchscreen or its output went.
        case cancelCalibration
    }

    /// What a question heard.
    enum Answer: Equatable {
        case touched(syspath: String)
        /// Its output went.
        case cancelled
        /// No touch before the deadline.
        case timedOut
    }

    init(socket: String?) throws {
        connection = try ClientConnection(socket: socket)
    }

    /// The touchscreens weston_touch_calibration offers for calibration.
    func listCalibratable() throws {
        let calibration = try bind(tactile_weston_touch_calibration_interface(), "privileges.touch-calibration")
        self.calibration = calibration
        weston_touch_calibration_add_listener(calibration, calibrationListener, Unmanaged.passUnretained(self).toOpaque())
        wl_display_roundtrip(display)
    }

    /// Every touchscreen and where it maps now, from the mapper.
    func listMappable() throws {
        let mapper = try bind(tactile_tactile_touchscreen_mapper_v1_interface(), "privileges.touch-calibration")
        self.mapper = mapper
        tactile_touchscreen_mapper_v1_add_listener(mapper, mapperListener, Unmanaged.passUnretained(self).toOpaque())
        try dispatch { listed }
    }

    /// Shows the question on `output` (white, a black ring in the middle) until a
    /// touchscreen touches it, the output goes, or `seconds` pass.
    func ask(_ output: OpaquePointer, seconds: Int) throws -> Answer {
        let compositor = try bind(tactile_client_wl_compositor_interface(), "a surface to show the question on")
        let surface = wl_compositor_create_surface(compositor)
        defer { wl_surface_destroy(surface) }
        size = nil
        answer = nil
        guard let question = tactile_touchscreen_mapper_v1_ask(mapper, surface, output) else { throw Failure(description: "out of memory") }
        defer { tactile_touchscreen_question_v1_destroy(question) }
        tactile_touchscreen_question_v1_add_listener(question, questionListener, Unmanaged.passUnretained(self).toOpaque())
        try dispatch { size != nil || answer != nil }
        if let answer { return answer }
        guard let size, size.width > 0, size.height > 0 else { return .cancelled }
        let (w, h) = (Int(size.width), Int(size.height))
        let (buffer, frame, bytes) = try makeBuffer(width: w, height: h)
        defer {
            munmap(frame, bytes)
            wl_buffer_destroy(buffer)
        }
        let (cx, cy, outer) = (Double(w) / 2, Double(h) / 2, Double(min(w, h)) / 6)
        for y in 0..<h {
            for x in 0..<w {
                let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
                frame[y * w + x] = d <= outer && d >= outer * 0.6 ? 0xFF00_0000 : 0xFFFF_FFFF
            }
        }
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, size.width, size.height)
        wl_surface_commit(surface)
        let deadline = ClientConnection.now() + Double(seconds)
        try dispatch(until: { answer != nil }, deadline: deadline)
        return answer ?? .timedOut
    }

    /// Maps the touchscreen to the output, in the compositor, from now on.
    func map(_ syspath: String, to output: OpaquePointer) {
        tactile_touchscreen_mapper_v1_map(mapper, syspath, output)
        wl_display_roundtrip(display)
    }

    deinit {
        for buffer in buffers { wl_buffer_destroy(buffer) }
        if let pixels { munmap(pixels, pixelBytes) }
    }

    /// Takes the touchscreen: its surface, once configured and drawn white, shows over its
    /// output. Returns the surface's size.
    func take(_ syspath: String) throws -> (width: Int32, height: Int32) {
        let compositor = try bind(tactile_client_wl_compositor_interface(), "a surface to show the crosses on")
        let surface = wl_compositor_create_surface(compositor)
        self.surface = surface
        let calibrator = weston_touch_calibration_create_calibrator(calibration, surface, syspath)
        self.calibrator = calibrator
        weston_touch_calibrator_add_listener(calibrator, calibratorListener, Unmanaged.passUnretained(self).toOpaque())
        try dispatch { size != nil || events.contains(.cancelCalibration) }
        guard let size, size.width > 0, size.height > 0 else { throw Failure(description: "the touchscreen went before calibration began") }
        try makeBuffers(size)
        return size
    }

    /// Shows the cross at `target` (surface pixels), black, or red for a tap refused.
    func show(crossAt target: (x: Int, y: Int), refused: Bool) {
        guard let size, let pixels, let surface else { return }
        let (w, h) = (Int(size.width), Int(size.height))
        let frame = pixels + (drawn % 2) * w * h
        frame.update(repeating: 0xFFFF_FFFF, count: w * h)
        let colour: UInt32 = refused ? 0xFFE0_0000 : 0xFF00_0000
        // Four pixels thick and forty long, centred on the target point itself (a corner
        // between pixels), which is what convert places exactly, whatever the output's
        // transform: a cross centred on a pixel would be half a pixel off on a turned screen.
        for d in -20..<20 {
            for t in -2..<2 {
                for (x, y) in [(target.x + d, target.y + t), (target.x + t, target.y + d)] where (0..<w).contains(x) && (0..<h).contains(y) {
                    frame[y * w + x] = colour
                }
            }
        }
        wl_surface_attach(surface, buffers[drawn % 2], 0, 0)
        wl_surface_damage(surface, 0, 0, size.width, size.height)
        wl_surface_commit(surface)
        drawn += 1
        wl_display_flush(display)
    }

    /// Where surface points lie in touch coordinates (fractions of the output before its
    /// transform), as the compositor says: the targets the fit aims at.
    func convert(_ points: [(x: Int, y: Int)]) throws -> [Point] {
        conversions = [:]
        for (k, point) in points.enumerated() {
            guard let coordinate = weston_touch_calibrator_convert(calibrator, Int32(point.x), Int32(point.y)) else { continue }
            coordinateTags[coordinate] = k
            weston_touch_coordinate_add_listener(coordinate, coordinateListener, Unmanaged.passUnretained(self).toOpaque())
        }
        try dispatch { conversions.count == points.count || events.contains(.cancelCalibration) }
        guard conversions.count == points.count else { throw Failure(description: "the touchscreen or its screen went during calibration; nothing was changed") }
        return (0..<points.count).map { conversions[$0]! }
    }

    fileprivate var coordinateTags: [OpaquePointer: Int] = [:]

    /// The next event the calibrator hears; nil when none came before `deadline` (seconds
    /// on the monotonic clock, as `ClientConnection.dispatch` counts them).
    func nextEvent(before deadline: Double? = nil) throws -> Event? {
        try dispatch(until: { !events.isEmpty }, deadline: deadline)
        return events.isEmpty ? nil : events.removeFirst()
    }

    /// Shows the surface white, with no cross.
    func showNothing() {
        show(crossAt: (-100, -100), refused: false)
    }

    /// Sets the matrix (it applies once the calibrator goes) and gives the touchscreen back.
    func save(_ matrix: [Float], for syspath: String) throws {
        var array = wl_array()
        wl_array_init(&array)
        defer { wl_array_release(&array) }
        for value in matrix {
            guard let slot = wl_array_add(&array, MemoryLayout<Float>.size) else { throw Failure(description: "out of memory") }
            slot.storeBytes(of: value, as: Float.self)
        }
        weston_touch_calibration_save(calibration, syspath, &array)
        release()
    }

    /// Gives the touchscreen back, its matrix as it was (or as saved).
    func release() {
        if let calibrator { weston_touch_calibrator_destroy(calibrator) }
        calibrator = nil
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        wl_display_roundtrip(display)
    }

    /// One ARGB buffer of its own shared memory, mapped for drawing.
    private func makeBuffer(width: Int, height: Int) throws -> (OpaquePointer, UnsafeMutablePointer<UInt32>, Int) {
        let shm = try bind(tactile_client_wl_shm_interface(), "the question is drawn in shared memory")
        let bytes = width * height * 4
        let fd = tactile_client_memfd_create("tactile-map")
        guard fd >= 0 else { throw Failure(description: "cannot make shared memory: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0, let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw Failure(description: "cannot map \(bytes) bytes of shared memory: \(String(cString: strerror(errno)))")
        }
        let pool = wl_shm_create_pool(shm, fd, Int32(bytes))
        defer { wl_shm_pool_destroy(pool) }
        guard let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(width * 4), WL_SHM_FORMAT_ARGB8888.rawValue) else {
            throw Failure(description: "out of memory")
        }
        return (buffer, memory.bindMemory(to: UInt32.self, capacity: width * height), bytes)
    }

    private func makeBuffers(_ size: (width: Int32, height: Int32)) throws {
        let shm = try bind(tactile_client_wl_shm_interface(), "the crosses are drawn in shared memory")
        let frameBytes = Int(size.width) * Int(size.height) * 4
        pixelBytes = frameBytes * 2
        let fd = tactile_client_memfd_create("tactile-calibrate")
        guard fd >= 0 else { throw Failure(description: "cannot make shared memory: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(pixelBytes)) == 0, let memory = mmap(nil, pixelBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw Failure(description: "cannot map \(pixelBytes) bytes of shared memory: \(String(cString: strerror(errno)))")
        }
        pixels = memory.bindMemory(to: UInt32.self, capacity: pixelBytes / 4)
        let pool = wl_shm_create_pool(shm, fd, Int32(pixelBytes))
        defer { wl_shm_pool_destroy(pool) }
        buffers = (0..<2).map { k in
            wl_shm_pool_create_buffer(pool, Int32(k * frameBytes), size.width, size.height, size.width * 4, WL_SHM_FORMAT_ARGB8888.rawValue)
        }
    }

    private func bind(_ interface: UnsafePointer<wl_interface>, _ why: String) throws -> OpaquePointer {
        try connection.bind(interface, why)
    }

    private func dispatch(until done: () -> Bool, deadline: Double? = nil) throws {
        try connection.dispatch(until: done, deadline: deadline)
    }
}

private func client(_ data: UnsafeMutableRawPointer?) -> CalibrateClient {
    Unmanaged<CalibrateClient>.fromOpaque(data!).takeUnretainedValue()
}

/// 0xffffffff is 1.0 on the wire.
private func fraction(_ x: UInt32, _ y: UInt32) -> Point {
    Point(x: Double(x) / Double(UInt32.max), y: Double(y) / Double(UInt32.max))
}

nonisolated(unsafe) private let calibrationListener: UnsafeMutablePointer<weston_touch_calibration_listener> = {
    let listener = UnsafeMutablePointer<weston_touch_calibration_listener>.allocate(capacity: 1)
    listener.initialize(to: weston_touch_calibration_listener(
        touch_device: { data, _, device, head in
            client(data).touchscreens.append((String(cString: device!), String(cString: head!)))
        }
    ))
    return listener
}()

nonisolated(unsafe) private let calibratorListener: UnsafeMutablePointer<weston_touch_calibrator_listener> = {
    let listener = UnsafeMutablePointer<weston_touch_calibrator_listener>.allocate(capacity: 1)
    listener.initialize(to: weston_touch_calibrator_listener(
        configure: { data, _, width, height in client(data).size = (width, height) },
        cancel_calibration: { data, _ in client(data).events.append(.cancelCalibration) },
        invalid_touch: { data, _ in client(data).events.append(.invalid) },
        down: { data, _, time, id, x, y in client(data).events.append(.down(id: id, fraction(x, y), time: time)) },
        up: { data, _, time, id in client(data).events.append(.up(id: id, time: time)) },
        motion: { data, _, time, id, x, y in client(data).events.append(.motion(id: id, fraction(x, y), time: time)) },
        frame: { _, _ in },
        cancel: { data, _ in client(data).events.append(.cancel) }
    ))
    return listener
}()

nonisolated(unsafe) private let coordinateListener: UnsafeMutablePointer<weston_touch_coordinate_listener> = {
    let listener = UnsafeMutablePointer<weston_touch_coordinate_listener>.allocate(capacity: 1)
    listener.initialize(to: weston_touch_coordinate_listener(
        result: { data, coordinate, x, y in
            let client = client(data)
            guard let coordinate, let tag = client.coordinateTags.removeValue(forKey: coordinate) else { return }
            client.conversions[tag] = fraction(x, y)
            weston_touch_coordinate_destroy(coordinate)
        }
    ))
    return listener
}()


nonisolated(unsafe) private let mapperListener: UnsafeMutablePointer<tactile_touchscreen_mapper_v1_listener> = {
    let listener = UnsafeMutablePointer<tactile_touchscreen_mapper_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: tactile_touchscreen_mapper_v1_listener(
        touchscreen: { data, _, device, name, output, rule in
            client(data).mappable.append((String(cString: device!), String(cString: name!), String(cString: output!), String(cString: rule!)))
        },
        done: { data, _ in client(data).listed = true }
    ))
    return listener
}()

nonisolated(unsafe) private let questionListener: UnsafeMutablePointer<tactile_touchscreen_question_v1_listener> = {
    let listener = UnsafeMutablePointer<tactile_touchscreen_question_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: tactile_touchscreen_question_v1_listener(
        configure: { data, _, width, height in client(data).size = (width, height) },
        touched: { data, _, device in client(data).answer = .touched(syspath: String(cString: device!)) },
        cancelled: { data, _ in client(data).answer = .cancelled }
    ))
    return listener
}()
