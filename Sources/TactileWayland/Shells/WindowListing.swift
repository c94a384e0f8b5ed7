/// A protocol that lists the mapped windows for other clients (wlr-foreign-toplevel's docks,
/// ext_foreign_toplevel_list's handles): the shells tell every listing of each window that
/// maps, changes (title, app id, outputs, state) and unmaps, through `Windows.listings`, and
/// name none of them.
protocol WindowListing: AnyObject {
    func mapped(_ toplevel: ListedWindow)
    func changed(_ toplevel: ListedWindow)
    func closed(_ toplevel: ListedWindow)
}

extension PartContext {
    /// Every mapped window listings show (xdg, wl_shell, managed X), bottom to top.
    var listedWindows: [ListedWindow] {
        let (below, above) = scene.children(of: scene.root)
        return (below + above).compactMap { id in
            guard scene.node(id)?.isMapped == true else { return nil }
            return surface(at: id)?.listedWindow
        }
    }
}

extension [any WindowListing] {
    func mapped(_ toplevel: ListedWindow) { for listing in self { listing.mapped(toplevel) } }
    func changed(_ toplevel: ListedWindow) { for listing in self { listing.changed(toplevel) } }
    func closed(_ toplevel: ListedWindow) { for listing in self { listing.closed(toplevel) } }
}
