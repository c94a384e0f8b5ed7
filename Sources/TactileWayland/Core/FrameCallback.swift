import CWaylandServer

/// A wl_callback from wl_surface.frame. Kept as an object rather than a raw resource because
/// the client may go away at any moment: libwayland then frees the resource, and whoever
/// still lists the callback (its surface, or the server waiting for the next frame) must see
/// that instead of writing to freed memory or destroying it a second time.
final class FrameCallback: ResourceObject {
    /// Sends `done` and destroys the callback, as the protocol wants; nothing for a callback
    /// whose client is gone.
    func complete(at milliseconds: UInt32) {
        guard let resource else { return }
        wl_callback_send_done(resource, milliseconds)
        wl_resource_destroy(resource)
    }

    /// Its surface went away before the callback was due: it is destroyed without `done`.
    func discard() {
        guard let resource else { return }
        wl_resource_destroy(resource)
    }
}
