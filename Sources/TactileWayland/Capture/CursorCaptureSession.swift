import CWaylandServer
import Responder
import WaylandProtocols

/// ext_image_copy_capture_cursor_session_v1: the pointer's cursor over a source, for a screen
/// sharer that draws the cursor itself. It says when the cursor comes over the source and
/// leaves it, where its hotspot is in the source's buffer pixels, and the hotspot within the
/// cursor image; its capture session's frames are the cursor image.
final class CursorCaptureSession: ResourceObject {
    private unowned(unsafe) let part: ImageCopyCapture
    let target: CaptureTarget
    private var gaveSession = false
    /// What the client was last told: nil while the cursor is not over the source.
    private var told: (position: Position, hotspot: Position)?

    init(part: ImageCopyCapture, target: CaptureTarget) {
        self.part = part
        self.target = target
    }

    /// The cursor now (its hotspot in the source's buffer pixels, the hotspot within its
    /// image), or nil when it is not over the source: enter, leave, position and hotspot as
    /// they changed.
    func update(_ now: (position: Position, hotspot: Position)?) {
        guard let resource else { return }
        guard let now else {
            if told != nil { ext_image_copy_capture_cursor_session_v1_send_leave(resource) }
            told = nil
            return
        }
        if told == nil { ext_image_copy_capture_cursor_session_v1_send_enter(resource) }
        if told?.position != now.position { ext_image_copy_capture_cursor_session_v1_send_position(resource, Int32(clamping: now.position.x), Int32(clamping: now.position.y)) }
        if told?.hotspot != now.hotspot { ext_image_copy_capture_cursor_session_v1_send_hotspot(resource, Int32(clamping: now.hotspot.x), Int32(clamping: now.hotspot.y)) }
        told = now
    }

    private func captureSession(_ client: OpaquePointer, id: UInt32) {
        guard !gaveSession else {
            return postError(EXT_IMAGE_COPY_CAPTURE_CURSOR_SESSION_V1_ERROR_DUPLICATE_SESSION.rawValue, "the cursor session already gave its capture session")
        }
        gaveSession = true
        part.makeSession(client, id: id, version: version, target: target.cursor, paintsCursors: false)
    }

    static let requests = RequestTable(ext_image_copy_capture_cursor_session_v1_interface(
        destroy: destroyResource,
        get_capture_session: { client, resource, id in
            guard let client else { return }
            CursorCaptureSession.from(resource)?.captureSession(client, id: id)
        }
    ))
}
