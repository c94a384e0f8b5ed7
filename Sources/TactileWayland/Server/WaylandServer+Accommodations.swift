import Responder

/// Zoom by touch, the touch accommodations and the secondary click in the server: where
/// events pass through them, what is exempt, the countdowns drawn, and their settings
/// changed while the server runs (a reload).
extension WaylandServer {
    /// Routes an event as filtered: through zoom by touch's gestures (`Zooming`), then the
    /// touch accommodations (`TouchAccommodating`), each only when on, then mapped through
    /// the zoom's view to the layout point the screen shows there.
    func routeFiltered(_ event: InputEvent) {
        guard parts.zooming.isActive else { return accommodateAndRoute(event) }
        parts.zooming.process(event) { accommodateAndRoute($0) }
    }

    private func accommodateAndRoute(_ event: InputEvent) {
        guard parts.touchAccommodating.isActive else { return routeInput(parts.zooming.map(event)) }
        parts.touchAccommodating.accommodate(event, now: currentTime, exemption: accommodationExemption) { routeInput(parts.zooming.map($0)) }
        showTouchRings()
    }

    /// Whether a touch coming down at `screen` passes the accommodations as it is: on a
    /// system edge swipe's edge, or on a window whose rule says `accommodations: false`.
    func accommodationExemption(at screen: Point) -> AccommodationExemption? {
        let global = parts.zooming.map(screen)
        if router.systemEdgeGestureStarts(at: global) { return .systemEdge }
        guard !parts.touchAccommodating.exemptions.isEmpty, let hit = router.hitTest(at: global),
              let top = router.scene.toplevel(containing: hit.node), let surface = surface(at: top) else { return nil }
        let tag = surface.addon(XdgSurface.self)?.toplevel?.tag
        return parts.touchAccommodating.exempts(appID: surface.listedWindow?.appID, tag: tag) ? .app : nil
    }

    /// The countdowns under fingers now (holds, a long press), to the overlay.
    func showTouchRings() {
        // The accommodations' are on the screen, the router's in the layout.
        var rings = parts.touchAccommodating.rings.map { ring in
            var mapped = ring
            mapped.at = parts.zooming.map(ring.at)
            return mapped
        }
        if let ring = router.secondaryClickRing { rings.append(ring) }
        parts.overlays.rings.show(rings)
        parts.composition.overlayChanged()
    }

    /// Zoom by touch on with these settings, or off (nil): what is magnified is restored.
    public func setZoom(_ settings: ZoomSettings?) {
        parts.zooming.set(settings)
    }

    /// New accommodations, and the apps exempt from them (window rules with
    /// `accommodations: false`), from the moment no finger is down; the log says what applies.
    public func setAccommodations(_ settings: AccommodationSettings, exempting rules: [WindowRule]) {
        parts.touchAccommodating.set(settings, exempting: rules)
    }

    /// A long press's right click in the pointer emulation (nil: off), from the next touch.
    /// Xwayland's touches go to the emulation while it is on (`routedDevices`).
    public func setSecondaryClick(_ wait: Duration?) {
        guard router.policy.secondaryClick != wait else { return }
        router.policy.secondaryClick = wait
        for (client, devices) in boundDevices { router.setCapabilities(routedDevices(of: client, bound: devices), for: client) }
        logger.notice("touch secondary-click: \(wait.map { "a finger held \($0.milliseconds) ms right-clicks apps without wl_touch, X11 apps included" } ?? "off")")
    }

    /// The devices the core routes to for `client`: those it bound, but Xwayland's wl_touch
    /// while the secondary click is on. Xwayland binds wl_touch for every X app and turns
    /// touches into its own left button, which cannot right-click; an X app then gets the
    /// emulated pointer instead, and X apps that read XI2 touch get a mouse.
    func routedDevices(of client: ClientID, bound: InputCapabilities) -> InputCapabilities {
        guard router.policy.secondaryClick != nil, clients.byID[client]?.isXwayland == true else { return bound }
        return bound.subtracting(.touch)
    }

    /// Xwayland was recognized as such (its window manager connected), after it bound its
    /// devices: the core hears its devices again.
    func xwaylandRecognized(_ client: ClientID) {
        guard let devices = boundDevices[client] else { return }
        router.setCapabilities(routedDevices(of: client, bound: devices), for: client)
    }
}
