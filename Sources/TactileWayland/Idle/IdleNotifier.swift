import CWaylandServer
import Responder
import WaylandProtocols

/// ext_idle_notifier_v1: swayidle and the like hear `idled` after their timeout with no
/// input, and `resumed` at the next input, each notification on its own timer. A visible
/// surface's idle inhibitor holds `idled` back, as the protocol asks; the wait starts again
/// when the inhibitor lets go. Version 2's input notifications hear input alone (a kiosk's
/// reset to its start page must come while a video plays). Input reaches it through
/// `Idle.sees`.
final class IdleNotifier: ServerPart {
    static let version: Int32 = 2
    private var global: Global?
    fileprivate let loop: OpaquePointer
    fileprivate let inhibitors: IdleInhibitors
    fileprivate let now: () -> Instant
    /// When the last input came, or the last visible inhibitor went: idle blanking's clock
    /// too (`Idle`).
    private(set) var lastActivity: Instant
    /// When the last input came: the clock of notifications that ignore inhibitors.
    private(set) var lastInput: Instant
    private var made: [Weak] = []

    private struct Weak { weak var object: IdleNotification? }

    init(display: OpaquePointer, inhibitors: IdleInhibitors, now: @escaping () -> Instant) {
        loop = wl_display_get_event_loop(display)
        self.inhibitors = inhibitors
        self.now = now
        lastActivity = now()
        lastInput = lastActivity
        global = Global(display: display, interface: tactile_ext_idle_notifier_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    /// An input event came at `time`: notifications that said idled say resumed.
    func activity(at time: Instant) {
        lastActivity = time
        lastInput = time
        for entry in made { entry.object?.activity() }
    }

    /// No visible inhibitor is left (at `time`): the waits held back start again.
    func inhibitionEnded(at time: Instant) {
        lastActivity = time
        for entry in made where entry.object?.heedsInhibitors == true { entry.object?.restart() }
    }

    private static let requests = RequestTable(ext_idle_notifier_v1_interface(
        destroy: destroyResource,
        get_idle_notification: { client, resource, id, timeout, _ in
            make(client, resource, id, timeout: timeout, heedsInhibitors: true)
        },
        get_input_idle_notification: { client, resource, id, timeout, _ in
            make(client, resource, id, timeout: timeout, heedsInhibitors: false)
        }
    ))

    private static func make(_ client: OpaquePointer?, _ resource: OpaquePointer?, _ id: UInt32, timeout: UInt32, heedsInhibitors: Bool) {
        guard let client, let resource, let part = Global.context(of: resource, as: IdleNotifier.self) else { return }
        let notification = IdleNotification(part: part, timeout: timeout, heedsInhibitors: heedsInhibitors)
        guard notification.bind(client: client, interface: tactile_ext_idle_notification_v1_interface(), version: wl_resource_get_version(resource),
                                id: id, implementation: IdleNotification.requests) else { return }
        part.made.removeAll { $0.object?.resource == nil }
        part.made.append(Weak(object: notification))
        notification.restart()
    }
}

/// ext_idle_notification_v1: one client's timeout, and whether it said idled.
final class IdleNotification: ResourceObject {
    private unowned let part: IdleNotifier
    /// In milliseconds, as the client gave it (0: idle at once, when no input is coming).
    private let timeout: UInt32
    /// False for version 2's input notifications: only input holds them back.
    fileprivate let heedsInhibitors: Bool
    private var timer: EventSource?
    private var idled = false

    fileprivate init(part: IdleNotifier, timeout: UInt32, heedsInhibitors: Bool) {
        self.part = part
        self.timeout = timeout
        self.heedsInhibitors = heedsInhibitors
        super.init()
        timer = EventSource.timer(on: part.loop, loopOwner: nil) { [unowned self] in fire() }
    }

    /// Waits the whole timeout from now, unless it already said idled.
    fileprivate func restart() {
        guard !idled else { return }
        arm(UInt64(timeout))
    }

    fileprivate func activity() {
        guard idled, let resource else { return }
        idled = false
        ext_idle_notification_v1_send_resumed(resource)
        arm(UInt64(timeout))
    }

    /// The timer ran out: idled, if no input came since and no visible inhibitor holds it
    /// back (when it heeds them); else the rest of the wait (an inhibitor's end restarts it).
    private func fire() {
        guard !idled, let resource else { return }
        let quiet = UInt64(max(0, (part.now() - (heedsInhibitors ? part.lastActivity : part.lastInput)).milliseconds))
        guard quiet >= UInt64(timeout) else { return arm(UInt64(timeout) - quiet) }
        guard !heedsInhibitors || !part.inhibitors.inhibited else { return }
        idled = true
        ext_idle_notification_v1_send_idled(resource)
    }

    /// libwayland's timers take up to Int32.max milliseconds (24 days); longer ones wait
    /// in steps. 0 disarms a timer, so an immediate one fires after 1 ms.
    private func arm(_ milliseconds: UInt64) {
        timer?.arm(milliseconds: Int32(clamping: max(milliseconds, 1)))
    }

    override func resourceDestroyed() { timer = nil }

    static let requests = RequestTable(ext_idle_notification_v1_interface(destroy: destroyResource))
}
