import CDRM
import Glibc
import Logging
import Responder
import TactileRender
import TactileWayland

/// One connector lit by one CRTC: an output whose frames go into two framebuffers (GBM
/// buffer objects the GPU draws into, or dumb buffers the CPU writes), shown by page flips,
/// or whose full-screen client's buffer is flipped to as it is (direct scanout). The flip's
/// completion (the vblank) answers `outputPresented`, which paces composition and completes
/// clients' frame callbacks.
final class DRMOutput: OutputPresenter {
    unowned let card: DRMCard
    let connector: UInt32
    let crtc: UInt32
    private(set) var mode: drmModeModeInfo
    private(set) var description: OutputDescription
    /// What the connector offers, for `setMode`.
    private let modes: [drmModeModeInfo]
    var id: OutputID?
    private var buffers: [any ScanoutBuffer]
    /// The composed buffer shown last; the other is drawn into.
    private var front = 0
    /// What a flip in flight (or a modeset) puts on screen.
    private var pending: Shown?
    /// The client's buffer on screen, while one is: held until a flip replaces it, which
    /// keeps its wl_buffer from the client meanwhile.
    private var scannedOut: (ClientFramebuffer, Scanout)?
    /// Clients' buffers imported for scanout, while they live.
    private var clientFramebuffers: [ClientFramebuffer] = []
    /// Whether the last frame was a client's buffer shown as it is: the log says when that
    /// starts and stops.
    private var scanningOut = false
    /// The CRTC as Tactile found it (the console's), put back when Tactile leaves.
    private let saved: UnsafeMutablePointer<drmModeCrtc>?
    /// The next frame sets the mode (the first, and the first back from another VT) rather than flipping.
    private var needsModeset = true
    /// false while its settings keep it off: the CRTC is dark and nothing is shown.
    private var enabled = true
    /// false while the panel sleeps (DPMS off): nothing is shown until it wakes.
    private var poweredOn = true
    /// A flip was asked for and its event has not come.
    private var flipPending = false
    /// That flip was asked for between vertical blanks (a torn frame).
    private var flipIsAsync = false
    /// A full-screen client asked to be shown torn, and the log said what came of it.
    private var tornSaid = false
    /// The driver refused an async flip once: frames wait for vertical blanks from then on.
    private var asyncRefused = false
    /// A frame drawn while the seat was away, shown when it comes back.
    private var waiting = false
    /// The server asked for a frame and waits for `outputPresented`.
    private var owed = false
    /// The CRTC's cursor plane, when the driver has one: the cursor moves without copying
    /// the frame under it. nil: the cursor is drawn into the frames.
    private let cursorPlane: DumbBuffer?
    private var cursorShown = false

    init?(card: DRMCard, connector: UInt32, crtc: UInt32, mode: drmModeModeInfo, modes: [drmModeModeInfo], description: OutputDescription) {
        self.card = card
        self.connector = connector
        self.crtc = crtc
        self.mode = mode
        self.modes = modes
        self.description = description
        guard let (buffers, why) = card.scanoutBuffers(size: description.pixelSize) else { return nil }
        self.buffers = buffers
        saved = drmModeGetCrtc(card.fd, crtc)
        cursorPlane = Self.cursorPlane(card: card, crtc: crtc)
        card.logger.info("\(description.name): \(why)")
        card.logger.info("\(description.name): \(cursorPlane.map { "cursor plane of \($0.size.width)x\($0.size.height)" } ?? "no cursor plane: the cursor is drawn into the frames")")
    }

    /// A buffer for the CRTC's cursor plane, if the driver has one (hiding the cursor
    /// succeeds), of the size the driver asks for (64x64 when it does not say).
    private static func cursorPlane(card: DRMCard, crtc: UInt32) -> DumbBuffer? {
        guard drmModeSetCursor(card.fd, crtc, 0, 0, 0) == 0 else { return nil }
        var width: UInt64 = 64, height: UInt64 = 64
        _ = drmGetCap(card.fd, UInt64(DRM_CAP_CURSOR_WIDTH), &width)
        _ = drmGetCap(card.fd, UInt64(DRM_CAP_CURSOR_HEIGHT), &height)
        return DumbBuffer(card: card.fd, size: Size(width: Int(min(width, 512)), height: Int(min(height, 512))))
    }

