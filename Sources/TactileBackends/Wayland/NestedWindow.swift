import CWaylandClient
import CWaylandServer
import Responder
import TactileRender
import TactileWayland
import WaylandProtocols

/// One output's window in the parent: an xdg_toplevel whose buffers (dmabufs or wl_shm,
/// `NestedBuffer`) show the output's frames.
///
/// Two buffers take turns (one the parent shows, one we draw into); each catches up on the
/// damage it missed while the other was in use. The parent's frame callback paces the
/// output, as a vblank would.
final class NestedWindow {
    unowned let backend: WaylandBackend
    let surface: OpaquePointer
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    /// Set once the output is announced, which waits for the first configure.
    var output: OutputID?
    var description: OutputDescription
    /// The size of the last xdg_toplevel.configure, clamped; nil when the parent left it to us.
    private var configuredSize: Size?
    /// The first configure came (and was acked): buffers may be attached.
    private(set) var configured = false
    /// A configure for a new size, acked with the first commit of a frame that size.
    private var pendingAck: UInt32?
    private var buffers: [any NestedBuffer] = []
    /// Buffers of an old size the parent still held when the size changed: each goes when
    /// the parent releases it.
    private var retired: [any NestedBuffer] = []
    /// Attaching is needed even without damage: the parent has not seen a buffer of the
    /// current size yet, or the last frame found no buffer free.
    private var needsAttach = true
    private var frameCallback: OpaquePointer?
    /// The frame in flight is shown when the parent's frame callback has come and, where
    /// the parent offers wp_presentation in our clock, its presentation feedback too: then
    /// the output's frame was shown when the parent showed it, not when we heard.
    private var callbackDone = false
    private var feedback: OpaquePointer?
    private var presented: PresentedFrame?

    /// The largest side a window may have: what a parent asks beyond it is clamped (a
    /// buffer this big is already 1 GiB).
    static let maximumSide = 16384

