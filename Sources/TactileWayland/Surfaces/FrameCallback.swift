import CWaylandServer

/// A wl_callback from wl_surface.frame. Kept as an object rather than a raw resource because
/// the client may go away at any moment: libwayland then frees the resource, and whoever
/// still lists the callback (its surface, or the server waiting for the next frame) must see
/// that instead of writing to freed memory or destroying it a second time.
final class FrameCallback: ResourceObject {
    /// The surface that asked for it, whose client's draw time decides when `done` goes
    /// (`ClientFrameClock`).
    weak var surface: Surface?

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

/// Frame callbacks done with, and the list that carried them, kept for the next frame's. A
/// client drawing on frame callbacks asks for one every frame; its object and the list it
/// travels in (surface, output, frame in flight) were two mallocs a frame. The list comes
/// back empty with its room, so one surface's callback goes round without allocating.
struct SpareFrameCallbacks {
    private var objects: [FrameCallback] = []
    private var list: [FrameCallback] = []
    private static let limit = 16

    /// A callback not bound to any resource.
    mutating func callback() -> FrameCallback {
        objects.popLast() ?? FrameCallback()
    }

    /// An empty list with room, for a surface's next callbacks.
    mutating func emptyList() -> [FrameCallback] {
        var taken: [FrameCallback] = []
        swap(&taken, &list)
        return taken
    }

    /// Takes `done`'s callbacks (completed or discarded) that nothing else holds, and its room.
    mutating func keep(_ done: inout [FrameCallback]) {
        for index in done.indices where objects.count < Self.limit && isKnownUniquelyReferenced(&done[index]) {
            objects.append(done[index])
        }
        done.removeAll(keepingCapacity: true)
        if list.capacity < done.capacity { swap(&list, &done) }
    }
}