    /// What a flip shows: one of the output's composed buffers, or a client's.
    private enum Shown {
        case composed(Int)
        case client(ClientFramebuffer, Scanout)
    }

    func present(_ frame: OutputFrame) {
        owed = true
        // A cursor that fits goes on the plane; a larger one is drawn into the frame.
        let onPlane = cursorPlane.map { frame.drawCursor(into: $0.pixels, size: $0.size, stride: $0.stride) } ?? false
        if let scanout = frame.scanout, frame.cursorBounds == nil || onPlane, card.session.isActive, let client = clientFramebuffer(scanout.files) {
            if let cursorPlane { moveCursor(cursorPlane, to: onPlane ? frame.cursorBounds : nil) }
            if show(.client(client, scanout), torn: tears(frame)) {
                // Both composed buffers miss this frame; the next composed one catches up.
                for buffer in buffers { buffer.history.miss(frame.damage) }
                if !scanningOut { card.logger.info("\(description.name): showing a client's buffer as it is (direct scanout, no composition)") }
                scanningOut = true
                return
            }
        }
        if scanningOut { card.logger.info("\(description.name): composing again") }
        scanningOut = false
        let back = buffers[1 - front]
        back.draw(frame, back.history.catchUp(with: frame.damage), withCursor: !onPlane)
        buffers[front].history.miss(frame.damage)
        if let cursorPlane, card.session.isActive { moveCursor(cursorPlane, to: onPlane ? frame.cursorBounds : nil) }
        guard card.session.isActive else {
            // Away from our VT: no master, nothing to show until the seat comes back.
            waiting = true
            return
        }
        show(.composed(1 - front), torn: tears(frame))
    }

    /// Whether `frame` is flipped to between vertical blanks: its full-screen client asks
    /// (`OutputFrame.torn`) and the driver can. The log says once what came of the first ask.
    private func tears(_ frame: OutputFrame) -> Bool {
        guard frame.torn else { return false }
        let can = card.flipsAsync && !asyncRefused
        if !tornSaid {
            tornSaid = true
            card.logger.info(can ? "\(description.name): a full-screen client asks to be shown torn: its frames are flipped to at once (async page flips)"
                : "\(description.name): a full-screen client asks to be shown torn; the driver flips only at vertical blanks (no DRM_CAP_ASYNC_PAGE_FLIP), so its frames wait for them")
        }
        return can
    }

    /// The client buffer's framebuffer on this card, imported the first time it is whole
    /// frame; nil when the card refuses it (said once per buffer).
    private func clientFramebuffer(_ files: DmabufFiles) -> ClientFramebuffer? {
        clientFramebuffers.removeAll { $0.files == nil }
        if let known = clientFramebuffers.first(where: { $0.files === files }) { return known.refusal == nil ? known : nil }
        let made = ClientFramebuffer(files: files, card: card.fd)
        clientFramebuffers.append(made)
        if let refusal = made.refusal { card.logger.info("\(description.name): a full-screen client buffer is composed, not scanned out: \(refusal)") }
        return made.refusal == nil ? made : nil
    }

    /// Shows the plane's cursor at `bounds` (output pixels), or hides it.
    private func moveCursor(_ plane: DumbBuffer, to bounds: Rect?) {
        guard let bounds else {
            if cursorShown { drmModeSetCursor(card.fd, crtc, 0, 0, 0) }
            cursorShown = false
            return
        }
        // Set each time: the image may have changed, and the driver copies it then.
        drmModeSetCursor(card.fd, crtc, plane.handle, UInt32(plane.size.width), UInt32(plane.size.height))
        drmModeMoveCursor(card.fd, crtc, Int32(clamping: bounds.x), Int32(clamping: bounds.y))
        cursorShown = true
    }

