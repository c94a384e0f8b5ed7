import CWaylandServer
import Glibc
import Logging
import Responder

/// Keeps privileged globals from the clients the policy refuses them (`PrivilegePolicy`),
/// through libwayland's global filter: a refused global is neither announced to that client
/// nor bindable by it (a bind by name is `wl_display.invalid_object`), and the log names
/// the client and what it was refused, once per family.
final class Privileges: ServerPart {
    private let policy: PrivilegePolicy
    private let logger: Logger
    /// Processes Tactile started itself; their descendants count as started too.
    private var started: Set<Int32> = []
    private var identities: [ClientID: ClientIdentity] = [:]
    private var refusalsLogged: Set<String> = []

    init(display: OpaquePointer, policy: PrivilegePolicy, logger: Logger) {
        self.policy = policy
        self.logger = logger
        wl_display_set_global_filter(display, { client, global, data in
            guard let client, let global, let data else { return true }
            return Unmanaged<Privileges>.fromOpaque(data).takeUnretainedValue().shows(global, to: client)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Tactile started `pid` (a session or gesture command).
    func processStarted(_ pid: Int32) { started.insert(pid) }

    /// A process Tactile started ended (it was reaped): its pid may be reused by anything.
    func processEnded(_ pid: Int32) { started.remove(pid) }

    private func shows(_ global: OpaquePointer, to client: OpaquePointer) -> Bool {
        // Every global is a `Global`, whose user data is itself.
        guard let data = wl_global_get_user_data(global),
              let privilege = Unmanaged<Global>.fromOpaque(data).takeUnretainedValue().privilege,
              let state = ClientState.of(client)
        else { return true }
        let identity = identity(of: state)
        guard !policy.allows(privilege, identity) else { return true }
        let key = "\(state.id) \(privilege.rawValue)"
        if refusalsLogged.insert(key).inserted {
            let interface = String(cString: wl_global_get_interface(global).pointee.name)
            logger.notice("refused \(interface) (\(privilege.rawValue)) to \(state.id): pid \(identity.pid), \(identity.executable ?? "executable unknown"), \(identity.sandbox.map { "in the \($0) sandbox" } ?? (identity.startedByTactile ? "started by Tactile" : "not started by Tactile"))")
        }
        return false
    }

    /// Read once per client: a process cannot change what it was started as.
    private func identity(of state: ClientState) -> ClientIdentity {
        if let known = identities[state.id] { return known }
        let pid = state.pid
        let identity = ClientIdentity(pid: pid, executable: ProcessIdentity.executable(of: pid), startedByTactile: startedByTactile(pid),
                                      sandbox: state.securityContext.map { $0.engine ?? "unnamed" })
        identities[state.id] = identity
        return identity
    }

    func clientDisconnected(_ client: ClientID) {
        identities[client] = nil
        refusalsLogged = refusalsLogged.filter { !$0.hasPrefix("\(client) ") }
    }

    /// Whether `pid` or an ancestor (up to 64 generations) is a process Tactile started. The
    /// server's own process counts: its clients are Tactile's (WLCS, the tests, a socket pair).
    private func startedByTactile(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        var current = pid
        for _ in 0..<64 {
            if started.contains(current) { return true }
            guard current > 1, let parent = ProcessIdentity.parent(of: current) else { return false }
            current = parent
        }
        return false
    }
}
