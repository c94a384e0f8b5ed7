import CWaylandClient

/// A wl_surface.frame callback a test asked for, and whether it is done.
final class RequestedFrame {
    private(set) var done = false
    /// How many times `done` came (the protocol sends it once).
    private(set) var doneCount = 0
    let proxy: OpaquePointer?
    /// The frame's time (wl_callback.done's milliseconds), once done.
    private(set) var time: UInt32?

    /// Asks for `surface`'s next frame (sent with its next commit).
    init(_ surface: OpaquePointer?) {
        proxy = wl_surface_frame(surface)
        wl_callback_add_listener(proxy, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<wl_callback_listener> = {
        let l = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        l.initialize(to: wl_callback_listener(done: { data, _, time in
            let frame = Unmanaged<RequestedFrame>.fromOpaque(data!).takeUnretainedValue()
            (frame.done, frame.time) = (true, time)
            frame.doneCount += 1
        }))
        return l
    }()
}