    /// Puts `shown` on screen: a modeset when the CRTC is not ours yet, else a page flip
    /// whose event says when it is there (`torn`: at once, not at the next vertical blank).
    /// A client's buffer the card will not show is refused (false), and the caller composes
    /// instead.
    @discardableResult
    private func show(_ shown: Shown, torn: Bool = false) -> Bool {
        let framebuffer = switch shown {
        case .composed(let index): buffers[index].framebuffer
        case .client(let client, _): client.framebuffer
        }
        if needsModeset {
            var connector = self.connector
            var mode = self.mode
            guard drmModeSetCrtc(card.fd, crtc, framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
                return refuse(shown, "cannot set the mode") { card.presentLater(self) }
            }
            needsModeset = false
            card.logger.debug("\(description.name): mode \(mode.hdisplay)x\(mode.vdisplay)@\(mode.vrefresh) set on CRTC \(crtc)")
            landed(shown)
            // A modeset has no event: the frame counts as shown at the next turn of the loop.
            card.presentLater(self)
            return true
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if torn {
            if drmModePageFlip(card.fd, crtc, framebuffer, tactile_drm_page_flip_event | tactile_drm_page_flip_async, me) == 0 {
                flipPending = true
                flipIsAsync = true
                pending = shown
                return true
            }
            // Drivers that flip async in general may still refuse a given flip (another
            // format or tiling): from now on every frame waits for a vertical blank.
            asyncRefused = true
            card.logger.info("\(description.name): the driver refused an async page flip (\(String(cString: strerror(errno)))): torn frames are shown at vertical blanks from now on")
        }
        guard drmModePageFlip(card.fd, crtc, framebuffer, tactile_drm_page_flip_event, me) == 0 else {
            return refuse(shown, "page flip failed") {
                card.logger.warning("\(description.name): setting the mode again")
                needsModeset = true
                card.presentLater(self)
            }
        }
        flipPending = true
        flipIsAsync = false
        pending = shown
        return true
    }

    /// After a modeset or flip of `shown` failed with errno: a client's buffer is refused
    /// from now on (false, and it is composed); for a composed buffer, `otherwise` runs.
    private func refuse(_ shown: Shown, _ what: String, otherwise: () -> Void) -> Bool {
        let reason = "\(what): \(String(cString: strerror(errno)))"
        if case .client(let client, _) = shown {
            client.refuse(reason)
            card.logger.info("\(description.name): a full-screen client buffer is composed, not scanned out: \(reason)")
            return false
        }
        card.logger.error("\(description.name): \(reason)")
        otherwise()
        return false
    }

    /// `shown` is on screen: a composed buffer becomes the front, and a client's buffer
    /// shown before goes back to its client.
    private func landed(_ shown: Shown) {
        switch shown {
        case .composed(let index):
            front = index
            scannedOut = nil
        case .client(let client, let scanout):
            scannedOut = (client, scanout)
        }
    }

    /// The flip's vblank came: what it showed is on screen.
    func flipped(_ frame: PresentedFrame) {
        guard flipPending else { return }
        flipPending = false
        if let pending { landed(pending) }
        pending = nil
        var shown = frame
        // Shown when it came, not at a vertical blank: wp_presentation says it tore.
        if flipIsAsync { shown.flags.remove(.vsync) }
        answer(shown)
    }

    /// Tells the server the frame it asked for is on screen, if it asked for one.
    func answer(_ frame: PresentedFrame) {
        guard owed, let id else { return }
        owed = false
        card.host.outputPresented(id, frame)
    }

    /// New buffers of the mode's size; the next frame sets the mode. The old buffers go with
    /// their framebuffers (the screen is dark until that frame); a flip still pending on
    /// them completes and is answered as any other.
    func setMode(_ wanted: OutputMode) -> OutputDescription? {
        let name = description.name
        guard let info = modes.first(where: {
            Int($0.hdisplay) == wanted.size.width && Int($0.vdisplay) == wanted.size.height && Int32($0.vrefresh) * 1000 == wanted.refresh
        }) else {
            card.logger.warning("\(name): the connector has no mode \(wanted.size.width)x\(wanted.size.height)@\(wanted.refresh / 1000)")
            return nil
        }
        guard let (buffers, _) = card.scanoutBuffers(size: wanted.size) else {
            card.logger.error("\(name): no framebuffer of \(wanted.size.width)x\(wanted.size.height) for the new mode: \(String(cString: strerror(errno))); it keeps \(mode.hdisplay)x\(mode.vdisplay)")
            return nil
        }
        self.buffers = buffers
        front = 0
        mode = info
        needsModeset = true
        description.pixelSize = wanted.size
        description.refresh = wanted.refresh
        card.logger.info("\(name): switching to \(info.hdisplay)x\(info.vdisplay)@\(info.vrefresh)")
        return description
    }

    /// Off: the CRTC goes dark, its cursor with it. On: the next frame sets the mode again.
    func setEnabled(_ enabled: Bool) {
        self.enabled = enabled
        needsModeset = true
        guard !enabled else { return }
        owed = false
        waiting = false
        cursorShown = false
        scannedOut = nil
        if card.session.isActive { drmModeSetCrtc(card.fd, crtc, 0, 0, 0, nil, 0, nil) }
    }

    /// The panel sleeps or wakes through the connector's DPMS property (the kernel turns
    /// the CRTC off and on; sysfs `dpms` reads Off and On). Awake again, the next frame
    /// sets the mode, as after a VT switch. A flip in flight when it sleeps still completes.
    func setPower(_ on: Bool) {
        poweredOn = on
        if on { needsModeset = true }
        guard card.session.isActive else { return }
        guard let dpms = DRMCard.property("DPMS", of: connector, fd: card.fd) else {
            return card.logger.warning("\(description.name): the connector has no DPMS property; the panel is \(on ? "lit by the next frame" : "left as it is")")
        }
        if drmModeConnectorSetProperty(card.fd, connector, dpms.id, UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)) != 0 {
            card.logger.error("\(description.name): setting DPMS \(on ? "on" : "off") failed: \(String(cString: strerror(errno)))")
        }
    }

