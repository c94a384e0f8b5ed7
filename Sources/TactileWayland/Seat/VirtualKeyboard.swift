import CWaylandServer
import Glibc
import Logging
import Responder
import WaylandProtocols

/// zwp_virtual_keyboard_v1: a client that types (an on-screen keyboard such as wvkbd or
/// squeekboard, or wtype). Its keys go through the core like a real keyboard's, to whoever has
/// keyboard focus, and are heard under the keymap it sent (`Seat.activeKeymap`); its
/// modifiers are the ones it states, not ones worked out from its keys.
///
/// Any client may create one: on a kiosk the on-screen keyboard is the only keyboard there is.
final class VirtualKeyboard: ResourceObject {
    static let version: Int32 = 1
    /// Larger than any real keymap (a full pc105 one is about 60 KiB).
    static let maximumKeymapSize: UInt32 = 1 << 20

    /// Unchecked: the part outlives every resource of its display.
    private unowned(unsafe) let part: VirtualKeyboards
    /// The seat it was created on: the seat, or a transient one (`TransientSeats`).
    private let seat: TransientSeats.Choice
    private var keymap: Keymap?
    private var logger: Logger { part.context.logger }

    init(part: VirtualKeyboards, seat: TransientSeats.Choice) {
        self.part = part
        self.seat = seat
        if case .transient(let transient) = seat { transient.keyboardCount(+1) }
    }

    override func resourceDestroyed() {
        if case .transient(let transient) = seat { transient.keyboardCount(-1) }
    }

    /// Reads the keymap with pread, not mmap: a client that shrinks the file under us would
    /// otherwise fault the server. The fd is always closed; it is ours once it arrives.
    private func setKeymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
            return logger.info("virtual keyboard: keymap format \(format) is not XKB v1; ignored")
        }
        guard size > 0, size <= Self.maximumKeymapSize else {
            return logger.info("virtual keyboard: a keymap of \(size) bytes; ignored")
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(size), 0) }
        guard read > 0 else { return logger.info("virtual keyboard: its keymap could not be read; ignored") }
        // The text ends at its NUL, or at what could be read.
        let text = String(decoding: bytes[..<(bytes[..<read].firstIndex(of: 0) ?? read)], as: UTF8.self)
        guard let compiled = Keymap(text: text) else {
            return logger.info("virtual keyboard: its keymap does not compile; ignored")
        }
        keymap = compiled
    }

    /// The keymap keys and modifiers need; a protocol error without one.
    private func requireKeymap() -> Keymap? {
        guard let keymap else {
            postError(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "a key or modifiers came before a keymap")
            return nil
        }
        return keymap
    }

    private func key(_ key: UInt32, state: UInt32) {
        guard let keymap = requireKeymap() else { return }
        let pressed: PressState = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue ? .pressed : .released
        part.key(key, pressed, under: keymap, on: seat)
    }

    private func modifiers(_ modifiers: Keymap.Modifiers) {
        guard let keymap = requireKeymap() else { return }
        keymap.setModifiers(modifiers)
        part.modifiers(under: keymap, on: seat)
    }

    static let requests = RequestTable(zwp_virtual_keyboard_v1_interface(
        keymap: { _, r, format, fd, size in
            guard let keyboard = VirtualKeyboard.from(r) else { close(fd); return }
            keyboard.setKeymap(format: format, fd: fd, size: size)
        },
        key: { _, r, _, key, state in VirtualKeyboard.from(r)?.key(key, state: state) },
        modifiers: { _, r, depressed, latched, locked, group in
            VirtualKeyboard.from(r)?.modifiers(Keymap.Modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        },
        destroy: destroyResource
    ))
}

/// zwp_virtual_keyboard_manager_v1: keyboards clients type with, into the seat.
final class VirtualKeyboards: ServerPart {
    unowned(unsafe) let context: any PartContext
    private let seat: Seat
    private let transientSeats: TransientSeats
    private var global: Global?

    init(display: OpaquePointer, context: any PartContext, seat: Seat, transientSeats: TransientSeats) {
        self.context = context
        self.seat = seat
        self.transientSeats = transientSeats
        global = Global(display: display, interface: tactile_zwp_virtual_keyboard_manager_v1_interface(), version: VirtualKeyboard.version,
                        context: self, requests: Self.requests, privilege: .inputInjection)
    }

    private static let requests = RequestTable(zwp_virtual_keyboard_manager_v1_interface(
        create_virtual_keyboard: { client, manager, seat, id in
            guard let client, let part = Global.context(of: manager, as: VirtualKeyboards.self) else { return }
            VirtualKeyboard(part: part, seat: part.transientSeats.choice(for: seat)).bind(client: client, interface: tactile_zwp_virtual_keyboard_v1_interface(), version: 1,
                                             id: id, implementation: VirtualKeyboard.requests)
        }
    ))

    /// A virtual keyboard's key: routed like a real one (the time is the server's: a client's
    /// clock could run backwards), heard under its keymap, on the seat it was created on. Its
    /// modifiers do not follow its keys; it states them.
    fileprivate func key(_ key: UInt32, _ state: PressState, under keymap: Keymap, on choice: TransientSeats.Choice) {
        switch choice {
        case .main:
            seat.activeKeymap = keymap
            context.routeVirtualKey(key, state)
        case .transient(let transient) where !transient.hasEnded:
            transient.seat.activeKeymap = keymap
            transient.handle(.key(key: key, state: state, time: context.currentTime))
        case .transient, .ended: break
        }
    }

    /// A virtual keyboard stated its modifiers: the client focused on its seat hears them.
    fileprivate func modifiers(under keymap: Keymap, on choice: TransientSeats.Choice) {
        switch choice {
        case .main:
            seat.activeKeymap = keymap
            seat.sendModifiers(toFocused: context.keyboardFocusClient)
        case .transient(let transient) where !transient.hasEnded:
            transient.seat.activeKeymap = keymap
            transient.sendModifiers()
        case .transient, .ended: break
        }
    }
}
