import CWaylandServer
import Glibc
import Responder

/// Clients a host connects itself (WLCS's, and Xwayland's): made over a socket pair, then
/// named by the host's end of it.
extension WaylandServer {
    /// Creates a client on one end of a new socket pair and returns the other end, for the
    /// client to connect with; nil if the system refuses.
    func connectClientSocket() -> Int32? {
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
    func moveToplevel(clientSocket: Int32, surfaceID: UInt32, to position: Position) -> Bool {
        // The client may have gone: its pointer is compared, never followed, until it is found live.
        guard let client = clients.bySocket[clientSocket], clients.byID.values.contains(where: { $0.client == client }) else { return false }
        return placeToplevel(wl_client_get_object(client, surfaceID), at: position)
    }

    /// Manages the X windows of an Xwayland the host started: `windowManagerSocket` is the
    /// other end of its `-wm` fd (taken over), `clientSocket` the end of its Wayland
    /// connection that `connectClientSocket` returned. `ended` hears why the window manager's
    /// connection ended (Xwayland exited, or refused it), unless the server stopped it.
    /// False when `clientSocket` names no client the server connected.
    func manageX11(windowManagerSocket: Int32, clientSocket: Int32, ended: @escaping (String) -> Void) -> Bool {
        guard let client = clients.bySocket[clientSocket], clients.byID.values.contains(where: { $0.client == client }) else {
            close(windowManagerSocket)
            return false
        }
        parts.xWindowManager.manage(socket: windowManagerSocket, xwayland: client, ended: ended)
        if let state = ClientState.of(client), state.isXwayland { xwaylandRecognized(state.id) }
        return true
    }
}