    /// The seat went away (false) or came back (true). Back: the mode is set again with the
    /// newest frame, which completes the frame callbacks that waited.
    func sessionChanged(active: Bool) {
        guard active, enabled, poweredOn else { return }
        needsModeset = true
        flipPending = false
        pending = nil
        if waiting {
            waiting = false
            show(.composed(1 - front))
            return
        }
        if let (client, scanout) = scannedOut, show(.client(client, scanout)) { return }
        show(.composed(front))
    }

    /// The screen was unplugged: its CRTC goes dark and nothing more is shown or answered.
    func turnOff() {
        owed = false
        flipPending = false
        scannedOut = nil
        guard card.session.isActive else { return }
        drmModeSetCrtc(card.fd, crtc, 0, 0, 0, nil, 0, nil)
    }

    /// Puts the console's CRTC back as Tactile found it, without our cursor.
    func restore() {
        guard let saved, card.session.isActive else { return }
        if cursorPlane != nil { drmModeSetCursor(card.fd, crtc, 0, 0, 0) }
        var connector = self.connector
        var mode = saved.pointee.mode
        let valid = saved.pointee.mode_valid != 0
        withUnsafeMutablePointer(to: &mode) { mode in
            _ = drmModeSetCrtc(card.fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y, &connector, 1,
                               valid ? mode : nil)
        }
    }

    deinit { if let saved { drmModeFreeCrtc(saved) } }
}
