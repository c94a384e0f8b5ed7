/// Where a selection's data comes from: a Wayland client's source (wl_data_source, a primary
/// selection source), or an X client's selection (the X window manager's bridge). Offers are
/// made from its types, and a reader's fd handed to it, the same way for every kind.
protocol SelectionSource: AnyObject {
    /// Its MIME types, in the order offered.
    var mimeTypes: [String] { get }
    /// Writes the data as `mime` into `fd`. The caller closes its `fd` after: a source that
    /// writes later keeps a duplicate.
    func send(_ mime: String, to fd: Int32)
    /// Another source took its place.
    func cancel()
}

/// The two selections: the clipboard (copy and paste, offered to the focused client) and the
/// primary selection (the text last selected, pasted with a middle click, offered to all).
enum SelectionKind: CaseIterable {
    case clipboard, primary
}
