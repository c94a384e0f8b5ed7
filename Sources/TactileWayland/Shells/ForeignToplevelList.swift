import CWaylandServer
import WaylandProtocols

/// ext_foreign_toplevel_list_v1: a handle on every mapped window, with its title, app id and
/// an identifier never given twice, for protocols that name a window (window capture's
/// sources). It lists, and does nothing else: activating and closing stay wlr-foreign-toplevel's.
final class ForeignToplevelList: ServerPart, WindowListing {
    static let version: Int32 = 1
    private unowned(unsafe) let context: any PartContext
    /// The lists clients bound and have not stopped.
    private var lists: [OpaquePointer] = []
    /// The handles made for each window, one per list.
    private var handles: [ObjectIdentifier: [ExtToplevelHandle]] = [:]
    /// Each mapped window's identifier, from the first handle made for it until it unmaps.
    private var identifiers: [ObjectIdentifier: String] = [:]
    private var nextIdentifier: UInt64 = 1
    private var global: Global?

    init(display: OpaquePointer, context: any PartContext) {
        self.context = context
        global = Global(display: display, interface: tactile_ext_foreign_toplevel_list_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .windowManagement, destroyed: { resource in
                            guard let resource, let part = Global.context(of: resource, as: ForeignToplevelList.self) else { return }
                            part.lists.removeAll { $0 == resource }
                        }) { [unowned self] resource, _ in
            lists.append(resource)
            for window in self.context.listedWindows { announce(window, to: resource) }
        }
    }

    func mapped(_ toplevel: ListedWindow) {
        for list in lists { announce(toplevel, to: list) }
    }

    func changed(_ toplevel: ListedWindow) {
        for handle in handles[ObjectIdentifier(toplevel)] ?? [] { handle.describe() }
    }

    func closed(_ toplevel: ListedWindow) {
        identifiers[ObjectIdentifier(toplevel)] = nil
        for handle in handles.removeValue(forKey: ObjectIdentifier(toplevel)) ?? [] { handle.close() }
    }

    private func announce(_ toplevel: ListedWindow, to list: OpaquePointer) {
        guard let client = wl_resource_get_client(list) else { return }
        let handle = ExtToplevelHandle(window: toplevel)
        guard handle.bind(client: client, interface: tactile_ext_foreign_toplevel_handle_v1_interface(), version: wl_resource_get_version(list),
                          id: 0, implementation: ExtToplevelHandle.requests), let made = handle.resource else { return }
        handles.append(live: handle, to: ObjectIdentifier(toplevel))
        ext_foreign_toplevel_list_v1_send_toplevel(list, made)
        let identifier = identifiers[ObjectIdentifier(toplevel)] ?? {
            defer { nextIdentifier += 1 }
            return String(nextIdentifier, radix: 16)
        }()
        identifiers[ObjectIdentifier(toplevel)] = identifier
        ext_foreign_toplevel_handle_v1_send_identifier(made, identifier)
        handle.describe()
    }

    fileprivate static let requests = RequestTable(ext_foreign_toplevel_list_v1_interface(
        stop: { _, resource in
            guard let resource, let part = Global.context(of: resource, as: ForeignToplevelList.self) else { return }
            part.lists.removeAll { $0 == resource }
            ext_foreign_toplevel_list_v1_send_finished(resource)
        },
        destroy: destroyResource
    ))
}

/// ext_foreign_toplevel_handle_v1: one client's handle on one window, which capture sources
/// name it by.
final class ExtToplevelHandle: ResourceObject {
    private(set) weak var window: ListedWindow?
    private var told: (title: String?, appID: String?)?

    init(window: ListedWindow) { self.window = window }

    /// Sends the title and app id where they changed (both the first time), then done.
    func describe() {
        guard let resource, let window, told?.title != window.title || told?.appID != window.appID || told == nil else { return }
        if let title = window.title, told?.title != title { ext_foreign_toplevel_handle_v1_send_title(resource, title) }
        if let appID = window.appID, told?.appID != appID { ext_foreign_toplevel_handle_v1_send_app_id(resource, appID) }
        ext_foreign_toplevel_handle_v1_send_done(resource)
        told = (window.title, window.appID)
    }

    func close() {
        guard let resource, window != nil else { return }
        window = nil
        ext_foreign_toplevel_handle_v1_send_closed(resource)
    }

    static let requests = RequestTable(ext_foreign_toplevel_handle_v1_interface(destroy: destroyResource))
}
