import CWaylandServer
import Responder
import WaylandProtocols

/// wlr-foreign-toplevel-management: every client that binds the manager (a dock, a task bar,
/// a kiosk's own switcher on a layer surface) is told of each mapped xdg toplevel through a
/// handle of its own, with the title, app id, outputs and state as they change, and may
/// activate, close, maximize, minimize or fullscreen it.
final class ForeignToplevels: ServerPart, WindowListing {
    static let version: Int32 = 3
    private unowned(unsafe) let context: any PartContext
    private let outputs: Outputs
    /// The managers clients bound.
    private var managers: [OpaquePointer] = []
    /// The handles made for each toplevel, one per manager.
    private var handles: [ObjectIdentifier: [ForeignToplevelHandle]] = [:]
    private var global: Global?

    /// The global: a client that binds it hears of every window mapped now, and of those to come.
    init(display: OpaquePointer, context: any PartContext, outputs: Outputs) {
        self.context = context
        self.outputs = outputs
        global = Global(display: display, interface: tactile_zwlr_foreign_toplevel_manager_v1_interface(), version: Self.version,
                        context: self, requests: Self.requests, privilege: .windowManagement, destroyed: { resource in
                            guard let resource, let part = Global.context(of: resource, as: ForeignToplevels.self) else { return }
                            part.managers.removeAll { $0 == resource }
                        }) { [unowned self] resource, _ in
            managers.append(resource)
            for toplevel in self.context.listedWindows { announce(toplevel, to: resource) }
        }
    }
}

/// A window docks list: an xdg toplevel, or a wl_shell toplevel (what WLCS's clients make).
protocol ListedWindow: AnyObject {
    var title: String? { get }
    var appID: String? { get }
    var windowSurface: Surface? { get }
    /// The process that made the window, where it is not the client's (an X app behind Xwayland).
    var pid: Int32? { get }
    var isMinimized: Bool { get set }
    /// The window manager it is managed by.
    var windows: Windows { get }
    /// Whether the window is shown maximized and fullscreen, as its shell knows.
    func sizeState() -> (maximized: Bool, fullscreen: Bool)
    func request(maximized: Bool?, fullscreen: Bool?)
    func sendClose()
    /// The area windows may use changed: a window the policy sizes takes its new size.
    func layoutChanged()
    /// After each repaint: whether any of the window shows (`WindowVisibility`); it may also
    /// have moved.
    func repainted(shown: Bool)
}

extension ListedWindow {
    var pid: Int32? { nil }
    func layoutChanged() {}
    func repainted(shown: Bool) {}

    /// Hides or shows the window; keyboard focus leaves a window that hides.
    func setMinimized(_ minimized: Bool) {
        guard minimized != isMinimized, let surface = windowSurface, let node = surface.node else { return }
        isMinimized = minimized
        windows.context.updateScene { $0.update(node) { $0.isHidden = minimized } }
        if minimized { windows.context.unfocusKeyboard(from: node) }
        windows.listings.changed(self)
    }

    /// A dock activated the window: shown, raised above the other windows, and focused.
    func activate() {
        guard let surface = windowSurface, let node = surface.node else { return }
        setMinimized(false)
        let context = windows.context
        windows.raise(node)
        guard !context.keyboardFocusIsPinned else { return }
        context.focusKeyboard(on: node, because: "activated")
    }

    /// The states a dock's handle shows, as zwlr_foreign_toplevel_handle_v1.state values:
    /// maximized, minimized, activated (holding keyboard focus), fullscreen.
    func foreignState() -> [UInt32] {
        let size = sizeState()
        let states: [(Bool, zwlr_foreign_toplevel_handle_v1_state)] = [
            (size.maximized, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED),
            (isMinimized, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED),
            (windows.focusedWindow === self, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED),
            (size.fullscreen, ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN),
        ]
        return states.filter(\.0).map(\.1.rawValue)
    }
}

extension Surface {
    /// The window this surface is, for docks: an xdg or wl_shell toplevel, or a managed X window.
    var listedWindow: ListedWindow? {
        (addon(XdgSurface.self)?.roleObject as? XdgToplevel) ?? (role as? ShellSurface).flatMap { $0.isToplevel ? $0 : nil }
            ?? (role as? XwaylandSurface).flatMap { $0.window.isManaged ? $0 : nil }
    }
}

/// zwlr_foreign_toplevel_handle_v1: one client's view of one window.
final class ForeignToplevelHandle: ResourceObject {
    weak var window: ListedWindow?
    /// What it was last told, so only changes are sent again.
    private var told: (title: String?, appID: String?, outputs: [OutputID], state: [UInt32])?

    init(window: ListedWindow) { self.window = window }

