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

/// posix_spawnp of `arguments` (the first found on PATH); nil, with errno set, if it could
/// not start. posix_spawn rather than fork: the server's process holds many threads and fds.
func spawn(_ arguments: [String], environment: [String]) -> pid_t? {
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
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, program, nil, &attributes, argv, envp)
    guard result == 0 else {
        errno = result
        return nil
    }
    return pid
}

/// `environment` with WAYLAND_DISPLAY naming `socket`: a started client connects to Tactile,
/// not to the compositor Tactile itself may be nested in.
func connecting(_ environment: [String], to socket: String?) -> [String] {
    guard let socket else { return environment }
    return environment.filter { !$0.hasPrefix("WAYLAND_DISPLAY=") } + ["WAYLAND_DISPLAY=\(socket)"]
}
