import CXCB
import Glibc
import Logging

/// The clipboard and the primary selection between X and Wayland clients, text at least (as
/// Xwayland's peers bridge them): an X client's CLIPBOARD or PRIMARY becomes a selection
/// source Wayland clients are offered (`XSelectionSource`), and a Wayland client's selection
/// is owned in X by the bridge's window, which answers X clients' requests by reading the
/// Wayland source. Transfers go through pipes watched on the server's loop; none blocks it.
final class XSelectionBridge {
    unowned(unsafe) let connection: XConnection
    let selections: Selections
    /// Owns X's selections for Wayland's sources, and receives the X selections it reads.
    let window: xcb_window_t
    private let xfixesEvent: UInt8
    /// The X selections offered to Wayland clients now (Selections holds them weakly).
    private var sources: [SelectionKind: XSelectionSource] = [:]
    /// Per selection, what is asked of its X owner, one at a time: its targets, or its data
    /// into a reader's fd.
    private var queues: [SelectionKind: [XRead]] = [:]
    /// Data on its way to a reader, and X requests waiting for a Wayland source's data.
    private var transfers: [ObjectIdentifier: AnyObject] = [:]
    private let loop: OpaquePointer

    /// Types a text selection is offered as, on each side.
    static let textMIMETypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"]
    /// Larger selections are refused: X takes a property in one request.
    static let largest = 4 << 20

    enum XRead {
        case targets
        case data(target: xcb_atom_t, fd: Int32)
    }

    init?(connection: XConnection, selections: Selections, root: xcb_window_t, loop: OpaquePointer) {
        let xcb = connection.xcb
        guard let version = xcb_xfixes_query_version_reply(xcb, xcb_xfixes_query_version(xcb, 5, 0), nil) else { return nil }
        free(version)
        xfixesEvent = tactile_xcb_xfixes_first_event(xcb)
        guard xfixesEvent != 0 else { return nil }
        self.connection = connection
        self.selections = selections
        self.loop = loop
        window = xcb_generate_id(xcb)
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_create_window(xcb, UInt8(XCB_COPY_FROM_PARENT), window, root, -10, -10, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0,
                          XCB_CW_EVENT_MASK.rawValue, &mask)
        let watched = XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        for kind in SelectionKind.allCases { xcb_xfixes_select_selection_input(xcb, window, atom(kind), watched) }
    }

    func atom(_ kind: SelectionKind) -> xcb_atom_t {
        kind == .clipboard ? connection.atoms[.clipboard] : xcb_atom_t(XCB_ATOM_PRIMARY.rawValue)
    }

    /// The targets text is asked for as in X: UTF8_STRING first.
    private var textTargets: [xcb_atom_t] {
        [connection.atoms[.utf8String], xcb_atom_t(XCB_ATOM_STRING.rawValue), connection.atoms[.text]]
    }

    private func kind(of selection: xcb_atom_t) -> SelectionKind? {
        SelectionKind.allCases.first { atom($0) == selection }
    }

    /// Whether `event` (of kind `kind`) is the bridge's, handled.
    func handle(_ kind: UInt8, _ raw: UnsafeRawPointer) -> Bool {
        switch Int32(kind) {
        case Int32(xfixesEvent) + XCB_XFIXES_SELECTION_NOTIFY: ownerChanged(raw.load(as: xcb_xfixes_selection_notify_event_t.self))
        case XCB_SELECTION_NOTIFY: converted(raw.load(as: xcb_selection_notify_event_t.self))
        case XCB_SELECTION_REQUEST: requested(raw.load(as: xcb_selection_request_event_t.self))
        default: return false
        }
        return true
    }

    // MARK: X to Wayland

    /// A new X owner: its targets are read, then Wayland clients are offered it. No owner (it
    /// went): the selection it offered goes too.
    private func ownerChanged(_ event: xcb_xfixes_selection_notify_event_t) {
        guard let kind = kind(of: event.selection), event.owner != window else { return }
        if event.owner == xcb_window_t(XCB_NONE) {
            if let source = sources.removeValue(forKey: kind) { selections.sourceGone(source) }
            return
        }
        enqueue(.targets, for: kind)
    }

    private func enqueue(_ read: XRead, for kind: SelectionKind) {
        queues[kind, default: []].append(read)
        if queues[kind]?.count == 1 { ask(kind) }
    }

    private func ask(_ kind: SelectionKind) {
        guard let read = queues[kind]?.first else { return }
        let target = switch read {
        case .targets: connection.atoms[.targets]
        case .data(let target, _): target
        }
        xcb_convert_selection(connection.xcb, window, atom(kind), target, connection.atoms[.tactileSelection], UInt32(XCB_CURRENT_TIME))
        xcb_flush(connection.xcb)
    }

    /// The X owner answered the request at the front of the selection's queue.
    private func converted(_ event: xcb_selection_notify_event_t) {
        guard event.requestor == window, let kind = kind(of: event.selection), let read = queues[kind]?.first else { return }
        queues[kind]?.removeFirst()
        defer { ask(kind) }
        let value = event.property == xcb_atom_t(XCB_NONE) ? nil : takeProperty()
        switch read {
        case .targets:
            let atoms = value.map { connection.words($0.data) } ?? []
            guard atoms.contains(where: textTargets.contains) else {
                return connection.logger.info("X \(kind) selection offers no text: not offered to Wayland clients")
            }
            let prefersUTF8 = atoms.contains(connection.atoms[.utf8String])
            let source = XSelectionSource(bridge: self, kind: kind, target: prefersUTF8 ? connection.atoms[.utf8String] : xcb_atom_t(XCB_ATOM_STRING.rawValue))
            sources[kind] = source
            selections.set(kind, to: source)
        case .data(_, let fd):
            guard let value, value.type != connection.atoms[.incr] else {
                if value != nil { connection.logger.info("an X client sent its \(kind) selection incrementally (INCR): not supported, nothing pasted") }
                close(fd)
                return
            }
            write(value.data, to: fd)
        }
    }

