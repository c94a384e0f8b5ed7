import Glibc

/// Who may bind each privileged family of globals (`Privilege`): everyone, or only the
/// clients Tactile started itself (`-- COMMAND`, gesture commands, and their children) and
/// executables named by path. A client refused a family never sees its globals.
public struct PrivilegePolicy: Sendable, Equatable {
    public enum Grant: Sendable, Equatable {
        case everyone
        /// Clients Tactile started (and their descendants) when `started`, and those whose
        /// executable is one of `executables` (absolute paths, as /proc/PID/exe names them).
        case only(started: Bool, executables: [String])
    }

    public var grants: [Privilege: Grant]

    public init(grants: [Privilege: Grant]) { self.grants = grants }

    /// Every family open to every client.
    public static let everyone = PrivilegePolicy(grants: Dictionary(uniqueKeysWithValues: Privilege.allCases.map { ($0, .everyone) }))

    /// The on-screen keyboards Debian packages, which type through the input-injection and
    /// input-method families and show themselves through the layer shell.
    public static let onScreenKeyboards = ["/usr/bin/squeekboard", "/usr/bin/wvkbd-mobintl"]

    /// The policy unless the configuration file says otherwise: each family for what Tactile
    /// started, and for the programs a kiosk's owner runs by hand that need it (the on-screen
    /// keyboards, grim for screenshots, wlr-randr and kanshi for the screens, swaylock,
    /// wl-copy and wl-paste, weston-touch-calibrator, and Tactile's own executable: `tactile inspect`, `tactile
    /// calibrate`, and `tactile capture`, which takes screenshots and finds windows by app_id
    /// in the window list). Security-context listeners are everyone's: they only ever make a
    /// client less trusted.
    public static var standard: PrivilegePolicy {
        func started(_ executables: [String] = []) -> Grant { .only(started: true, executables: executables) }
        let tactile = ProcessIdentity.executable(of: getpid()).map { [$0] } ?? []
        return PrivilegePolicy(grants: [
            .inputInjection: started(onScreenKeyboards),
            .inputMethod: started(onScreenKeyboards),
            .layerShell: started(onScreenKeyboards),
            .screenCapture: started(["/usr/bin/grim"] + tactile),
            .windowManagement: started(tactile),
            .outputManagement: started(["/usr/bin/wlr-randr", "/usr/bin/kanshi"]),
            .sessionLock: started(["/usr/bin/swaylock"]),
            .inspector: started(tactile),
            .touchCalibration: started(["/usr/bin/weston-touch-calibrator"] + tactile),
            .clipboardControl: started(["/usr/bin/wl-copy", "/usr/bin/wl-paste"]),
            .securityContext: .everyone,
        ])
    }

    public func grant(for privilege: Privilege) -> Grant { grants[privilege] ?? .everyone }

    /// A sandboxed client (wp_security_context_v1) gets no family, whatever its executable.
    public func allows(_ privilege: Privilege, _ client: ClientIdentity) -> Bool {
        guard client.sandbox == nil else { return false }
        return switch grant(for: privilege) {
        case .everyone: true
        case .only(let started, let executables): (started && client.startedByTactile) || client.executable.map(executables.contains) == true
        }
    }
}

/// What the policy knows of a client: its process as the kernel says (SO_PEERCRED, /proc).
public struct ClientIdentity: Sendable, Equatable {
    public var pid: Int32
    /// Nil when /proc does not say (the process is gone, or in another pid namespace).
    public var executable: String?
    /// Tactile started it, or one of its ancestors.
    public var startedByTactile: Bool
    /// The sandbox engine whose listener it connected through (wp_security_context_v1;
    /// "unnamed" when the engine gave no name); nil outside a sandbox.
    public var sandbox: String?

    public init(pid: Int32, executable: String?, startedByTactile: Bool, sandbox: String? = nil) {
        self.pid = pid
        self.executable = executable
        self.startedByTactile = startedByTactile
        self.sandbox = sandbox
    }
}
