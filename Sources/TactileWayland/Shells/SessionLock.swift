import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// ext_session_lock_manager_v1 (swaylock): while the session is locked only the lock
/// client's surfaces show and take input. The lock is a compositor node over everything
/// (`shield`, `Windows.ceiling`): the lock surfaces are its children, one per output, and it
/// catches every touch and click that misses them; composition draws nothing under it;
/// keyboard focus goes only to nodes inside it (`admitsFocus`); system gestures do not
/// begin. A lock client that dies leaves the session locked and blank, as the protocol
/// wants, until a new lock client takes over.
final class SessionLocks: ServerPart {
    static let version: Int32 = 1
    let windows: Windows
    private let gestures: Gestures
    private let logger: Logger
    private var global: Global?
    /// The lock in force: live, or abandoned by a client that went without unlocking.
    private(set) var current: SessionLock?
    /// The node over everything while locked.
    private(set) var shield: NodeID?
    /// Where keyboard focus was when the session locked, for unlocking.
    private var focusBeforeLock: NodeID?

    var isLocked: Bool { shield != nil }
    var context: any PartContext { windows.context }

    init(display: OpaquePointer, windows: Windows, gestures: Gestures, logger: Logger) {
        self.windows = windows
        self.gestures = gestures
        self.logger = logger
        global = Global(display: display, interface: tactile_ext_session_lock_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .sessionLock)
    }

    /// Whether keyboard focus may go to `node`: anything while unlocked; nothing but the
    /// lock's surfaces (or nobody) while locked.
    func admitsFocus(on node: NodeID?) -> Bool {
        guard let shield, let node else { return true }
        return context.scene.responderChain(from: node).contains(shield)
    }

    /// The shield spans the layout, and each lock surface hears its output's size.
    func layoutChanged() {
        guard let shield else { return }
        let extent = windows.outputs.extent
        context.updateScene { $0.update(shield) { $0.size = extent } }
        for surface in current?.surfaces ?? [] { surface.outputChanged() }
    }

    fileprivate func lock(_ lock: SessionLock) {
        if let current, current.resource != nil {
            logger.info("session lock: refused, the session is locked already")
            return lock.finish()
        }
        if current == nil {
            focusBeforeLock = context.focus.keyboard
            windows.popupGrab.dismiss()
            gestures.suspended = true
            let extent = windows.outputs.extent
            context.updateScene { [unowned self] scene in
                var node = Node.compositor(size: extent, inputRegion: .infinite)
                // Every point of the layout and beyond: nothing under the lock is hit.
                node.pointInsideOverride = { _ in true }
                shield = scene.add(node, to: scene.root, at: windows.underOverlays)
                windows.ceiling = shield
            }
            context.focusKeyboard(on: nil, because: "session-locked")
            logger.info("session locked by client \(lock.clientDescription)")
        } else {
            logger.info("session lock: client \(lock.clientDescription) takes over the lock its last client left")
        }
        current = lock
        lock.sendLocked()
    }

    fileprivate func unlock(_ lock: SessionLock) {
        guard current === lock, let shield else { return }
        current = nil
        for surface in lock.surfaces { surface.withdraw() }
        context.updateScene { [unowned self] scene in
            scene.remove(shield)
            self.shield = nil
            windows.ceiling = nil
        }
        gestures.suspended = false
        let back = focusBeforeLock.flatMap { context.scene.node($0)?.isMapped == true ? $0 : nil }
        focusBeforeLock = nil
        if let back { context.focusKeyboard(on: back, because: "session-unlocked") } else { windows.focusTopWindow(because: "session-unlocked") }
        logger.info("session unlocked")
    }

    /// The lock's client went, or destroyed it, without unlocking.
    fileprivate func abandoned(_ lock: SessionLock) {
        guard current === lock else { return }
        logger.warning("session lock: its client left without unlocking; the session stays locked and blank until a new lock client locks")
    }

    /// A lock surface mapped or went: keyboard focus goes to a shown one if it has none.
    fileprivate func lockSurfacesChanged() {
        guard isLocked else { return }
        let shown = current?.surfaces.filter(\.isShown).compactMap { $0.surface?.node } ?? []
        if let focus = context.focus.keyboard, shown.contains(focus) { return }
        context.focusKeyboard(on: shown.first, because: "lock-surface")
    }

    private static let requests = RequestTable(ext_session_lock_manager_v1_interface(
        destroy: destroyResource,
        lock: { client, resource, id in
            guard let client, let resource, let part = Global.context(of: resource, as: SessionLocks.self) else { return }
            let lock = SessionLock(part: part)
            guard lock.bind(client: client, interface: tactile_ext_session_lock_v1_interface(), version: 1, id: id,
                            implementation: SessionLock.requests) else { return }
            part.lock(lock)
        }
    ))
}

/// ext_session_lock_v1: one client's lock, locked or refused (finished).
final class SessionLock: ResourceObject {
    fileprivate unowned let part: SessionLocks
    /// Sent locked (and not unlocked since).
    private var holds = false
    fileprivate private(set) var surfaces: [LockSurface] = []

    fileprivate init(part: SessionLocks) { self.part = part }

    var clientDescription: String {
        guard let resource, let client = wl_resource_get_client(resource) else { return "(gone)" }
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return "pid \(pid)"
    }

    fileprivate func sendLocked() {
        guard let resource else { return }
        holds = true
        ext_session_lock_v1_send_locked(resource)
    }

    fileprivate func finish() {
        guard let resource else { return }
        ext_session_lock_v1_send_finished(resource)
    }

