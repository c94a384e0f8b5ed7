import CWaylandServer
import Responder
import WaylandProtocols

/// xdg_wm_base.ping, for a fleet's health answer: whether each client's event loop still
/// runs. A client that answers no ping for `limit` is unresponsive (hung, or stopped). Pings
/// go out only once something asks for them (`WaylandServer.startPinging`), every
/// `period`: a kiosk without monitoring wakes for nothing.
struct ShellPings {
    private struct Shell {
        let client: OpaquePointer
        var unanswered: (serial: UInt32, since: Instant)?
    }

    private var shells: [OpaquePointer: Shell] = [:]
    private var serial: UInt32 = 0

    static let period: Int32 = 3000
    static let limit = Duration.seconds(10)

    mutating func bound(_ shell: OpaquePointer, client: OpaquePointer) {
        shells[shell] = Shell(client: client)
    }

    mutating func destroyed(_ shell: OpaquePointer) {
        shells[shell] = nil
    }

    /// A pong answers the ping it names; any other serial is a client's mistake, ignored.
    mutating func pong(_ shell: OpaquePointer, serial: UInt32) {
        if shells[shell]?.unanswered?.serial == serial { shells[shell]?.unanswered = nil }
    }

    /// Pings every shell with no ping outstanding; one outstanding keeps its first time.
    mutating func pingAll(now: Instant) {
        for (resource, shell) in shells where shell.unanswered == nil {
            serial &+= 1
            xdg_wm_base_send_ping(resource, serial)
            shells[resource]?.unanswered = (serial, now)
        }
    }

    /// The clients with a ping unanswered for longer than `limit`, each with the longest wait.
    func unresponsive(now: Instant) -> [(client: OpaquePointer, waited: Duration)] {
        var longest: [OpaquePointer: Duration] = [:]
        for shell in shells.values {
            guard let since = shell.unanswered?.since, now > since else { continue }
            let waited = now - since
            if waited > Self.limit { longest[shell.client] = max(longest[shell.client] ?? .zero, waited) }
        }
        return longest.map { ($0.key, $0.value) }
    }
}
