import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// What the system bell does (the configuration file's `bell`).
public enum BellAction: String, CaseIterable, Sendable {
    /// A log line naming who rang, at most one a second per client.
    case log
    /// Nothing.
    case off
}

/// xdg_system_bell_v1: a client rings the bell (a terminal's BEL), for one of its surfaces or
/// none; the configuration decides what that does.
final class SystemBell: ServerPart {
    static let version: Int32 = 1
    private unowned(unsafe) let context: any PartContext
    private let action: BellAction
    /// When each client last had its ring logged.
    private var lastLogged: [ClientID: Instant] = [:]
    private var global: Global?

    init(display: OpaquePointer, context: any PartContext, action: BellAction) {
        self.context = context
        self.action = action
        global = Global(display: display, interface: tactile_xdg_system_bell_v1_interface(), version: Self.version, context: self, requests: Self.requests)
    }

    func clientDisconnected(_ client: ClientID) { lastLogged[client] = nil }

    private func ring(_ client: OpaquePointer?, _ surfaceResource: OpaquePointer?) {
        guard action == .log, let client, let owner = ClientState.of(client) else { return }
        let now = context.currentTime
        if let last = lastLogged[owner.id], now - last < .seconds(1) { return }
        lastLogged[owner.id] = now
        let surface = Surface.from(surfaceResource)
        let window = surface?.node.flatMap { context.scene.toplevel(containing: $0) }.flatMap { context.surface(at: $0)?.listedWindow }
        let named = [window?.appID.map { "app_id=\($0)" }, window?.title.map { "title=\"\($0)\"" }].compactMap { $0 }.joined(separator: " ")
        context.logger.notice("bell: pid \(owner.pid)\(named.isEmpty ? "" : " " + named) rang the bell\(surface == nil ? "" : " for its window")")
    }

    private static let requests = RequestTable(xdg_system_bell_v1_interface(
        destroy: destroyResource,
        ring: { client, resource, surface in Global.context(of: resource, as: SystemBell.self)?.ring(client, surface) }
    ))
}
