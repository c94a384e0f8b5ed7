import CWaylandServer
import Responder

/// Names for trace lines and the inspector, as a tester sees the desktop: the client's
/// wl_surface id, the role, the window's app_id and title, the process, and the output a
/// point is on. Used only after a routing step (it reads the scene).
struct ServerNaming: TraceNaming {
    unowned let server: WaylandServer

    func name(_ node: NodeID) -> String {
        guard let surface = server.surface(at: node), let resource = surface.resource else {
            return node == server.router.scene.root ? "surface=none(background)" : "surface=none(compositor)"
        }
        var parts = ["surface=wl_surface@\(wl_resource_get_id(resource))", "role=\(surface.role?.roleName ?? "none")"]
        if let labels = windowLabels(of: node) {
            if let appID = labels.appID { parts.append("app_id=\(appID)") }
            if let title = labels.title { parts.append("title=\"\(title)\"") }
        }
        parts.append("pid=\(surface.owner.pid)")
        return parts.joined(separator: " ")
    }

    func name(_ client: ClientID) -> String {
        guard let state = server.clients.byID[client] else { return "client=gone" }
        let appID = server.surfaces.all.lazy.filter { $0.owner === state }.compactMap { $0.node.flatMap(windowLabels)?.appID }.first
        return "pid=\(state.pid)" + (appID.map { " app_id=\($0)" } ?? "")
    }

    func name(_ gesture: GestureID) -> String {
        server.parts.gestures.name(of: gesture) ?? "\(gesture)"
    }

    func place(_ global: Point) -> String {
        let at = TraceFormatter.coordinates(global)
        guard let output = server.outputLayout.first(where: { $0.rect.contains(global) }) else { return "\(at) output=none" }
        let local = Point(x: global.x - Double(output.rect.x), y: global.y - Double(output.rect.y))
        return "\(at) output=\(output.description.name)(\(TraceFormatter.coordinates(local)))"
    }

    /// The app_id and title of the window `node` belongs to (itself, or the toplevel above it).
    func windowLabels(of node: NodeID) -> (appID: String?, title: String?)? {
        let window = server.router.scene.toplevel(containing: node) ?? node
        guard let surface = server.surface(at: window) else { return nil }
        if let toplevel = surface.addon(XdgSurface.self)?.toplevel { return (toplevel.appID, toplevel.title) }
        if let shell = surface.role as? ShellSurface { return (shell.appID, shell.title) }
        return nil
    }
}
