import GestureConfiguration
import Responder
import TactileABI

// The touch filters' half of tactile.h: each device's settings, and touches that name
// their device, passed through its filters before the core routes them.

extension Router {
    /// `event` of `device` through its filters, and what comes out routed at once.
    func handle(_ event: InputEvent, from device: tactile_device) -> tactile_status {
        busy = true
        defer { busy = false }
        var output = FilteredOutput(router: self)
        filters.filter(event, from: InputDeviceID(device), into: &output)
        if let ignored = output.sink.ignored { return fail(TACTILE_ERROR_IGNORED, "ignored: \(ignored)") }
        return TACTILE_OK
    }

    @inline(__always)
    func handle(_ x: Double, _ y: Double, from device: tactile_device, _ event: (Point) -> InputEvent) -> tactile_status {
        guard Point(x: x, y: y).isRoutable else {
            return fail(TACTILE_ERROR_INVALID, "the point (\(x), \(y)) is not finite, or beyond 2^40 px")
        }
        return handle(event(Point(x: x, y: y)), from: device)
    }
}

/// Hands what the filters let through to the zoom's gestures, what those let through to the
/// accommodations, and what those let through to the core, mapped through the zoom's view;
/// what each did goes to the trace.
struct FilteredOutput: TouchFilterOutput, ZoomOutput, AccommodationOutput {
    private let unmanaged: Unmanaged<Router>
    var sink: CallbackSink
    /// The stage an event passed on goes to next: a stage passes events on from inside its
    /// own call, so each call sets where they go.
    private var next = Next.zoom
    /// The zoom's view, kept here: the zoom's own is not to be read while it runs.
    private var view: ZoomView?

    private enum Next { case zoom, accommodations, core }

    init(router: Router) {
        unmanaged = Unmanaged.passUnretained(router)
        sink = CallbackSink(router: router)
        view = router.zoom.view
    }

    mutating func pass(_ event: InputEvent) {
        let router = unmanaged.takeUnretainedValue()
        switch next {
        case .zoom where router.zoom.isActive:
            next = .accommodations
            router.zoom.process(event, into: &self)
            next = .zoom
        case .zoom, .accommodations:
            guard router.accommodations.isActive else { return route(event, router) }
            let previous = next
            next = .core
            let view = view
            router.accommodations.accommodate(event, into: &self) { router.exemption(at: view?.map($0) ?? $0) }
            next = previous
        case .core:
            route(event, router)
        }
    }

    private mutating func route(_ event: InputEvent, _ router: Router) {
        router.core.handle(view.map { $0.map(event) } ?? event, sink: &sink)
    }

    mutating func zoomChanged(_ view: ZoomView?) {
        self.view = view
    }

    mutating func report(_ report: TouchFilterReport) {
        if sink.isTracing { sink.trace(.touchFiltered(report, device: "\(report.device.rawValue)")) }
    }

    mutating func report(_ report: AccommodationReport) {
        if sink.isTracing { sink.trace(.touchAccommodated(report)) }
    }
}

/// The most dead zones one device may have: a panel has four corners and a few bad spots,
/// and a caller's count is not ours to allocate for.
private let maximumDeadZones = 1024

@_cdecl("tactile_touch_filters_init")
public func tactile_touch_filters_init(_ filters: UnsafeMutablePointer<tactile_touch_filters>?) {
    guard let filters else { return }
    filters.pointee = tactile_touch_filters()
    filters.pointee.debounce_radius = TouchFilterSettings.defaultDebounceRadius
    filters.pointee.min_cutoff_hz = OneEuroSettings.defaultMinimumCutoff
    filters.pointee.beta = OneEuroSettings.defaultBeta
    filters.pointee.stuck_after_ms = UInt32(PanelFilterSettings.defaultStuckAfter.milliseconds)
}

@_cdecl("tactile_device_set_touch_filters")
public func tactile_device_set_touch_filters(_ handle: OpaquePointer?, _ device: tactile_device, _ filters: UnsafePointer<tactile_touch_filters>?) -> tactile_status {
    withRouter(handle) { router in
        guard let f = filters?.pointee else {
            router.busy = true
            defer { router.busy = false }
            var output = FilteredOutput(router: router)
            router.filters.forget(InputDeviceID(device), into: &output)
            return TACTILE_OK
        }
        switch TouchFilterSettings.from(f) {
        case .failure(let problem): return router.fail(TACTILE_ERROR_INVALID, problem.text)
        case .success(let settings):
            router.filters.setFilters(settings, for: InputDeviceID(device))
            return TACTILE_OK
        }
    }
}

