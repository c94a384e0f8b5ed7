import CWaylandServer
import Responder

/// Names for trace lines and the inspector, as a tester sees the desktop: the client's
/// wl_surface id, the role, the window's app_id and title, the process, and the output a
/// point is on. Used only after a routing step (it reads the scene).
struct ServerNaming: TraceNaming {
    unowned(unsafe) let context: any PartContext
    let clients: Clients
    let surfaces: SurfaceIndex
    let gestures: Gestures
    let outputs: Outputs

    func name(_ node: NodeID) -> String {
        guard let surface = context.surface(at: node), let resource = surface.resource else {
            return node == context.scene.root ? "surface=none(background)" : "surface=none(compositor)"
        }
        var parts = ["surface=wl_surface@\(wl_resource_get_id(resource))", "role=\(surface.role?.roleName ?? "none")"]
        let labels = windowLabels(of: node)
        if let appID = labels?.appID { parts.append("app_id=\(appID)") }
        if let title = labels?.title { parts.append("title=\"\(title)\"") }
        parts.append("pid=\(labels?.pid ?? surface.owner.pid)")
        if surface.current[ContentType.self] != .none { parts.append("content=\(surface.current[ContentType.self].name)") }
        return parts.joined(separator: " ")
    }

    func name(_ client: ClientID) -> String {
        guard let state = clients.byID[client] else { return "client=gone" }
        let appID = surfaces.all.lazy.filter { $0.owner === state }.compactMap { $0.node.flatMap(windowLabels)?.appID }.first
        return "pid=\(state.pid)" + (appID.map { " app_id=\($0)" } ?? "")
    }

    func name(_ gesture: GestureID) -> String {
        gestures.name(of: gesture) ?? "\(gesture)"
    }

    func place(_ global: Point) -> String {
        let at = TraceFormatter.coordinates(global)
        guard let output = outputs.layout.first(where: { $0.rect.contains(global) }) else { return "\(at) output=none" }
        let local = Point(x: global.x - Double(output.rect.x), y: global.y - Double(output.rect.y))
        return "\(at) output=\(output.description.name)(\(TraceFormatter.coordinates(local)))"
    }

    /// The app_id, title and process of the window `node` belongs to (itself, or the
    /// toplevel above it); the process only where it is not the client's (an X app's).
    func windowLabels(of node: NodeID) -> (appID: String?, title: String?, pid: Int32?)? {
        let window = context.scene.toplevel(containing: node) ?? node
        guard let surface = context.surface(at: window) else { return nil }
        if let toplevel = surface.addon(XdgSurface.self)?.toplevel { return (toplevel.appID, toplevel.title, nil) }
        if let shell = surface.role as? ShellSurface { return (shell.appID, shell.title, nil) }
        if let x = surface.role as? XwaylandSurface { return (x.appID, x.title, x.pid) }
        return nil
    }
}
