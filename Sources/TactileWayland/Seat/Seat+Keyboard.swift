import CWaylandServer
import Responder

/// wl_keyboard events, to every wl_keyboard of the client; the modifiers come from the
/// active keymap's XKB state. A client hears keys under the keymap they were typed with:
/// when that changes (a virtual keyboard types, then a real one), its keyboards are sent the
/// new keymap before the next event.
extension Seat {
    func keyboardEnter(_ client: SeatClient, surface: OpaquePointer, keys: [UInt32]) {
        updateKeymap(of: client)
        let serial = inputSerial(for: client)
        withArray(keys) { array in
            for keyboard in client.keyboards { wl_keyboard_send_enter(keyboard, serial, surface, array) }
        }
        sendModifiers(to: client)
    }

    /// A keyboard bound while its client has the focus: the enter and modifiers the client's
    /// other keyboards heard.
    func keyboardGreet(_ keyboard: OpaquePointer, of client: SeatClient, surface: OpaquePointer, keys: [UInt32]) {
        updateKeymap(of: client)
        let serial = inputSerial(for: client)
        withArray(keys) { wl_keyboard_send_enter(keyboard, serial, surface, $0) }
        guard let mods = activeKeymap?.modifiers else { return }
        wl_keyboard_send_modifiers(keyboard, self.serial(), mods.depressed, mods.latched, mods.locked, mods.group)
    }

    func keyboardLeave(_ client: SeatClient, surface: OpaquePointer) {
        let serial = inputSerial(for: client)
        for keyboard in client.keyboards { wl_keyboard_send_leave(keyboard, serial, surface) }
    }

    func key(_ client: SeatClient, _ key: UInt32, _ state: PressState, time: Instant) {
        updateKeymap(of: client)
        let serial = inputSerial(for: client)
        let wire = state == .pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED
        for keyboard in client.keyboards {
            client.stamp(keyboard, time)
            wl_keyboard_send_key(keyboard, serial, time.milliseconds, key, wire.rawValue)
        }
    }

    /// Feeds a key the core takes through the XKB state; true when the modifiers changed.
    func updateModifiers(key: UInt32, state: PressState) -> Bool {
        keymap?.update(key: key, state: state) ?? false
    }

    /// The client with keyboard focus, if any, hears the active keymap's modifiers.
    func sendModifiers(toFocused client: ClientID?) {
        guard let client = client.flatMap({ clients[$0] }) else { return }
        sendModifiers(to: client)
    }

    func sendModifiers(to client: SeatClient) {
        updateKeymap(of: client)
        guard let mods = activeKeymap?.modifiers else { return }
        let serial = serial()
        for keyboard in client.keyboards {
            wl_keyboard_send_modifiers(keyboard, serial, mods.depressed, mods.latched, mods.locked, mods.group)
        }
    }
}

extension Seat {
    private func updateKeymap(of client: SeatClient) {
        guard let active = activeKeymap, client.keymap !== active else { return }
        client.keymap = active
        for keyboard in client.keyboards { active.send(to: keyboard) }
    }
}

/// A wl_array of the values (keys and states as uint32, a dev_t, uint16 indices), each in
/// the machine's byte order as the protocols say, alive for the call.
func withArray<T: BitwiseCopyable, R>(_ values: [T], _ body: (UnsafeMutablePointer<wl_array>) -> R) -> R {
    var array = wl_array()
    wl_array_init(&array)
    defer { wl_array_release(&array) }
    for value in values {
        guard let slot = wl_array_add(&array, MemoryLayout<T>.size) else { break }
        slot.storeBytes(of: value, as: T.self)
    }
    return body(&array)
}
