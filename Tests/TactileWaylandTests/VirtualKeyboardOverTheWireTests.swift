import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// zwp_virtual_keyboard_v1 with real clients: its keys reach the focused client under its own
/// keymap, and keys without a usable keymap are a protocol error.
@Suite struct VirtualKeyboardOverTheWireTests {
    let server: TestServer
    let app: TestClient

    init() throws {
        server = try TestServer()
        app = try TestClient(socket: server.socket)
    }

    /// The keymap the seat sent the app: a valid XKB keymap to type with.
    func seatKeymap() throws -> String { try app.seatKeymapText() }

    @Test func itsKeysReachTheFocusedClientUnderItsKeymap() throws {
        let window = try app.toplevel(width: 100, height: 100)
        try app.roundtrip()
        let seatKeymapFD = app.keymap?.fd
        _ = app.take()
        let osk = try TestClient(socket: server.socket, devices: [])
        let keyboard = try #require(zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(osk.virtualKeyboardManager, osk.seat))
        let file = keymapFile(try seatKeymap())
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, file.size)
        close(file.fd)
        zwp_virtual_keyboard_v1_key(keyboard, 0, 30, WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        zwp_virtual_keyboard_v1_key(keyboard, 0, 30, WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        try osk.roundtrip()
        try app.roundtrip()
        #expect(app.take().filter { if case .key = $0 { true } else { false } } == [.key(key: 30, state: 1), .key(key: 30, state: 0)])
        #expect(app.keymap?.fd != seatKeymapFD, "the app was not sent the virtual keyboard's keymap before its keys")
        _ = window
    }

    @Test func aKeyWithoutAUsableKeymapIsAProtocolError() throws {
        for keymap in [nil, "not a keymap", ""] {
            let osk = try TestClient(socket: server.socket, devices: [])
            let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(osk.virtualKeyboardManager, osk.seat)
            if let keymap {
                let file = keymapFile(keymap)
                // A size past the end of the file is read as far as the file goes.
                zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, file.fd, file.size + 4096)
                close(file.fd)
            }
            zwp_virtual_keyboard_v1_key(keyboard, 0, 30, WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
            #expect(throws: ClientError.self) { try osk.roundtrip() }
            #expect(osk.lastError.hasPrefix("zwp_virtual_keyboard_v1#") && osk.lastError.hasSuffix(": \(ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue)"))
        }
        try app.roundtrip()
    }
}