    /// Sends what changed since last time (all of it the first time), then `done`.
    func describe(with registry: Outputs, everything: Bool = false) {
        guard let resource, let toplevel = window, let client = wl_resource_get_client(resource) else { return }
        let state = toplevel.foreignState()
        let outputs = toplevel.windowSurface?.enteredOutputs ?? []
        let old = told
        guard everything || old?.title != toplevel.title || old?.appID != toplevel.appID || old?.outputs != outputs || old?.state != state else { return }
        if let title = toplevel.title, everything || old?.title != title { zwlr_foreign_toplevel_handle_v1_send_title(resource, title) }
        if let appID = toplevel.appID, everything || old?.appID != appID { zwlr_foreign_toplevel_handle_v1_send_app_id(resource, appID) }
        let before = old?.outputs ?? []
        for id in before where !outputs.contains(id) {
            for output in registry.output(id)?.resources(of: client) ?? [] { zwlr_foreign_toplevel_handle_v1_send_output_leave(resource, output) }
        }
        for id in outputs where !before.contains(id) {
            for output in registry.output(id)?.resources(of: client) ?? [] { zwlr_foreign_toplevel_handle_v1_send_output_enter(resource, output) }
        }
        withArray(state) { zwlr_foreign_toplevel_handle_v1_send_state(resource, $0) }
        zwlr_foreign_toplevel_handle_v1_send_done(resource)
        told = (toplevel.title, toplevel.appID, outputs, state)
    }

    /// The window unmapped or went: the client should destroy the handle; its requests do nothing.
    func close() {
        guard let resource, window != nil else { return }
        window = nil
        zwlr_foreign_toplevel_handle_v1_send_closed(resource)
    }

    static let requests = RequestTable(zwlr_foreign_toplevel_handle_v1_interface(
        set_maximized: { _, r in ForeignToplevelHandle.from(r)?.window?.request(maximized: true, fullscreen: nil) },
        unset_maximized: { _, r in ForeignToplevelHandle.from(r)?.window?.request(maximized: false, fullscreen: nil) },
        set_minimized: { _, r in ForeignToplevelHandle.from(r)?.window?.setMinimized(true) },
        unset_minimized: { _, r in ForeignToplevelHandle.from(r)?.window?.activate() },
        activate: { _, r, _ in ForeignToplevelHandle.from(r)?.window?.activate() },
        close: { _, r in ForeignToplevelHandle.from(r)?.window?.sendClose() },
        set_rectangle: { _, _, _, _, _, _, _ in },
        destroy: destroyResource,
        set_fullscreen: { _, r, _ in ForeignToplevelHandle.from(r)?.window?.request(maximized: nil, fullscreen: true) },
        unset_fullscreen: { _, r in ForeignToplevelHandle.from(r)?.window?.request(maximized: nil, fullscreen: false) }
    ))
}

extension ForeignToplevels {
    fileprivate static let requests = RequestTable(zwlr_foreign_toplevel_manager_v1_interface(
        stop: { _, r in
            // The manager says it is finished and goes; handles already made stay the client's.
            guard let r, let part = Global.context(of: r, as: ForeignToplevels.self) else { return }
            part.managers.removeAll { $0 == r }
            zwlr_foreign_toplevel_manager_v1_send_finished(r)
            wl_resource_destroy(r)
        }
    ))

    /// A handle for `toplevel` in `manager`'s client, announced and described.
    private func announce(_ toplevel: ListedWindow, to manager: OpaquePointer) {
        guard let client = wl_resource_get_client(manager) else { return }
        let handle = ForeignToplevelHandle(window: toplevel)
        guard handle.bind(client: client, interface: tactile_zwlr_foreign_toplevel_handle_v1_interface(), version: wl_resource_get_version(manager),
                          id: 0, implementation: ForeignToplevelHandle.requests), let made = handle.resource else { return }
        handles.append(live: handle, to: ObjectIdentifier(toplevel))
        zwlr_foreign_toplevel_manager_v1_send_toplevel(manager, made)
        handle.describe(with: outputs, everything: true)
    }

    /// A window mapped: every manager hears of it.
    func mapped(_ toplevel: ListedWindow) {
        for manager in managers { announce(toplevel, to: manager) }
    }

    /// A window's title, app id, outputs or state may have changed: handles hear what did.
    func changed(_ toplevel: ListedWindow) {
        for handle in handles[ObjectIdentifier(toplevel)] ?? [] { handle.describe(with: outputs) }
    }

    /// A window unmapped or went: its handles are closed.
    func closed(_ toplevel: ListedWindow) {
        let handles = handles.removeValue(forKey: ObjectIdentifier(toplevel)) ?? []
        for handle in handles { handle.close() }
    }
}

extension Dictionary {
    /// Adds `handle` to the handles of `key`'s window, letting go of those whose client went:
    /// a window that outlives many clients (a kiosk's app, under every taskbar or capture tool
    /// that comes and goes) would otherwise keep a handle for each until it closes.
    mutating func append<Handle: ResourceObject>(live handle: Handle, to key: Key) where Value == [Handle] {
        self[key, default: []].removeAll { $0.resource == nil }
        self[key, default: []].append(handle)
    }
}
