import CWaylandServer
import Responder
import TactileRender
import WaylandProtocols

/// ext_image_copy_capture_manager_v1 (version 1): the successor of wlr-screencopy. A session
/// copies an output (its composed frame, as screencopy does) or one window (its surfaces
/// composed alone, so what covers it is not in the copy) into the client's shm buffers, or
/// its dmabufs where the renderer draws into them;
/// each frame says what changed since the session's previous one, and waits for a change
/// when nothing did. Cursor sessions follow the pointer's cursor over a source, and copy its
/// image. Privileged as screencopy is (screen capture).
final class ImageCopyCapture: ServerPart, WindowListing, FrameReader {
    static let version: Int32 = 1
    private unowned(unsafe) let context: any PartContext
    private let renderer: any Renderer
    /// Asks for a repaint, which fulfils the frames waiting (composition follows it).
    private let repaint: Signal<Void>
    /// Every live session, to hear of changes and of its target going.
    private var sessions: [WeakSession] = []
    private var cursorSessions: [WeakCursorSession] = []
    /// The cursor drawn at the last repaint: its image, the global point of its hotspot, and
    /// the hotspot within the image (buffer pixels).
    private var cursor: (image: Image, position: Point, hotspot: Position, frame: Rect)?
    /// Frames whose client sent capture, waiting for a repaint.
    private var waiting: [CaptureFrame] = []
    private var global: Global?

    private struct WeakSession { weak var session: CaptureSession? }
    private struct WeakCursorSession { weak var session: CursorCaptureSession? }

    init(display: OpaquePointer, context: any PartContext, renderer: any Renderer, repaint: Signal<Void>) {
        self.context = context
        self.renderer = renderer
        self.repaint = repaint
        global = Global(display: display, interface: tactile_ext_image_copy_capture_manager_v1_interface(), version: Self.version,
                        context: self, requests: Self.requests, privilege: .screenCapture)
    }

    private var live: [CaptureSession] {
        sessions.removeAll { $0.session?.resource == nil }
        return sessions.compactMap(\.session)
    }

    /// The buffer size a session on `target` fills: the output's frame, the window's surface
    /// at scale 1, or the cursor image; nil once it is gone (or while no cursor is shown).
    func size(of target: CaptureTarget) -> Size? {
        if target.isCursor { return cursor?.image.size }
        if target.isWindow { return windowFrame(target).map(\.size) }
        return target.output?.placed.description.pixelSize
    }

    /// The window's main surface, globally.
    private func windowFrame(_ target: CaptureTarget) -> Rect? {
        guard let node = target.window?.windowSurface?.node else { return nil }
        return context.scene.absoluteFrame(of: node)
    }

    /// The clients' GPU buffers the renderer draws into, if any.
    var dmabuf: DmabufSupport? { renderer.dmabuf }

    /// A client's dmabuf as something a canvas draws into, for one copy; nil when the GPU
    /// refuses it.
    func renderTarget(_ attributes: DmabufAttributes) -> (any RenderTarget)? { renderer.makeTarget(attributes) }

    func wait(_ frame: CaptureFrame) {
        waiting.append(frame)
        repaint.send()
    }

    // MARK: What changes

    /// `output` was repainted (`damage` in its canvas pixels): its sessions note the change,
    /// and its frames waiting for one are copied.
    func repainted(_ output: Output, canvas: any Canvas, damage: [Rect], cursor: DrawItem?, time: Instant) {
        // Most frames are composed with no capture under way.
        guard !sessions.isEmpty || !waiting.isEmpty else { return }
        for session in live where session.target.output === output && !session.target.isCursor { session.changed(damage, within: canvas.size) }
        take { $0.session.target.output === output && !$0.session.target.isCursor }.forEach { frame in
            frame.fulfil(transform: output.placed.description.transform, time: time) { destination in
                Self.write(canvas, to: destination, overlay: frame.session.paintsCursors ? cursor : nil)
            }
        }
    }

