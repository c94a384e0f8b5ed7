import CWaylandServer
import Glibc
import Responder

/// The configured system gestures: installed on the output's root, woken by a timer when a
/// recognizer has a deadline, and acted on once the core has finished routing the event
/// that decided them (an action may move focus, which the core cannot take mid-event).
extension WaylandServer {
    func installGestures() {
        var ids: [String: GestureID] = [:]
        for binding in configuration.gestures {
            let id = router.addGesture(binding.recognizer, on: router.scene.root, options: binding.options)
            gestureBindings[id] = binding
            ids[binding.name] = id
        }
        for binding in configuration.gestures {
            guard let id = ids[binding.name] else { continue }
            for other in binding.simultaneousWith {
                if let o = ids[other] { router.recognizeSimultaneously(id, o) } else { logger.error("gesture '\(binding.name)': no gesture '\(other)' to recognize with") }
            }
            for other in binding.requiresFailureOf {
                if let o = ids[other] { router.require(id, toFail: o) } else { logger.error("gesture '\(binding.name)': no gesture '\(other)' to wait for") }
            }
        }
        gestureTimer = wl_event_loop_add_timer(loop, fireGestureTimer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Logs and acts on what the recognizers did during the last routing step, then arms
    /// the timer for the next deadline (only when it moved: arming is a system call).
    func afterGestureRouting() {
        if !pendingGestureEvents.isEmpty {
            let events = pendingGestureEvents
            pendingGestureEvents.removeAll()
            for event in events { perform(event) }
        }
        let deadline = router.nextGestureDeadline
        guard deadline != armedGestureDeadline, let gestureTimer else { return }
        armedGestureDeadline = deadline
        guard let deadline else {
            wl_event_source_timer_update(gestureTimer, 0)
            return
        }
        let now = currentTime
        let wait = deadline > now ? (deadline.microseconds - now.microseconds + 999) / 1000 : 1
        wl_event_source_timer_update(gestureTimer, Int32(clamping: max(1, wait)))
    }

    fileprivate func gestureTimerFired() {
        armedGestureDeadline = nil
        var sink = ProtocolSink(server: self)
        router.fireGestureDeadlines(at: currentTime, sink: &sink)
        updateActivation()
        afterGestureRouting()
    }

    private func perform(_ event: GestureEvent) {
        guard let binding = gestureBindings[event.gesture] else { return }
        let d = event.detail
        let line = "gesture '\(binding.name)' \(event.state) at \(d.location), moved \(d.translation), scale \(d.scale), count \(d.count)"
        switch event.state {
        case .changed, .failed, .possible: logger.debug("\(line)")
        default: logger.info("\(line)")
        }
        let acts = switch event.state {
        case .recognized: true
        case .began: binding.actsWhen == .recognized
        case .ended: binding.actsWhen == .ended
        default: false
        }
        guard acts else { return }
        switch binding.action {
        case .none: break
        case .run(let command): run(command, for: binding, event)
        case .focusNext: focusNextWindow()
        case .closeFocused: closeFocusedWindow()
        }
    }

    /// Raises the bottom-most window and focuses it.
    func focusNextWindow() {
        let (below, above) = router.scene.children(of: router.scene.root)
        // A surface behind the node makes it a client's window, not a compositor node.
        let bottom = (below + above).first { id in
            guard let node = router.scene.node(id) else { return false }
            return node.isToplevel && node.isMapped && surface(at: id) != nil
        }
        guard let bottom else { return logger.info("focus-next: no window") }
        updateScene { _ = $0.restack(bottom, to: .top) }
        focusKeyboard(on: bottom)
    }

    func closeFocusedWindow() {
        guard let focus = router.keyboardFocus, let window = router.scene.toplevel(containing: focus),
              let toplevel = surface(at: window)?.xdgSurface?.toplevel else {
            return logger.info("close-focused: no focused xdg toplevel")
        }
        toplevel.sendClose()
    }

    private func run(_ command: String, for binding: GestureBinding, _ event: GestureEvent) {
        let d = event.detail
        var environment = currentEnvironment().filter { !$0.hasPrefix("TACTILE_GESTURE") && !($0.hasPrefix("WAYLAND_DISPLAY=") && socketName != nil) }
        environment += [
            "TACTILE_GESTURE=\(binding.name)", "TACTILE_GESTURE_STATE=\(event.state)",
            "TACTILE_GESTURE_X=\(d.location.x)", "TACTILE_GESTURE_Y=\(d.location.y)",
            "TACTILE_GESTURE_DX=\(d.translation.x)", "TACTILE_GESTURE_DY=\(d.translation.y)",
            "TACTILE_GESTURE_SCALE=\(d.scale)", "TACTILE_GESTURE_COUNT=\(d.count)",
        ]
        if let socketName { environment.append("WAYLAND_DISPLAY=\(socketName)") }
        guard let pid = spawnShell(command, environment: environment) else {
            return logger.error("gesture '\(binding.name)': could not start `\(command)`: \(String(cString: strerror(errno)))")
        }
        logger.info("gesture '\(binding.name)': started `\(command)` (pid \(pid))")
        commands.append(pid)
    }

    /// Collects commands that have exited, so none lingers as a zombie.
    func reapCommands() {
        guard !commands.isEmpty else { return }
        commands.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }
}

private func currentEnvironment() -> [String] {
    var result: [String] = []
    var cursor = environ
    while let entry = cursor.pointee {
        result.append(String(cString: entry))
        cursor += 1
    }
    return result
}

/// posix_spawn of `/bin/sh -c command`; nil (with errno set) if it could not start.
private func spawnShell(_ command: String, environment: [String]) -> pid_t? {
    let words: [String] = ["/bin/sh", "-c", command]
    let argv = words.map { strdup($0) as UnsafeMutablePointer<CChar>? } + [nil]
    let envp = environment.map { strdup($0) as UnsafeMutablePointer<CChar>? } + [nil]
    defer {
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/bin/sh", nil, nil, argv, envp)
    guard result == 0 else {
        errno = result
        return nil
    }
    return pid
}

private let fireGestureTimer: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { data in
    Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue().gestureTimerFired()
    return 0
}