    init(backend: WaylandBackend, title: String, size: Size, fullscreen: Bool, name: String) {
        self.backend = backend
        let globals = backend.globals
        surface = wl_compositor_create_surface(globals.compositor)!
        xdgSurface = xdg_wm_base_get_xdg_surface(globals.wmBase, surface)!
        toplevel = xdg_surface_get_toplevel(xdgSurface)!
        description = OutputDescription(
            name: name, description: "Tactile nested window \(name)", make: "Tactile", model: "nested", pixelSize: size,
            physicalSize: Self.physicalSize(of: size)
        )
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, NestedListeners.xdgSurface, me)
        xdg_toplevel_add_listener(toplevel, NestedListeners.toplevel, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, "tactile")
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        // The initial commit, without a buffer, asks the parent for the first configure.
        wl_surface_commit(surface)
    }

    deinit {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let feedback { wp_presentation_feedback_destroy(feedback) }
        buffers.removeAll()
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    /// A 96 dpi guess; clients only use it for DPI hints.
    static func physicalSize(of size: Size) -> Size {
        Size(width: Int(Double(size.width) * 25.4 / 96), height: Int(Double(size.height) * 25.4 / 96))
    }

    /// A side the parent asked for, within what a buffer can be; nil for "you choose" (0)
    /// or nonsense (negative).
    static func clamped(_ width: Int32, _ height: Int32) -> Size? {
        guard width > 0, height > 0 else { return nil }
        return Size(width: min(Int(width), maximumSide), height: min(Int(height), maximumSide))
    }

    // MARK: Configure

    func toplevelConfigured(width: Int32, height: Int32) {
        configuredSize = Self.clamped(width, height)
    }

    /// The end of a configure sequence. The first (and any before the output is announced)
    /// is acked at once: the output is then made at its size. A later one that changes the size resizes the output, and is acked with
    /// the first commit of a frame that size, as xdg_surface.ack_configure wants; one that
    /// arrives while such an ack waits replaces it (only the latest need be acked).
    func surfaceConfigured(serial: UInt32) {
        guard configured, let output else {
            configured = true
            if let configuredSize { resize(to: configuredSize) }
            xdg_surface_ack_configure(xdgSurface, serial)
            return
        }
        let size = configuredSize ?? description.pixelSize
        if size != description.pixelSize {
            resize(to: size)
            backend.logger.info("the parent resized \(description.name) to \(size.width)x\(size.height)")
            backend.host.updateOutput(output, description)
            pendingAck = serial
        } else if pendingAck != nil {
            pendingAck = serial
        } else {
            xdg_surface_ack_configure(xdgSurface, serial)
        }
    }

    private func resize(to size: Size) {
        description.pixelSize = size
        description.physicalSize = Self.physicalSize(of: size)
    }

    // MARK: Frames

    /// Maps the window at once, black (a new memfd is zeros), so the parent shows it and
    /// sends it input before the first frame is composed. That frame is still attached in
    /// full: this buffer's pixels are not the output's.
    func mapBlack() {
        reallocate(description.pixelSize)
        guard let buffer = buffers.first, let proxy = buffer.proxy else { return }
        wl_surface_attach(surface, proxy, 0, 0)
        damage(Rect(size: buffer.size))
        buffer.busy = true
        wl_surface_commit(surface)
    }

    /// Shows `frame`: its damage, and whatever the chosen buffer missed, copied in and
    /// committed with a frame callback; without damage, only the frame callback (nothing
    /// is redrawn). The callback answers `outputPresented`.
    func present(_ frame: OutputFrame) {
        // Outputs are announced once configured, so a frame always finds the window configured.
        if frame.size.width > 0, frame.size.height > 0 {
            if buffers.first?.size != frame.size { reallocate(frame.size) }
            if !frame.damage.isEmpty || needsAttach { draw(frame) }
        }
        if feedback == nil, backend.globals.presentsInOurClock, let presentation = backend.globals.presentation {
            feedback = wp_presentation_feedback(presentation, surface)
            wp_presentation_feedback_add_listener(feedback, NestedListeners.feedback, Unmanaged.passUnretained(self).toOpaque())
        }
        if frameCallback == nil {
            frameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(frameCallback, NestedListeners.frameDone, Unmanaged.passUnretained(self).toOpaque())
        }
        if let serial = pendingAck, frame.size == description.pixelSize {
            xdg_surface_ack_configure(xdgSurface, serial)
            pendingAck = nil
        }
        wl_surface_commit(surface)
    }

    private func draw(_ frame: OutputFrame) {
        guard let buffer = freeBuffer(), let proxy = buffer.proxy else {
            // The parent holds every buffer: each misses this damage and the next frame attaches.
            for buffer in buffers { buffer.history.miss(frame.damage) }
            needsAttach = true
            return
        }
        let rects = buffer.history.catchUp(with: frame.damage)
        buffer.draw(frame, rects)
        for other in buffers where other !== buffer { other.history.miss(frame.damage) }
        wl_surface_attach(surface, proxy, 0, 0)
        for rect in rects { damage(rect) }
        buffer.busy = true
        needsAttach = false
    }

    private func damage(_ rect: Rect) {
        let (x, y, w, h) = (Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        if backend.globals.compositorVersion >= 4 { wl_surface_damage_buffer(surface, x, y, w, h) } else { wl_surface_damage(surface, x, y, w, h) }
    }

    /// A buffer the parent does not hold; a third (at most) when it holds both, as a parent
    /// may keep the shown buffer until the next is latched.
    private func freeBuffer() -> (any NestedBuffer)? {
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < 3, let size = buffers.first?.size, let added = makeBuffer(size) else { return nil }
        buffers.append(added)
        return added
    }

    /// Buffers of a new size, which have missed everything; old ones the parent still holds
    /// go when it releases them.
    private func reallocate(_ size: Size) {
        retired += buffers.filter(\.busy)
        buffers.removeAll()
        needsAttach = true
        for _ in 0..<2 {
            guard let buffer = makeBuffer(size) else {
                backend.logger.error("no memory for a \(size.width)x\(size.height) buffer of \(description.name)")
                continue
            }
            buffers.append(buffer)
        }
    }

    /// A dmabuf where the parent takes them, else wl_shm memory. The first dmabuf the parent
    /// (or GBM, or the renderer) refuses turns dmabufs off for the backend.
    private func makeBuffer(_ size: Size) -> (any NestedBuffer)? {
        var made: (any NestedBuffer)?
        if let dmabuf = backend.parentDmabuf {
            switch dmabuf.makeBuffer(size: size, renderer: backend.host.renderer) {
            case .success(let buffer): made = buffer
            case .failure(let refusal):
                backend.logger.warning("\(description.name): \(refusal); its frames go to the parent in wl_shm buffers from now on")
                backend.parentDmabuf = nil
            }
            // The round trip may have read the window's own events: they are handled next.
            backend.dispatchSoon()
        }
        if made == nil, let shm = backend.globals.shm { made = ShmBuffer(shm: shm, size: size) }
        guard let made, let proxy = made.proxy else { return nil }
        wl_buffer_add_listener(proxy, NestedListeners.bufferRelease, Unmanaged.passUnretained(self).toOpaque())
        return made
    }

    func released(_ proxy: OpaquePointer?) {
        if let buffer = buffers.first(where: { $0.proxy == proxy }) { buffer.busy = false }
        retired.removeAll { $0.proxy == proxy }
    }

    /// The parent's frame callback: the output's frame is on its screen.
    func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        callbackDone = true
        frameShown()
    }

    /// The parent's presentation feedback: when it showed the frame, or nil when it did not
    /// (a later commit replaced it, the window is hidden).
    func feedbackEnded(_ frame: PresentedFrame?) {
        if let feedback { wp_presentation_feedback_destroy(feedback) }
        feedback = nil
        presented = frame
        frameShown()
    }

    private func frameShown() {
        guard callbackDone, feedback == nil else { return }
        callbackDone = false
        let frame = presented ?? PresentedFrame(time: backend.host.currentTime)
        presented = nil
        if let output { backend.host.outputPresented(output, frame) }
    }
}
