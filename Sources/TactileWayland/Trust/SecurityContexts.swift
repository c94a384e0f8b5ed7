import CWaylandServer
import Glibc
import Logging
import WaylandProtocols

/// What a sandbox engine said about the clients of its listener (all optional).
struct SecurityContext {
    var engine: String?
    var appID: String?
    var instanceID: String?
}

/// wp_security_context_manager_v1: a sandbox engine (Flatpak) hands Tactile a listening
/// socket; Tactile accepts its connections itself, and every client that comes through it
/// carries the security context, which `PrivilegePolicy` refuses every privileged family
/// (this one included, so a sandbox cannot make another). The listener ends when the
/// engine's close_fd hangs up.
final class SecurityContexts: ServerPart {
    private var global: Global?
    fileprivate let display: OpaquePointer
    fileprivate let logger: Logger
    /// Listeners accepting connections, until their close_fd hangs up.
    fileprivate var listeners: [SandboxListener] = []

    init(display: OpaquePointer, logger: Logger) {
        self.display = display
        self.logger = logger
        global = Global(display: display, interface: tactile_wp_security_context_manager_v1_interface(), version: 1, context: self,
                        requests: Self.requests, privilege: .securityContext)
    }

    /// Removes the listeners' event sources before the loop goes.
    func stop() { listeners.removeAll() }

    private static let requests = RequestTable(wp_security_context_manager_v1_interface(
        destroy: destroyResource,
        create_listener: { client, manager, id, listenFD, closeFD in
            guard let client, let manager, let contexts = Global.context(of: manager, as: SecurityContexts.self) else {
                close(listenFD)
                close(closeFD)
                return
            }
            // Only a client without a security context sees the manager; this is its guard.
            guard ClientState.of(client)?.securityContext == nil else {
                close(listenFD)
                close(closeFD)
                return tactile_post_error(manager, WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_NESTED.rawValue, "a client with a security context made another")
            }
            guard isListeningStreamSocket(listenFD) else {
                close(listenFD)
                close(closeFD)
                return tactile_post_error(manager, WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue,
                                         "listen_fd is not a listening Unix stream socket")
            }
            let context = SecurityContextObject(contexts: contexts, listenFD: listenFD, closeFD: closeFD)
            _ = context.bind(client: client, interface: tactile_wp_security_context_v1_interface(), version: 1, id: id,
                             implementation: SecurityContextObject.requests)
        }
    ))

    private static func isListeningStreamSocket(_ fd: Int32) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value == 1 else { return false }
        var address = sockaddr_storage()
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) } }
        return named == 0 && address.ss_family == sa_family_t(AF_UNIX)
    }
}

/// wp_security_context_v1: the metadata, then `commit` starts the listener.
final class SecurityContextObject: ResourceObject {
    private unowned let contexts: SecurityContexts
    private var listenFD: Int32?
    private var closeFD: Int32?
    private var context = SecurityContext()

    init(contexts: SecurityContexts, listenFD: Int32, closeFD: Int32) {
        self.contexts = contexts
        self.listenFD = listenFD
        self.closeFD = closeFD
    }

    /// Before commit the fds are still ours: they close with the object.
    override func resourceDestroyed() {
        if let listenFD { close(listenFD) }
        if let closeFD { close(closeFD) }
        (listenFD, closeFD) = (nil, nil)
    }

    /// Sets one field once, before commit; the error otherwise.
    private func set(_ keyPath: WritableKeyPath<SecurityContext, String?>, _ value: UnsafePointer<CChar>?, _ resource: OpaquePointer?) {
        guard let resource else { return }
        guard listenFD != nil else {
            return tactile_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED.rawValue, "the security context was already committed")
        }
        guard context[keyPath: keyPath] == nil else {
            return tactile_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET.rawValue, "this field was already set")
        }
        context[keyPath: keyPath] = value.map { String(cString: $0) }
    }

    private func commit(_ resource: OpaquePointer?) {
        guard let resource else { return }
        guard let listenFD, let closeFD else {
            return tactile_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED.rawValue, "the security context was already committed")
        }
        (self.listenFD, self.closeFD) = (nil, nil)
        contexts.listeners.removeAll(where: \.ended)
        contexts.listeners.append(SandboxListener(contexts: contexts, listenFD: listenFD, closeFD: closeFD, context: context))
        contexts.logger.info("a sandbox listener for \(context.engine ?? "an unnamed engine")\(context.appID.map { " (\($0))" } ?? ""): its clients get no privileged global")
    }

    static let requests = RequestTable(wp_security_context_v1_interface(
        destroy: destroyResource,
        set_sandbox_engine: { _, resource, name in from(resource)?.set(\.engine, name, resource) },
        set_app_id: { _, resource, id in from(resource)?.set(\.appID, id, resource) },
        set_instance_id: { _, resource, id in from(resource)?.set(\.instanceID, id, resource) },
        commit: { _, resource in from(resource)?.commit(resource) }
    ))
}

/// A committed listener: each connection becomes a client with the security context.
final class SandboxListener {
    fileprivate unowned let contexts: SecurityContexts
    private let listenFD: Int32
    private let closeFD: Int32
    private let context: SecurityContext
    private var accepting: EventSource?
    private var closing: EventSource?
    private(set) var ended = false

    init(contexts: SecurityContexts, listenFD: Int32, closeFD: Int32, context: SecurityContext) {
        self.contexts = contexts
        self.listenFD = listenFD
        self.closeFD = closeFD
        self.context = context
        // A connection gone between readiness and accept must not block the loop.
        _ = fcntl(listenFD, F_SETFL, fcntl(listenFD, F_GETFL) | O_NONBLOCK)
        let loop = wl_display_get_event_loop(contexts.display)!
        accepting = EventSource.readable(listenFD, on: loop, loopOwner: nil) { [unowned self] in accept() }
        closing = EventSource.readable(closeFD, on: loop, loopOwner: nil) { [unowned self] in closeFDReadable() }
    }

    deinit {
        accepting = nil
        closing = nil
        close(listenFD)
        close(closeFD)
    }

    private func accept() {
        let fd = Glibc.accept(listenFD, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        guard let client = wl_client_create(contexts.display, fd) else {
            close(fd)
            return
        }
        ClientState.of(client)?.securityContext = context
    }

    /// Data on close_fd is read and dropped; its end (EOF or an error) ends the listener.
    private func closeFDReadable() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(closeFD, &buffer, buffer.count)
        guard count <= 0, !(count < 0 && (errno == EAGAIN || errno == EINTR)), !ended else { return }
        ended = true
        contexts.logger.info("the sandbox listener for \(context.engine ?? "an unnamed engine") closed")
        // Its own source goes inside its callback (libwayland frees it after the dispatch);
        // the object stays in `listeners`, ended, until the next listener is made.
        accepting = nil
        closing = nil
    }
}
