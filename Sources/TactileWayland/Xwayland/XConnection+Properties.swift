import CXCB
import Glibc

/// Reading the ICCCM and EWMH properties of a window, every request sent before the first
/// reply is awaited, and every value bounded.
extension XConnection {
    func readProperties(of id: xcb_window_t) -> XWindowProperties {
        let names: [xcb_atom_t] = [
            xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), atoms[.netWMName], xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), atoms[.wmProtocols],
            xcb_atom_t(XCB_ATOM_WM_HINTS.rawValue), xcb_atom_t(XCB_ATOM_WM_TRANSIENT_FOR.rawValue), atoms[.netWMWindowType], atoms[.netWMPID],
        ]
        let values = read(names, of: id)
        var properties = XWindowProperties()
        let title = values[1].isEmpty ? values[0] : values[1]
        if !title.isEmpty { properties.title = printable(title) }
        // WM_CLASS is the instance, then the class, each ending with a NUL.
        let classParts = values[2].split(separator: 0, omittingEmptySubsequences: false)
        if classParts.count >= 2, !classParts[1].isEmpty { properties.appClass = printable(Array(classParts[1]), limit: appIDLabelLimit) }
        let protocols = words(values[3])
        properties.deletesWindow = protocols.contains(atoms[.wmDeleteWindow])
        properties.takesFocus = protocols.contains(atoms[.wmTakeFocus])
        let hints = words(values[4])
        // WM_HINTS: flags, then input; InputHint is flag 1.
        if hints.count >= 2, hints[0] & 1 != 0 { properties.acceptsInput = hints[1] != 0 }
        if let parent = words(values[5]).first, parent != 0, parent != id { properties.transientFor = parent }
        let dialogTypes = [atoms[.netWMWindowTypeDialog], atoms[.netWMWindowTypeUtility], atoms[.netWMWindowTypeSplash]]
        properties.isDialogType = words(values[6]).contains(where: dialogTypes.contains)
        properties.pid = words(values[7]).first.flatMap { Int32(exactly: $0) } ?? clientPID(of: id)
        return properties
    }

    /// The state a client set before mapping its window (_NET_WM_STATE).
    func readState(of id: xcb_window_t) -> WindowState {
        let states = words(read([atoms[.netWMState]], of: id)[0])
        return WindowState(isMaximized: states.contains(atoms[.netWMStateMaximizedVert]) || states.contains(atoms[.netWMStateMaximizedHorz]),
                           isFullscreen: states.contains(atoms[.netWMStateFullscreen]))
    }

    /// Each property's bytes (empty where unset or unreadable), at most `longestRead` words.
    private func read(_ properties: [xcb_atom_t], of id: xcb_window_t) -> [[UInt8]] {
        let cookies = properties.map {
            xcb_get_property(xcb, 0, id, $0, xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0, XWindowProperties.longestRead)
        }
        return cookies.map { cookie in
            guard let reply = xcb_get_property_reply(xcb, cookie, nil) else { return [] }
            defer { free(reply) }
            let length = Int(xcb_get_property_value_length(reply))
            guard length > 0, let value = xcb_get_property_value(reply) else { return [] }
            return Array(UnsafeRawBufferPointer(start: value, count: length))
        }
    }

    /// 32-bit values (atoms, windows, cardinals) in the connection's byte order.
    func words(_ bytes: [UInt8]) -> [UInt32] {
        bytes.withUnsafeBytes { raw in
            (0..<raw.count / 4).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
    }

    private func printable(_ bytes: [UInt8], limit: Int = labelLimit) -> String? {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return text.withCString { printableLabel($0, limit: limit) }
    }

    /// The pid of the client behind a window, as the X server knows it (XRes), for a client
    /// that does not say (_NET_WM_PID).
    private func clientPID(of id: xcb_window_t) -> Int32? {
        var spec = xcb_res_client_id_spec_t(client: id, mask: UInt32(XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID.rawValue))
        guard let reply = xcb_res_query_client_ids_reply(xcb, xcb_res_query_client_ids(xcb, 1, &spec), nil) else { return nil }
        defer { free(reply) }
        var ids = xcb_res_query_client_ids_ids_iterator(reply)
        while ids.rem > 0, let value = ids.data {
            if value.pointee.spec.mask & UInt32(XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID.rawValue) != 0, value.pointee.length >= 4,
               let pid = xcb_res_client_id_value_value(value) {
                return Int32(bitPattern: pid.pointee)
            }
            xcb_res_client_id_value_next(&ids)
        }
        return nil
    }
}
