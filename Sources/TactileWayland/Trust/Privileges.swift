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
        // Every global but libwayland's own wl_shm (whose user data is null) is a `Global`,
        // whose user data is itself.
        guard wl_global_get_interface(global) != tactile_wl_shm_interface(), let data = wl_global_get_user_data(global),
              let privilege = Unmanaged<Global>.fromOpaque(data).takeUnretainedValue().privilege,
              let state = ClientState.of(client)
        else { return true }
        let identity = identity(of: state)
        guard !policy.allows(privilege, identity) else { return true }
        let key = "\(state.id) \(privilege.rawValue)"
        if refusalsLogged.insert(key).inserted {
            let interface = String(cString: wl_global_get_interface(global).pointee.name)
            logger.notice("refused \(interface) (\(privilege.rawValue)) to client \(state.id): pid \(identity.pid), \(identity.executable ?? "executable unknown"), \(identity.sandbox.map { "in the \($0) sandbox" } ?? (identity.startedByTactile ? "started by Tactile" : "not started by Tactile"))")
        }
        return false
    }

    /// Read once per client: a process cannot change what it was started as.
    private func identity(of state: ClientState) -> ClientIdentity {
        if let known = identities[state.id] { return known }
        let pid = state.pid
        let identity = ClientIdentity(pid: pid, executable: Self.executable(of: pid), startedByTactile: startedByTactile(pid),
                                      sandbox: state.securityContext.map { $0.engine ?? "unnamed" })
        identities[state.id] = identity
        return identity
    }

    func clientDisconnected(_ client: ClientID) {
        identities[client] = nil
        refusalsLogged = refusalsLogged.filter { !$0.hasPrefix("\(client) ") }
    }

    private static func executable(of pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `pid` or an ancestor (up to 64 generations) is a process Tactile started.
    private func startedByTactile(_ pid: Int32) -> Bool {
        var current = pid
        for _ in 0..<64 {
            if started.contains(current) { return true }
            guard current > 1, let parent = Self.parent(of: current) else { return false }
            current = parent
        }
        return false
    }

    /// The parent's pid, from /proc/PID/stat (after the command name, which may hold spaces
    /// and parentheses: the last ')' ends it).
    private static func parent(of pid: Int32) -> Int32? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let length = read(fd, &buffer, buffer.count)
        guard length > 0 else { return nil }
        let line = String(decoding: buffer[..<length], as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }
}
