import GestureConfiguration
import Responder
import TactileABI

// The touch accommodations' half of tactile.h: the router's settings, exempt nodes, the
// secondary click, and the rings to draw.

extension Router {
    /// An event of no device through the zoom's gestures and the accommodations (those on),
    /// and what comes out routed.
    func handleStaged(_ event: InputEvent) -> tactile_status {
        var output = FilteredOutput(router: self)
        output.pass(event)
        if let ignored = output.sink.ignored { return fail(TACTILE_ERROR_IGNORED, "ignored: \(ignored)") }
        return TACTILE_OK
    }

    /// Whether a touch coming down at `global` passes as it is: on a system edge swipe's
    /// edge, or on (or under) a node the embedder exempted.
    func exemption(at global: Point) -> AccommodationExemption? {
        if core.systemEdgeGestureStarts(at: global) { return .systemEdge }
        guard !exemptNodes.isEmpty, let hit = core.hitTest(at: global) else { return nil }
        return hit.chain.contains(where: exemptNodes.contains) ? .app : nil
    }

    /// Every ring to draw now, in layout coordinates (the accommodations' are the screen's).
    var rings: [TouchRing] {
        var rings = accommodations.rings.map { ring in
            var mapped = ring
            mapped.at = zoom.view?.map(ring.at) ?? ring.at
            return mapped
        }
        if let ring = core.secondaryClickRing { rings.append(ring) }
        return rings
    }
}

@_cdecl("tactile_accommodations_init")
public func tactile_accommodations_init(_ accommodations: UnsafeMutablePointer<tactile_accommodations>?) {
    guard let accommodations else { return }
    accommodations.pointee = tactile_accommodations()
    accommodations.pointee.hold_slop = AccommodationSettings.defaultHoldSlop
    accommodations.pointee.ignore_repeat_radius = AccommodationSettings.defaultIgnoreRepeatRadius
    accommodations.pointee.tap_assistance_delay_ms = UInt32(AccommodationSettings.defaultTapAssistanceDelay.milliseconds)
}

@_cdecl("tactile_set_accommodations")
public func tactile_set_accommodations(_ handle: OpaquePointer?, _ accommodations: UnsafePointer<tactile_accommodations>?) -> tactile_status {
    withRouter(handle) { router in
        guard let a = accommodations?.pointee else { return router.fail(TACTILE_ERROR_INVALID, "the accommodations are NULL") }
        func ms(_ value: UInt32, _ name: String, _ range: ClosedRange<Int>) -> Result<Duration?, AccommodationProblem> {
            guard value == 0 || range.contains(Int(value)) else { return .failure(AccommodationProblem(text: "\(name) \(value) is neither 0 (off) nor from \(range.lowerBound) to \(range.upperBound)")) }
            return .success(value == 0 ? nil : .milliseconds(Int64(value)))
        }
        func pixels(_ value: Double, _ name: String) -> Result<Double, AccommodationProblem> {
            guard value.isFinite, value >= 1, value <= 2000 else { return .failure(AccommodationProblem(text: "\(name) \(value) is not from 1 to 2000 px")) }
            return .success(value)
        }
        let tap: TapAssistance
        switch a.tap_assistance {
        case Int32(TACTILE_TAP_ASSISTANCE_OFF.rawValue): tap = .off
        case Int32(TACTILE_TAP_ASSISTANCE_INITIAL.rawValue): tap = .initial
        case Int32(TACTILE_TAP_ASSISTANCE_FINAL.rawValue): tap = .final
        default: return router.fail(TACTILE_ERROR_INVALID, "tap_assistance \(a.tap_assistance) is not a tactile_tap_assistance")
        }
        do {
            let settings = AccommodationSettings(
                holdDuration: try ms(a.hold_duration_ms, "hold_duration_ms", AccommodationSettings.holdDurations).get(),
                holdSlop: try pixels(a.hold_slop, "hold_slop").get(),
                ignoreRepeat: try ms(a.ignore_repeat_ms, "ignore_repeat_ms", AccommodationSettings.ignoreRepeats).get(),
                ignoreRepeatRadius: try pixels(a.ignore_repeat_radius, "ignore_repeat_radius").get(), tapAssistance: tap,
                tapAssistanceDelay: try ms(a.tap_assistance_delay_ms, "tap_assistance_delay_ms", AccommodationSettings.tapAssistanceDelays).get()
                    ?? AccommodationSettings.defaultTapAssistanceDelay)
            router.accommodations.setSettings(settings)
            return TACTILE_OK
        } catch {
            return router.fail(TACTILE_ERROR_INVALID, (error as? AccommodationProblem)?.text ?? "\(error)")
        }
    }
}

