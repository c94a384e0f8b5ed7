import CSpawn
import Glibc

/// The environment Tactile was started with, for the commands it starts.
func currentEnvironment() -> [String] {
    var result: [String] = []
    var cursor = environ
    while let entry = cursor.pointee {
        result.append(String(cString: entry))
        cursor += 1
    }
    return result
}

/// The same by name, for what Tactile reads of it itself (systemd's `NOTIFY_SOCKET` and
/// `WATCHDOG_USEC`): an entry without `=` is left out, and a later entry of a name wins.
public func currentEnvironmentByName() -> [String: String] {
    var result: [String: String] = [:]
    for entry in currentEnvironment() {
        if let equals = entry.firstIndex(of: "=") { result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...]) }
    }
    return result
}

/// posix_spawnp of `arguments` (the first found on PATH); nil, with errno set, if it could
/// not start. posix_spawn rather than fork: the server's process holds many threads and fds.
/// `passing`: fds the child gets as 3, 4, 5… in that order (`passedFD`). Every other fd
/// above standard error is closed in the child: a host's fd left open without close-on-exec
/// (a test harness's pipe, say) would otherwise live as long as the child.
func spawn(_ arguments: [String], environment: [String], passing fds: [Int32] = []) -> pid_t? {
    guard let program = arguments.first else {
        errno = EINVAL
        return nil
    }
    let argv = arguments.map { strdup($0) as UnsafeMutablePointer<CChar>? } + [nil]
    let envp = environment.map { strdup($0) as UnsafeMutablePointer<CChar>? } + [nil]
    defer {
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    // The server blocks SIGTERM and SIGINT to read them from a signalfd on its loop; a child
    // would inherit that mask, and then no SIGTERM could end it. It starts unblocked, with
    // default handlers.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    // Copies above every target first, so no dup2 overwrites an fd a later one reads.
    let copies = fds.map { fcntl($0, F_DUPFD_CLOEXEC, passedFD(fds.count)) }
    defer { for copy in copies where copy >= 0 { close(copy) } }
    guard !copies.contains(where: { $0 < 0 }) else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (k, copy) in copies.enumerated() { posix_spawn_file_actions_adddup2(&actions, copy, passedFD(k)) }
    posix_spawn_file_actions_addclosefrom_np(&actions, passedFD(fds.count))
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    guard result == 0 else {
        errno = result
        return nil
    }
    return pid
}

/// The number the `index`-th of `spawn`'s passed fds has in the child.
func passedFD(_ index: Int) -> Int32 { Int32(3 + index) }

/// `environment` with WAYLAND_DISPLAY naming `socket`, and DISPLAY Tactile's X display
/// where it has one: a started client connects to Tactile, not to the compositor (or the X
/// server) Tactile itself may be nested in.
func connecting(_ environment: [String], to socket: String?, x11Display: String? = nil) -> [String] {
    var result = environment
    if let socket { result = result.filter { !$0.hasPrefix("WAYLAND_DISPLAY=") } + ["WAYLAND_DISPLAY=\(socket)"] }
    if let x11Display { result = result.filter { !$0.hasPrefix("DISPLAY=") } + ["DISPLAY=\(x11Display)"] }
    return result
}
