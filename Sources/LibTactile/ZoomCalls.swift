import Responder
import TactileABI

// Zoom by touch's half of tactile.h: its settings, the outputs it may magnify, a text field
// to follow, and the view the compositor draws.

/// Settings and follows change the view outside any event: what they owe goes nowhere (the
/// compositor asks `tactile_get_zoom` after each call).
struct UnroutedZoom: ZoomOutput {
    mutating func pass(_ event: InputEvent) {}
    mutating func zoomChanged(_ view: ZoomView?) {}
}

@_cdecl("tactile_set_zoom")
public func tactile_set_zoom(_ handle: OpaquePointer?, _ settings: UnsafePointer<tactile_zoom_settings>?) -> tactile_status {
    withRouter(handle) { router in
        var unrouted = UnroutedZoom()
        guard let s = settings?.pointee else {
            router.zoom.setSettings(nil, into: &unrouted)
            return TACTILE_OK
        }
        guard ZoomSettings.scales.contains(s.scale), ZoomSettings.scales.contains(s.maximum), s.maximum >= s.scale else {
            return router.fail(TACTILE_ERROR_INVALID, "zoom scale \(s.scale) and maximum \(s.maximum): each from 1.2 to 10, the maximum at least the scale")
        }
        router.zoom.setSettings(ZoomSettings(scale: s.scale, maximum: s.maximum), into: &unrouted)
        return TACTILE_OK
    }
}

@_cdecl("tactile_set_zoom_outputs")
public func tactile_set_zoom_outputs(_ handle: OpaquePointer?, _ rects: UnsafePointer<tactile_rect>?, _ count: Int) -> tactile_status {
    withRouter(handle) { router in
        guard count >= 0, count <= 64, count == 0 || rects != nil else { return router.fail(TACTILE_ERROR_INVALID, "\(count) outputs: 0 to 64, and not NULL") }
        var outputs: [Rect] = []
        for k in 0..<count {
            let r = rects![k]
            guard r.width >= 1, r.height >= 1 else { return router.fail(TACTILE_ERROR_INVALID, "output \(k) is \(r.width)x\(r.height): at least 1x1") }
            outputs.append(Rect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)))
        }
        var unrouted = UnroutedZoom()
        router.zoom.setOutputs(outputs, into: &unrouted)
        return TACTILE_OK
    }
}

@_cdecl("tactile_zoom_follow")
public func tactile_zoom_follow(_ handle: OpaquePointer?, _ rect: UnsafePointer<tactile_rect>?) -> tactile_status {
    withRouter(handle) { router in
        guard let r = rect?.pointee, r.width >= 0, r.height >= 0 else { return router.fail(TACTILE_ERROR_INVALID, "the rectangle is NULL or has a negative size") }
        var unrouted = UnroutedZoom()
        router.zoom.follow(Rect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)), into: &unrouted)
        return TACTILE_OK
    }
}

@_cdecl("tactile_get_zoom")
public func tactile_get_zoom(_ handle: OpaquePointer?, _ zoom: UnsafeMutablePointer<tactile_zoom>?) -> tactile_status {
    guard let router = idleRouter(handle) else { return RouterTable.router(handle) == nil ? TACTILE_ERROR_NO_ROUTER : TACTILE_ERROR_BUSY }
    guard let zoom else { return router.fail(TACTILE_ERROR_INVALID, "the zoom is NULL") }
    func c(_ r: Rect) -> tactile_rect { tactile_rect(x: Int32(clamping: r.x), y: Int32(clamping: r.y), width: Int32(clamping: r.width), height: Int32(clamping: r.height)) }
    guard let view = router.zoom.view else {
        zoom.pointee = tactile_zoom(active: 0, scale: 1, output: tactile_rect(), region: tactile_rect())
        return TACTILE_OK
    }
    zoom.pointee = tactile_zoom(active: 1, scale: view.scale, output: c(view.output), region: c(view.region))
    return TACTILE_OK
}
