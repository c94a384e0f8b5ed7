import CWaylandServer
import Glibc
import Responder

/// What a host that embeds the server needs beyond a listening socket: the WLCS integration
/// connects clients over socket pairs, places their windows, and drives its own event loop
/// from ours.
extension WaylandServer {
    /// Creates a client on one end of a new socket pair and returns the other end, for the
    /// client to connect with; nil if the system refuses.
    public func connectClientSocket() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        guard let client = wl_client_create(display, fds[0]) else {
            close(fds[0])
            close(fds[1])
            return nil
        }
        socketClients[fds[1]] = client
        return fds[1]
    }

    /// Moves the toplevel whose wl_surface has protocol id `surfaceID`, for the client that
    /// connected through `clientSocket`, to a global position. False when there is no such
    /// toplevel.
    @discardableResult
    public func moveToplevel(clientSocket: Int32, surfaceID: UInt32, to position: Position) -> Bool {
        guard let client = socketClients[clientSocket], clients[client] != nil,
              let surface = Surface.from(wl_client_get_object(client, surfaceID)), let node = surface.node,
              router.scene.node(node)?.isToplevel == true else { return false }
        surface.placeWindow(at: position)
        return true
    }

    /// Calls `onReadable` on the server's thread whenever `fd` can be read, for as long as
    /// the returned watch is kept.
    public func watch(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> FileWatch {
        FileWatch(loop: loop, fd: fd, onReadable: onReadable)
    }
}

/// An fd watched on the server's loop. Releasing it removes the event source, which
/// libwayland does not free by itself, and the closure, which may reach its owner unowned.
public final class FileWatch {
    private let handler: Unmanaged<ReadableHandler>
    private let source: OpaquePointer?

    fileprivate init(loop: OpaquePointer, fd: Int32, onReadable: @escaping () -> Void) {
        handler = Unmanaged.passRetained(ReadableHandler(onReadable))
        source = wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE), { _, _, data in
            Unmanaged<ReadableHandler>.fromOpaque(data!).takeUnretainedValue().handler()
            return 0
        }, handler.toOpaque())
    }

    deinit {
        if let source { wl_event_source_remove(source) }
        handler.release()
    }
}

/// A closure kept alive for an fd watch.
private final class ReadableHandler {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}