@_cdecl("tactile_load_accommodations_yaml")
public func tactile_load_accommodations_yaml(_ handle: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int, _ file: UnsafePointer<CChar>?) -> tactile_status {
    withRouter(handle) { router in
        guard let text, length >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "the text is NULL") }
        let name = file.map { String(cString: $0) } ?? "(text)"
        do {
            let (settings, zoom) = try YAMLReader.accommodations(fromYAML: String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self), file: name)
            router.accommodations.setSettings(settings)
            var unrouted = UnroutedZoom()
            router.zoom.setSettings(zoom, into: &unrouted)
            return TACTILE_OK
        } catch let error as ConfigurationError {
            return router.fail(TACTILE_ERROR_CONFIGURATION, error.description)
        } catch {
            return router.fail(TACTILE_ERROR_CONFIGURATION, "\(name): \(error)")
        }
    }
}

@_cdecl("tactile_node_set_accommodations")
public func tactile_node_set_accommodations(_ handle: OpaquePointer?, _ node: tactile_node, _ enabled: Int32) -> tactile_status {
    withRouter(handle) { router in
        let id: NodeID
        switch router.node(node) {
        case .success(let n): id = n
        case .failure(let f): return router.fail(f)
        }
        router.exemptNodes.removeAll { $0 == id || !router.core.scene.contains($0) }
        if enabled == 0 { router.exemptNodes.append(id) }
        return TACTILE_OK
    }
}

@_cdecl("tactile_set_secondary_click")
public func tactile_set_secondary_click(_ handle: OpaquePointer?, _ ms: UInt32) -> tactile_status {
    withRouter(handle) { router in
        guard ms == 0 || (200...4000).contains(ms) else { return router.fail(TACTILE_ERROR_INVALID, "secondary click \(ms) ms is neither 0 (off) nor from 200 to 4000") }
        router.core.policy.secondaryClick = ms == 0 ? nil : .milliseconds(Int64(ms))
        return TACTILE_OK
    }
}

@_cdecl("tactile_ring_count")
public func tactile_ring_count(_ handle: OpaquePointer?) -> Int {
    idleRouter(handle)?.rings.count ?? 0
}

@_cdecl("tactile_get_ring")
public func tactile_get_ring(_ handle: OpaquePointer?, _ index: Int, _ ring: UnsafeMutablePointer<tactile_ring>?) -> tactile_status {
    guard let router = idleRouter(handle) else { return RouterTable.router(handle) == nil ? TACTILE_ERROR_NO_ROUTER : TACTILE_ERROR_BUSY }
    guard let ring else { return router.fail(TACTILE_ERROR_INVALID, "the ring is NULL") }
    let rings = router.rings
    guard index >= 0, index < rings.count else { return router.fail(TACTILE_ERROR_INVALID, "ring \(index) of \(rings.count)") }
    let r = rings[index]
    ring.pointee = tactile_ring(touch: r.touch, purpose: Int32(r.purpose == .holdDuration ? TACTILE_RING_HOLD_DURATION.rawValue : TACTILE_RING_SECONDARY_CLICK.rawValue),
                                x: r.at.x, y: r.at.y, start_usec: r.start.microseconds, end_usec: r.end.microseconds)
    return TACTILE_OK
}

private struct AccommodationProblem: Error {
    let text: String
}
