import CWaylandClient
import CXKBCommon
import Glibc
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// DESIGN.md §1.4 over a real socket: pointer focus with implicit grab, keyboard keymap and focus.
@Suite struct PointerAndKeyboardOverTheWireTests {
    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    @Test func thePointerEntersLeavesAndIsHeldByAPressedButton() throws {
        let a = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let b = try client.toplevel(width: 100, height: 100, at: (200, 0))
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(50), f(50))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_motion(input, f(250), f(50))
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [
            .pointerEnter(surface: client.id(a.surface), x: f(50), y: f(50)), .pointerFrame,
            .pointerButton(button: 0x110, state: 1), .pointerFrame,
            .pointerMotion(x: f(250), y: f(50)), .pointerFrame,
            .pointerButton(button: 0x110, state: 0), .pointerFrame,
            .pointerLeave(surface: client.id(a.surface)), .pointerFrame,
            .pointerEnter(surface: client.id(b.surface), x: f(50), y: f(50)), .pointerFrame,
        ])
    }

    @Test func aWindowWhoseRoleIsDestroyedIsLeftByPointerAndKeyboardBeforeTheOneBelowIsEntered() throws {
        let below = try client.toplevel(width: 200, height: 200, at: (0, 0))
        let above = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(50), f(50))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
            tactile_test_input_v1_pointer_button(input, 0x110, 0)
        }
        _ = client.take()
        xdg_toplevel_destroy(above.toplevel)
        try client.roundtrip()
        #expect(client.take() == [
            .pointerLeave(surface: client.id(above.surface)), .pointerFrame,
            .pointerEnter(surface: client.id(below.surface), x: f(50), y: f(50)), .pointerFrame,
            .keyboardLeave(surface: client.id(above.surface)),
        ])
    }

    @Test func aWheelStepArrivesAsAxisWithAFrame() throws {
        _ = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.inject { tactile_test_input_v1_pointer_motion($0, f(50), f(50)) }
        _ = client.take()
        try client.inject { tactile_test_input_v1_pointer_axis($0, 0, f(15), 0, 120) }
        #expect(client.take() == [.pointerAxis(axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value: f(15)), .pointerFrame])
    }

    @Test func theKeymapIsASealedReadOnlyFileThatCompiles() throws {
        let keymap = try #require(client.keymap)
        #expect(keymap.format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue)
        #expect(keymap.size > 1000)
        #expect(lseek(keymap.fd, 0, SEEK_END) == off_t(keymap.size))
        let mapped = try #require(mmap(nil, Int(keymap.size), PROT_READ, MAP_PRIVATE, keymap.fd, 0))
        defer { munmap(mapped, Int(keymap.size)) }
        #expect(mapped != MAP_FAILED)
        let writable = mmap(nil, Int(keymap.size), PROT_READ | PROT_WRITE, MAP_SHARED, keymap.fd, 0)
        #expect(writable == MAP_FAILED, "a client must not be able to change the shared keymap")
        let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        defer { xkb_context_unref(context) }
        let compiled = xkb_keymap_new_from_string(context, mapped.assumingMemoryBound(to: CChar.self), XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        #expect(compiled != nil)
        xkb_keymap_unref(compiled)
    }

    /// Focus policy: a window takes keyboard focus when it first maps; touching another one
    /// moves focus there, and keys then go to it with their modifiers.
    @Test func aNewWindowTakesFocusThenTouchingAnotherMovesItAndShiftReportsAModifier() throws {
        let first = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let second = try client.toplevel(width: 100, height: 100, at: (200, 0))
        #expect(client.take().filter(\.isKeyboard) == [
            .keyboardEnter(surface: client.id(first.surface), keys: []),
            .modifiers(depressed: 0, locked: 0),
            .keyboardLeave(surface: client.id(first.surface)),
            .keyboardEnter(surface: client.id(second.surface), keys: []),
            .modifiers(depressed: 0, locked: 0),
        ])
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_key(input, 42, 1)  // KEY_LEFTSHIFT
            tactile_test_input_v1_key(input, 30, 1)  // KEY_A
        }
        #expect(client.take().filter(\.isKeyboard) == [
            .keyboardLeave(surface: client.id(second.surface)),
            .keyboardEnter(surface: client.id(first.surface), keys: []),
            .modifiers(depressed: 0, locked: 0),
            .key(key: 42, state: 1),
            .modifiers(depressed: 1, locked: 0),
            .key(key: 30, state: 1),
        ])
    }

    /// A client that binds a second wl_pointer and wl_keyboard while it has the focus (GTK
    /// binds devices as windows come): the new ones hear the enters the first ones heard, with
    /// the key held and the modifiers, and the first ones hear nothing again.
    @Test func devicesBoundWhileTheClientHasFocusHearItsEnters() throws {
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        try client.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(30), f(40))
            tactile_test_input_v1_key(input, 42, 1)  // KEY_LEFTSHIFT, held
        }
        _ = client.take()
        let name = try #require(client.registryNames["wl_seat"])
        try client.bindSeat(named: name)
        let surface = client.id(window.surface)
        #expect(client.seenOnSeat[name] == [
            .pointerEnter(surface: surface, x: f(30), y: f(40)), .pointerFrame,
            .keyboardEnter(surface: surface, keys: [42]), .modifiers(depressed: 1, locked: 0),
        ])
        #expect(client.take().isEmpty, "the devices bound first heard no second enter")
    }

    @Test func withFocusNewWindowsOffAWindowWaitsForATouchToTakeTheKeyboard() throws {
        let server = try TestServer(.init(newWindowFocus: .never))
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        #expect(client.take().filter(\.isKeyboard) == [])
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter(\.isKeyboard).first == .keyboardEnter(surface: client.id(window.surface), keys: []))
    }
}