    /// After every output's repaint: cursor sessions hear where the cursor is, and frames of
    /// cursors and windows waiting for a change are made (windows composed alone).
    func repaintEnded(cursor: (content: SurfaceContent, frame: Rect)?, time: Instant) {
        cursorChanged(cursor)
        guard !waiting.isEmpty else { return }
        take { $0.session.target.isCursor && self.cursor != nil }.forEach { frame in
            guard let image = self.cursor?.image else { return frame.fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_UNKNOWN) }
            frame.fulfil(transform: .normal, time: time) { destination in
                guard case .memory(let buffer, let format, _, let stride) = destination else { return false }
                return image.write(into: buffer, format: format, stride: stride)
            }
        }
        take { $0.session.target.isWindow && !$0.session.target.isCursor }.forEach { frame in
            guard let window = windowFrame(frame.session.target), let canvas = renderer.makeCanvas(size: window.size) else {
                return frame.fail(EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_UNKNOWN)
            }
            let placement = CanvasPlacement(rect: window, scale: 1, transform: .normal, pixelSize: window.size, turn: nil)
            let items = surfaces(of: frame.session.target).compactMap { surface, rect in
                surface.content.flatMap { placement.drawItem($0, frame: rect, opaque: surface.current.opaqueRegion, opacity: surface.current.opacity) }
            }
            canvas.render(items, damage: [Rect(size: window.size)])
            let overlay = frame.session.paintsCursors ? cursor.flatMap { placement.drawItem($0.content, frame: $0.frame, opaque: .empty) } : nil
            frame.fulfil(transform: .normal, time: time) { destination in Self.write(canvas, to: destination, overlay: overlay) }
        }
    }

    /// The whole canvas, with `overlay` over it, into a frame's buffer.
    private static func write(_ canvas: any Canvas, to destination: CaptureFrame.Destination, overlay: DrawItem?) -> Bool {
        switch destination {
        case .memory(let buffer, let format, let size, let stride):
            canvas.write(Rect(size: size), into: buffer, format: format, size: size, stride: stride, at: .zero, overlay: overlay)
            return true
        case .gpu(let target):
            return canvas.write([Rect(size: canvas.size)], into: target, overlay: overlay)
        }
    }

    /// The cursor drawn now: a new image is news to cursor capture sessions (which say its
    /// size when it changed); each cursor session hears where it is over its source.
    private func cursorChanged(_ drawn: (content: SurfaceContent, frame: Rect)?) {
        let before = self.cursor
        cursor = drawn.flatMap { content, frame in
            guard let position = context.focus.pointerPosition ?? context.focus.pen?.position else { return nil }
            let image = content.image
            let (sx, sy) = (Double(image.size.width) / Double(max(1, content.size.width)), Double(image.size.height) / Double(max(1, content.size.height)))
            let hotspot = Position(x: Int((position.x - Double(frame.x)) * sx), y: Int((position.y - Double(frame.y)) * sy))
            return (image, position, hotspot, frame)
        }
        if cursor?.image !== before?.image || cursor?.image.generation != before?.image.generation {
            for session in live where session.target.isCursor {
                session.describe()
                if cursor != nil { session.changed([Rect(size: cursor!.image.size)], within: cursor!.image.size) }
            }
        }
        cursorSessions.removeAll { $0.session?.resource == nil }
        for weak in cursorSessions {
            guard let session = weak.session else { continue }
            session.update(cursor.flatMap { cursor in hotspot(cursor.position, cursor.frame, over: session.target).map { (position: $0, hotspot: cursor.hotspot) } })
        }
    }

    /// The cursor's hotspot in `target`'s buffer pixels, when the cursor image is over it.
    private func hotspot(_ position: Point, _ frame: Rect, over target: CaptureTarget) -> Position? {
        if target.isWindow {
            guard let window = windowFrame(target), !window.intersection(frame).isEmpty else { return nil }
            return Position(x: Int((position.x - Double(window.x)).rounded(.down)), y: Int((position.y - Double(window.y)).rounded(.down)))
        }
        guard let output = target.output, !output.placed.rect.intersection(frame).isEmpty else { return nil }
        return output.placement.canvasPosition(of: position)
    }

    /// The frames `due` says, whose session has something new (or has had no frame yet);
    /// taken off the waiting list.
    private func take(_ due: (CaptureFrame) -> Bool) -> [CaptureFrame] {
        waiting.removeAll { $0.resource == nil || $0.session.isStopped }
        var taken: [CaptureFrame] = []
        waiting.removeAll { frame in
            guard due(frame), frame.session.hasNews else { return false }
            taken.append(frame)
            return true
        }
        return taken
    }

    /// A window's surfaces bottom to top (its subsurfaces below it, it, those above), with
    /// their global frames: drawn whether or not the window is shown, covered or minimized.
    private func surfaces(of target: CaptureTarget) -> [(Surface, Rect)] {
        guard let root = target.window?.windowSurface?.node else { return [] }
        let scene = context.scene
        var result: [(Surface, Rect)] = []
        func visit(_ id: NodeID) {
            guard let node = scene.node(id), node.isMapped, id == root || !node.isHidden else { return }
            let (below, above) = scene.children(of: id)
            for child in below { visit(child) }
            if let surface = context.surface(at: id), let frame = scene.absoluteFrame(of: id) { result.append((surface, frame)) }
            for child in above { visit(child) }
        }
        visit(root)
        return result
    }

    /// A surface committed new content: sessions on its window have news.
    /// Every commit comes here: nothing is looked up while no window is being captured.
    func surfaceDamaged(_ surface: Surface) {
        let windowSessions = live.filter { $0.target.isWindow && !$0.target.isCursor }
        guard !windowSessions.isEmpty, let node = surface.node, let window = context.scene.toplevel(containing: node) else { return }
        for session in windowSessions where session.target.window?.windowSurface?.node == window {
            let size = size(of: session.target) ?? .zero
            session.changed([Rect(size: size)], within: size)
        }
        if waiting.contains(where: { $0.session.target.isWindow }) { repaint.send() }
    }

    /// A session on `target`, told its buffer constraints (or stopped at once, its target gone).
    func makeSession(_ client: OpaquePointer, id: UInt32, version: Int32, target: CaptureTarget, paintsCursors: Bool) {
        let session = CaptureSession(part: self, target: target, paintsCursors: paintsCursors)
        guard session.bind(client: client, interface: tactile_ext_image_copy_capture_session_v1_interface(), version: version, id: id,
                           implementation: CaptureSession.requests) else { return }
        sessions.append(WeakSession(session: session))
        session.describe()
    }

    // MARK: Targets going

    func mapped(_ toplevel: ListedWindow) {}
    func changed(_ toplevel: ListedWindow) {}

    /// A window unmapped or went: its sessions stop.
    func closed(_ toplevel: ListedWindow) {
        for session in live where session.target.window === toplevel { session.stop() }
    }

    /// An output went: its sessions stop.
    func outputWithdrawn(_ output: Output) {
        for session in live where session.target.output === output { session.stop() }
    }

    /// A window may have been resized: its sessions say the new buffer size.
    func layoutChanged() {
        for session in live { session.describe() }
    }

    fileprivate static let requests = RequestTable(ext_image_copy_capture_manager_v1_interface(
        create_session: { client, manager, id, sourceResource, options in
            guard let client, let manager, let part = Global.context(of: manager, as: ImageCopyCapture.self) else { return }
            guard options & ~EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_OPTIONS_PAINT_CURSORS.rawValue == 0 else {
                return tactile_post_error(manager, EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_ERROR_INVALID_OPTION.rawValue,
                                          "options \(options): only paint_cursors (1) is defined")
            }
            part.makeSession(client, id: id, version: wl_resource_get_version(manager),
                             target: CaptureSource.from(sourceResource)?.target ?? .output(nil), paintsCursors: options != 0)
        },
        create_pointer_cursor_session: { client, manager, id, sourceResource, _ in
            // The seat has one pointer: whichever wl_pointer the client names, it is that one's cursor.
            guard let client, let manager, let part = Global.context(of: manager, as: ImageCopyCapture.self) else { return }
            let session = CursorCaptureSession(part: part, target: CaptureSource.from(sourceResource)?.target ?? .output(nil))
            guard session.bind(client: client, interface: tactile_ext_image_copy_capture_cursor_session_v1_interface(),
                               version: wl_resource_get_version(manager), id: id, implementation: CursorCaptureSession.requests) else { return }
            part.cursorSessions.append(WeakCursorSession(session: session))
            part.repaint.send()
        },
        destroy: destroyResource
    ))
}

/// What composition tells the readers of its frames (screencopy, image copy capture).
protocol FrameReader: AnyObject {
    /// `output` was repainted: `damage` in its canvas pixels (empty: nothing changed).
    func repainted(_ output: Output, canvas: any Canvas, damage: [Rect], cursor: DrawItem?, time: Instant)
    /// Every output was repainted; `cursor` is the cursor drawn, globally.
    func repaintEnded(cursor: (content: SurfaceContent, frame: Rect)?, time: Instant)
    /// A surface committed content.
    func surfaceDamaged(_ surface: Surface)
}

extension FrameReader {
    func repaintEnded(cursor: (content: SurfaceContent, frame: Rect)?, time: Instant) {}
    func surfaceDamaged(_ surface: Surface) {}
}