    /// The bridge's property, read whole (up to `largest`) and deleted.
    private func takeProperty() -> (type: xcb_atom_t, data: [UInt8])? {
        let cookie = xcb_get_property(connection.xcb, 1, window, connection.atoms[.tactileSelection], xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0,
                                      UInt32(Self.largest / 4))
        guard let reply = xcb_get_property_reply(connection.xcb, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        let data = length > 0 ? Array(UnsafeRawBufferPointer(start: xcb_get_property_value(reply), count: length)) : []
        return (reply.pointee.type, data)
    }

    /// A Wayland client reads an X selection: asked of its X owner, in turn.
    func read(_ kind: SelectionKind, target: xcb_atom_t, into fd: Int32) {
        let kept = dup(fd)
        guard kept >= 0 else { return }
        _ = fcntl(kept, F_SETFD, FD_CLOEXEC)
        enqueue(.data(target: target, fd: kept), for: kind)
    }

    /// Xwayland went: its selections are no one's, and transfers under way end.
    func disconnected() {
        for source in sources.values { selections.sourceGone(source) }
        sources = [:]
        for read in queues.values.joined() { if case .data(_, let fd) = read { close(fd) } }
        queues = [:]
        transfers = [:]
    }

    /// The X source replaced by another: forgotten.
    func cancelled(_ source: XSelectionSource) {
        if sources[source.kind] === source { sources[source.kind] = nil }
    }

    private func write(_ data: [UInt8], to fd: Int32) {
        let writer = PipeWriter(data: data, fd: fd, loop: loop) { [weak self] writer in self?.transfers[ObjectIdentifier(writer)] = nil }
        if !writer.isDone { transfers[ObjectIdentifier(writer)] = writer }
    }

    // MARK: Wayland to X

    /// A selection changed on the Wayland side: a Wayland client's is owned in X by the bridge.
    func waylandSelectionChanged(_ kind: SelectionKind) {
        let source = selections[kind]
        guard !(source is XSelectionSource) else { return }
        let owner = source == nil ? xcb_window_t(XCB_NONE) : window
        xcb_set_selection_owner(connection.xcb, owner, atom(kind), UInt32(XCB_CURRENT_TIME))
        xcb_flush(connection.xcb)
    }

    /// An X client asks for the selection the bridge owns: its targets, or its text, read
    /// from the Wayland source through a pipe.
    private func requested(_ event: xcb_selection_request_event_t) {
        let property = event.property == xcb_atom_t(XCB_NONE) ? event.target : event.property
        guard let kind = kind(of: event.selection), let source = selections[kind], !(source is XSelectionSource),
              let mime = Self.textMIMETypes.first(where: source.mimeTypes.contains) else {
            return notify(event, property: xcb_atom_t(XCB_NONE))
        }
        let atoms = connection.atoms
        let string = xcb_atom_t(XCB_ATOM_STRING.rawValue)
        if event.target == atoms[.targets] {
            connection.set(property, of: event.requestor, type: xcb_atom_t(XCB_ATOM_ATOM.rawValue), [atoms[.targets]] + textTargets)
            return notify(event, property: property)
        }
        guard textTargets.contains(event.target) else { return notify(event, property: xcb_atom_t(XCB_NONE)) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return notify(event, property: xcb_atom_t(XCB_NONE)) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        source.send(mime, to: fds[1])
        close(fds[1])
        let type = event.target == string ? string : atoms[.utf8String]
        let reader = PipeReader(fd: fds[0], limit: Self.largest, loop: loop) { [weak self] reader, data in
            guard let self else { return }
            transfers[ObjectIdentifier(reader)] = nil
            guard let data else {
                connection.logger.info("a Wayland \(kind) selection over \(Self.largest) bytes was refused to an X client")
                return notify(event, property: xcb_atom_t(XCB_NONE))
            }
            data.withUnsafeBytes { bytes in
                _ = xcb_change_property(connection.xcb, UInt8(XCB_PROP_MODE_REPLACE.rawValue), event.requestor, property, type, 8, UInt32(bytes.count), bytes.baseAddress)
            }
            notify(event, property: property)
        }
        transfers[ObjectIdentifier(reader)] = reader
    }

    private func notify(_ request: xcb_selection_request_event_t, property: xcb_atom_t) {
        var event = xcb_selection_notify_event_t()
        event.response_type = UInt8(XCB_SELECTION_NOTIFY)
        event.time = request.time
        event.requestor = request.requestor
        event.selection = request.selection
        event.target = request.target
        event.property = property
        connection.send(event, to: request.requestor)
        xcb_flush(connection.xcb)
    }
}

/// An X client's selection, as Wayland clients are offered it: text.
final class XSelectionSource: SelectionSource {
    unowned(unsafe) let bridge: XSelectionBridge
    let kind: SelectionKind
    /// UTF8_STRING where the owner has it, else STRING.
    let target: xcb_atom_t

    init(bridge: XSelectionBridge, kind: SelectionKind, target: xcb_atom_t) {
        self.bridge = bridge
        self.kind = kind
        self.target = target
    }

    var mimeTypes: [String] { XSelectionBridge.textMIMETypes }

    func send(_ mime: String, to fd: Int32) {
        bridge.read(kind, target: target, into: fd)
    }

    func cancel() { bridge.cancelled(self) }
}
