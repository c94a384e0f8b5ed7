import CWaylandServer
import Glibc
import Responder

/// What a host that embeds the server needs beyond a listening socket: the WLCS integration
/// connects clients over socket pairs and places their windows; gesture actions move focus
/// between windows and close them.
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
        clients.bySocket[fds[1]] = client
        return fds[1]
    }

    /// Moves the toplevel whose wl_surface has protocol id `surfaceID`, for the client that
    /// connected through `clientSocket`, to a global position. False when there is no such
    /// toplevel.
    @discardableResult
    public func moveToplevel(clientSocket: Int32, surfaceID: UInt32, to position: Position) -> Bool {
        // The client may have gone: its pointer is compared, never followed, until it is found live.
        guard let client = clients.bySocket[clientSocket], clients.byID.values.contains(where: { $0.client == client }) else { return false }
        return placeToplevel(wl_client_get_object(client, surfaceID), at: position)
    }

    /// Raises the window the policy picks (the bottom-most, by default) and focuses it: the
    /// focus-next gesture action.
    public func focusNextWindow() { parts.windows.focusNextWindow() }

    /// Asks the window holding keyboard focus to close: the close-focused gesture action.
    public func closeFocusedWindow() { parts.windows.closeFocusedWindow() }

    /// Who hears of the configured gestures' events (weak: the host owns it).
    public var gestureDelegate: (any GestureDelegate)? {
        get { parts.gestures.delegate }
        set { parts.gestures.delegate = newValue }
    }
}
