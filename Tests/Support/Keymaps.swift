import CWaylandClient
import Foundation
import WaylandProtocols

/// A memfd holding `text`, for a virtual keyboard's keymap request.
func keymapFile(_ text: String) -> (fd: Int32, size: UInt32) {
    let fd = tactile_client_memfd_create("test-keymap")
    _ = text.withCString { write(fd, $0, strlen($0) + 1) }
    return (fd, UInt32(text.utf8.count + 1))
}

extension TestClient {
    /// The keymap the seat sent this client: a valid XKB keymap to type with.
    func seatKeymapText() throws -> String {
        guard let keymap else { throw ClientError.protocolError("no wl_keyboard.keymap received") }
        var bytes = [UInt8](repeating: 0, count: Int(keymap.size))
        let read = pread(keymap.fd, &bytes, Int(keymap.size), 0)
        return String(decoding: bytes[..<max(0, read - 1)], as: UTF8.self)
    }

    /// A virtual keyboard of this client typing under `keymap`, on `seat` (a wl_seat proxy;
    /// nil: the first seat).
    func virtualKeyboard(keymap text: String, seat other: OpaquePointer? = nil) throws -> OpaquePointer {
        guard let manager = virtualKeyboardManager, let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, other ?? seat) else {
            throw ClientError.protocolError("no zwp_virtual_keyboard_manager_v1")
        }
        let file = keymapFile(text)
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, file.size)
        close(file.fd)
        return keyboard
    }
}
