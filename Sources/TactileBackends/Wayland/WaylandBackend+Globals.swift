import CWaylandClient
import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// The parent's globals the backend binds: what it draws with and where its input comes from.
struct ParentGlobals {
    var registry: OpaquePointer?
    var compositor: OpaquePointer?
    /// wl_surface.damage_buffer needs wl_compositor 4; before it, wl_surface.damage (the
    /// same rectangles, as our buffers have scale 1).
    var compositorVersion: UInt32 = 0
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    /// wp_presentation: when the parent showed each frame, forwarded as the output's
    /// presentation time (only in CLOCK_MONOTONIC, ours).
    var presentation: OpaquePointer?
    var presentationClock: UInt32?
    /// zwp_input_timestamps_manager_v1: the nanosecond times of the parent's input events.
    var inputTimestamps: OpaquePointer?
    /// zwp_linux_dmabuf_v1 and its version, until `ParentDmabuf` takes it (or it is let go).
    var dmabuf: (proxy: OpaquePointer, version: UInt32)?

    /// Whether the parent's presentation times are in our clock.
    var presentsInOurClock: Bool { presentation != nil && presentationClock == UInt32(CLOCK_MONOTONIC) }

    mutating func release() {
        if let inputTimestamps { zwp_input_timestamps_manager_v1_destroy(inputTimestamps) }
        if let dmabuf { zwp_linux_dmabuf_v1_destroy(dmabuf.proxy) }
        if let presentation { wp_presentation_destroy(presentation) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        self = ParentGlobals()
    }
}

extension WaylandBackend {
    /// The versions we speak: wl_seat 8 has axis_value120; xdg_wm_base 5 is what our
    /// generated headers know.
    static let wantedVersions: [String: UInt32] = ["wl_compositor": 4, "wl_shm": 1, "xdg_wm_base": 5, "wl_seat": 8, "wp_presentation": 1,
                                                   "zwp_input_timestamps_manager_v1": 1, "zwp_tablet_manager_v2": 1,
                                                   "zwp_linux_dmabuf_v1": 4]

    /// Lists the parent's globals and binds ours; throws when the parent lacks one we need.
    func bindGlobals() throws {
        globals.registry = wl_display_get_registry(display)
        wl_registry_add_listener(globals.registry, NestedListeners.registry, Unmanaged.passUnretained(self).toOpaque())
        guard wl_display_roundtrip(display) >= 0 else { throw WaylandBackendError.parentFailed("the first round trip failed") }
        if globals.compositor == nil { throw WaylandBackendError.missingGlobal("wl_compositor") }
        if globals.shm == nil { throw WaylandBackendError.missingGlobal("wl_shm") }
        if globals.wmBase == nil { throw WaylandBackendError.missingGlobal("xdg_wm_base") }
        xdg_wm_base_add_listener(globals.wmBase, NestedListeners.wmBase, nil)
        if input.seat == nil { logger.warning("the parent compositor has no wl_seat: no input comes from it") }
        startTablets()
        startDmabuf()
    }

    /// Frames go to the parent as dmabufs where it offers linux-dmabuf on a device the
    /// renderer draws into; else as wl_shm memory. The log says which, and why.
    private func startDmabuf() {
        guard host.renderer.dmabuf != nil else { return }
        guard let (proxy, version) = globals.dmabuf else {
            return logger.info("frames go to the parent in wl_shm buffers: it offers no linux-dmabuf")
        }
        globals.dmabuf = nil
        switch ParentDmabuf.make(display: display, manager: proxy, version: version) {
        case .success(let dmabuf):
            parentDmabuf = dmabuf
            logger.info("frames go to the parent as dmabufs the GPU draws, on \(dmabuf.node)")
        case .failure(let refusal):
            zwp_linux_dmabuf_v1_destroy(proxy)
            logger.info("frames go to the parent in wl_shm buffers: \(refusal)")
        }
    }

    func globalAnnounced(_ name: UInt32, _ interface: String, _ offered: UInt32) {
        guard let wanted = Self.wantedVersions[interface] else { return }
        let version = min(offered, wanted)
        func bind(_ type: UnsafePointer<wl_interface>) -> OpaquePointer? {
            OpaquePointer(wl_registry_bind(globals.registry, name, type, version))
        }
        switch interface {
        case "wl_compositor" where globals.compositor == nil:
            globals.compositor = bind(tactile_client_wl_compositor_interface())
            globals.compositorVersion = version
        case "wl_shm" where globals.shm == nil: globals.shm = bind(tactile_client_wl_shm_interface())
        case "xdg_wm_base" where globals.wmBase == nil: globals.wmBase = bind(tactile_xdg_wm_base_interface())
        case "wp_presentation" where globals.presentation == nil:
            globals.presentation = bind(tactile_wp_presentation_interface())
            wp_presentation_add_listener(globals.presentation, NestedListeners.presentation, Unmanaged.passUnretained(self).toOpaque())
        case "zwp_input_timestamps_manager_v1" where globals.inputTimestamps == nil:
            globals.inputTimestamps = bind(tactile_zwp_input_timestamps_manager_v1_interface())
        case "zwp_linux_dmabuf_v1" where globals.dmabuf == nil && host.renderer.dmabuf != nil:
            globals.dmabuf = bind(tactile_zwp_linux_dmabuf_v1_interface()).map { ($0, version) }
        case "zwp_tablet_manager_v2" where tablets.manager == nil:
            tablets.manager = bind(tactile_zwp_tablet_manager_v2_interface())
        // One seat is Tactile's input; a parent with several has its first.
        case "wl_seat" where input.seat == nil: bindSeat(name: name, proxy: bind(tactile_client_wl_seat_interface()), version: version)
        default: break
        }
    }

    /// The parent's seat went (globals other than the seat are not removed by compositors
    /// that keep running).
    func globalRemoved(_ name: UInt32) {
        guard name == input.seatName else { return }
        logger.warning("the parent compositor removed its seat: no input from it any more")
        seatCapabilitiesChanged(0)
        input.release()
        host.setSeatCapabilities([])
    }
}