    fileprivate func forget(_ surface: LockSurface) {
        surfaces.removeAll { $0 === surface }
        part.lockSurfacesChanged()
    }

    override func resourceDestroyed() {
        for surface in surfaces { surface.withdraw() }
        surfaces = []
        if holds { part.abandoned(self) }
    }

    static let requests = RequestTable(ext_session_lock_v1_interface(
        destroy: { _, resource in
            guard let lock = SessionLock.from(resource) else { return }
            guard !lock.holds else {
                return lock.postError(EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY.rawValue, "the session is locked: unlock_and_destroy unlocks it")
            }
            wl_resource_destroy(resource)
        },
        get_lock_surface: { client, resource, id, surfaceResource, outputResource in
            guard let client, let lock = SessionLock.from(resource), let surface = Surface.from(surfaceResource) else { return }
            guard !surface.hasRole else { return lock.postError(EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue, "the wl_surface already has a role") }
            guard !surface.hasBuffer, !surface.hasPendingBuffer else {
                return lock.postError(EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "the wl_surface already has a buffer")
            }
            let output = Global.context(of: outputResource, as: Output.self)
            guard !lock.surfaces.contains(where: { $0.output != nil && $0.output === output }) else {
                return lock.postError(EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT.rawValue, "the output has a lock surface already")
            }
            let lockSurface = LockSurface(lock: lock, surface: surface, output: output)
            guard lockSurface.bind(client: client, interface: tactile_ext_session_lock_surface_v1_interface(), version: 1, id: id,
                                   implementation: LockSurface.requests) else { return }
            surface.role = lockSurface
            lock.surfaces.append(lockSurface)
            lockSurface.place()
        },
        unlock_and_destroy: { _, resource in
            guard let lock = SessionLock.from(resource) else { return }
            guard lock.holds else {
                return lock.postError(EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK.rawValue, "the lock was refused (finished): there is nothing to unlock")
            }
            lock.holds = false
            lock.part.unlock(lock)
            wl_resource_destroy(resource)
        }
    ))
}

/// ext_session_lock_surface_v1: the lock's picture on one output, the size of that output,
/// in the shield at the output's place.
final class LockSurface: ResourceObject, SurfaceRole {
    /// Weak: the lock object goes at unlock_and_destroy, its surfaces' objects may stay.
    private weak var lock: SessionLock?
    /// What it belongs to, which outlives every lock.
    private unowned let part: SessionLocks
    private(set) weak var surface: Surface?
    private(set) weak var output: Output?
    /// Each configure's serial and size, the latest last.
    private var configures: [(serial: UInt32, size: Size)] = []
    /// The size of the latest configure the client acknowledged.
    private var acked: Size?

    var roleName: String { "ext_session_lock_surface_v1" }
    var isMapped: Bool { resource != nil && acked != nil }
    var isShown: Bool { isMapped && surface?.hasBuffer == true }

    fileprivate init(lock: SessionLock, surface: Surface, output: Output?) {
        self.lock = lock
        part = lock.part
        self.surface = surface
        self.output = output
    }

    private var context: any PartContext { part.context }

    /// Puts the surface in the shield at its output's place and tells it the output's size;
    /// a refused lock's surface stays out of it, inert.
    fileprivate func place() {
        guard let surface, let shield = part.shield, let lock, part.current === lock else { return }
        surface.createNode(.surface(of: surface.owner.id, isToplevel: true, isMapped: false), under: shield)
        outputChanged()
    }

    /// Its output moved or changed size: placed there again, and told the size.
    func outputChanged() {
        guard let resource, let surface, let placed = output.flatMap({ output in part.windows.outputs.layout.first { $0.id == output.id } }) else { return }
        surface.placeWindow(at: placed.rect.origin)
        guard configures.last?.size != placed.rect.size else { return }
        let serial = context.nextSerial()
        configures.append((serial, placed.rect.size))
        ext_session_lock_surface_v1_send_configure(resource, serial, UInt32(clamping: placed.rect.width), UInt32(clamping: placed.rect.height))
    }

    func committed(surface: Surface, hadBuffer: Bool) {
        guard resource != nil else { return }
        guard let acked else {
            return postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK.rawValue, "committed before acknowledging a configure")
        }
        guard surface.hasBuffer else { return postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER.rawValue, "a lock surface may not be unmapped") }
        guard surface.size == acked else {
            return postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH.rawValue,
                             "\(surface.size.width)x\(surface.size.height), where the output is \(acked.width)x\(acked.height)")
        }
        surface.syncNode()
        context.afterScene { [weak self] in self?.part.lockSurfacesChanged() }
    }

    /// Out of the shield (its lock unlocked or went, or it was destroyed).
    fileprivate func withdraw() {
        surface?.removeNode()
        surface = nil
    }

    func surfaceDestroyed() {
        surface = nil
        lock?.forget(self)
    }

    override func resourceDestroyed() {
        withdraw()
        lock?.forget(self)
    }

    static let requests = RequestTable(ext_session_lock_surface_v1_interface(
        destroy: destroyResource,
        ack_configure: { _, resource, serial in
            guard let lockSurface = LockSurface.from(resource) else { return }
            guard let index = lockSurface.configures.firstIndex(where: { $0.serial == serial }) else {
                return lockSurface.postError(EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue, "serial \(serial) was never sent")
            }
            lockSurface.acked = lockSurface.configures[index].size
            lockSurface.configures.removeFirst(index)
        }
    ))
}