@_cdecl("tactile_device_load_touch_filters_yaml")
public func tactile_device_load_touch_filters_yaml(
    _ handle: OpaquePointer?, _ device: tactile_device, _ deviceName: UnsafePointer<CChar>?, _ output: UnsafePointer<tactile_rect>?,
    _ text: UnsafePointer<CChar>?, _ length: Int, _ file: UnsafePointer<CChar>?
) -> tactile_status {
    withRouter(handle) { router in
        guard let text, length >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "the text is NULL") }
        guard let deviceName else { return router.fail(TACTILE_ERROR_INVALID, "the device's name is NULL") }
        let name = file.map { String(cString: $0) } ?? "(text)"
        let area = output.map { Rect(x: Int($0.pointee.x), y: Int($0.pointee.y), width: Int($0.pointee.width), height: Int($0.pointee.height)) }
        if let area, area.isEmpty { return router.fail(TACTILE_ERROR_INVALID, "the output \(area) is empty") }
        let panel: PanelFilterSettings
        do {
            panel = try YAMLReader.touchFilters(fromYAML: String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self),
                                                file: name, device: String(cString: deviceName))
        } catch let error as ConfigurationError {
            return router.fail(TACTILE_ERROR_CONFIGURATION, error.description)
        } catch {
            return router.fail(TACTILE_ERROR_CONFIGURATION, "\(name): \(error)")
        }
        // Without an output, zones are where the file says, in a layout with no end.
        let (settings, offScreen) = panel.touchFilters(on: area ?? Rect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max)))
        if let zone = offScreen.first {
            return router.fail(TACTILE_ERROR_CONFIGURATION, "\(zone.origin): the dead zone \(zone.rect) lies off the output \(area ?? .empty)")
        }
        router.filters.setFilters(settings, for: InputDeviceID(device))
        return TACTILE_OK
    }
}

@_cdecl("tactile_device_touch_down")
public func tactile_device_touch_down(_ handle: OpaquePointer?, _ device: tactile_device, _ id: Int32, _ x: Double, _ y: Double, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(x, y, from: device) { .touchDown(id: id, global: $0, time: Instant(microseconds: time)) } }
}

@_cdecl("tactile_device_touch_motion")
public func tactile_device_touch_motion(_ handle: OpaquePointer?, _ device: tactile_device, _ id: Int32, _ x: Double, _ y: Double, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(x, y, from: device) { .touchMotion(id: id, global: $0, time: Instant(microseconds: time)) } }
}

@_cdecl("tactile_device_touch_up")
public func tactile_device_touch_up(_ handle: OpaquePointer?, _ device: tactile_device, _ id: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.touchUp(id: id, time: Instant(microseconds: time)), from: device) }
}

@_cdecl("tactile_device_touch_cancel")
public func tactile_device_touch_cancel(_ handle: OpaquePointer?, _ device: tactile_device, _ id: Int32, _ time: UInt64) -> tactile_status {
    withRouter(handle) { $0.handle(.touchCancel(id: id, time: Instant(microseconds: time)), from: device) }
}

@_cdecl("tactile_device_touch_frame")
public func tactile_device_touch_frame(_ handle: OpaquePointer?, _ device: tactile_device) -> tactile_status {
    withRouter(handle) { $0.handle(.touchFrame, from: device) }
}

private struct FilterProblem: Error {
    let text: String
}

extension TouchFilterSettings {
    /// The core's settings of a C struct, every value checked.
    fileprivate static func from(_ f: tactile_touch_filters) -> Result<TouchFilterSettings, FilterProblem> {
        func distance(_ value: Double, _ name: String) -> Result<Double?, FilterProblem> {
            guard value.isFinite, value >= 0, value <= Point.routableMagnitude else { return .failure(FilterProblem(text: "\(name) \(value) is not a distance from 0 px")) }
            return .success(value > 0 ? value : nil)
        }
        func duration(_ ms: UInt32) -> Duration? { ms > 0 ? .milliseconds(Int64(ms)) : nil }
        let jitter: Double?, radius: Double?
        switch (distance(f.jitter, "jitter"), distance(f.debounce_radius, "debounce_radius")) {
        case (.failure(let p), _), (_, .failure(let p)): return .failure(p)
        case (.success(let j), .success(let r)): (jitter, radius) = (j, r)
        }
        var smoothing: OneEuroSettings?
        switch f.smoothing {
        case 0: break
        case 1:
            guard f.min_cutoff_hz.isFinite, f.min_cutoff_hz > 0, f.min_cutoff_hz <= 1000, f.beta.isFinite, f.beta >= 0, f.beta <= 1000 else {
                return .failure(FilterProblem(text: "smoothing needs min_cutoff_hz above 0 and beta from 0 (both at most 1000), not \(f.min_cutoff_hz) and \(f.beta)"))
            }
            smoothing = OneEuroSettings(minimumCutoff: f.min_cutoff_hz, beta: f.beta)
        default: return .failure(FilterProblem(text: "smoothing is 0 or 1, not \(f.smoothing)"))
        }
        guard f.dead_zone_count <= maximumDeadZones else { return .failure(FilterProblem(text: "\(f.dead_zone_count) dead zones: at most \(maximumDeadZones)")) }
        guard f.dead_zone_count == 0 || f.dead_zones != nil else { return .failure(FilterProblem(text: "dead_zones is NULL with dead_zone_count \(f.dead_zone_count)")) }
        var zones: [Rect] = []
        for k in 0..<f.dead_zone_count {
            let z = f.dead_zones![k]
            guard z.width >= 1, z.height >= 1 else { return .failure(FilterProblem(text: "dead zone \(k) is \(z.width)x\(z.height): at least 1x1")) }
            zones.append(Rect(x: Int(z.x), y: Int(z.y), width: Int(z.width), height: Int(z.height)))
        }
        return .success(TouchFilterSettings(
            debounce: duration(f.debounce_ms), debounceRadius: radius ?? TouchFilterSettings.defaultDebounceRadius, jitter: jitter, smoothing: smoothing,
            deadZones: zones, minimumContact: duration(f.min_contact_ms), stuckAfter: duration(f.stuck_after_ms)))
    }
}
