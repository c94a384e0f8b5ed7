import CWaylandClient
import Glibc
import WaylandProtocols

/// A test client's zwp_input_method_v2 and what it heard, and its keyboard grab's keys.
final class InputMethodClient {
    let inputMethod: OpaquePointer
    /// Its events by name, in order ("activate", "done", "unavailable", …).
    var events: [String] = []
    /// Keys its keyboard grab received: (key, state).
    var grabbedKeys: [(UInt32, UInt32)] = []
    private(set) var grab: OpaquePointer?

    init(client: TestClient) {
        inputMethod = zwp_input_method_manager_v2_get_input_method(client.inputMethodManager, client.seat)!
        zwp_input_method_v2_add_listener(inputMethod, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func grabKeyboard() {
        grab = zwp_input_method_v2_grab_keyboard(inputMethod)
        zwp_input_method_keyboard_grab_v2_add_listener(grab, Self.grabListener, Unmanaged.passUnretained(self).toOpaque())
    }

    func releaseKeyboard() {
        zwp_input_method_keyboard_grab_v2_release(grab)
        grab = nil
    }

    private static func me(_ data: UnsafeMutableRawPointer?) -> InputMethodClient {
        Unmanaged<InputMethodClient>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<zwp_input_method_v2_listener> = {
        let pointer = UnsafeMutablePointer<zwp_input_method_v2_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_input_method_v2_listener(
            activate: { data, _ in me(data).events.append("activate") },
            deactivate: { data, _ in me(data).events.append("deactivate") },
            surrounding_text: { data, _, text, cursor, anchor in
                me(data).events.append("surrounding_text(\(text.map { String(cString: $0) } ?? ""), \(cursor), \(anchor))")
            },
            text_change_cause: { data, _, _ in me(data).events.append("text_change_cause") },
            content_type: { data, _, _, _ in me(data).events.append("content_type") },
            done: { data, _ in me(data).events.append("done") },
            unavailable: { data, _ in me(data).events.append("unavailable") }
        ))
        return pointer
    }()

    nonisolated(unsafe) private static let grabListener: UnsafeMutablePointer<zwp_input_method_keyboard_grab_v2_listener> = {
        let pointer = UnsafeMutablePointer<zwp_input_method_keyboard_grab_v2_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_input_method_keyboard_grab_v2_listener(
            keymap: { _, _, _, fd, _ in close(fd) },
            key: { data, _, _, _, key, state in me(data).grabbedKeys.append((key, state)) },
            modifiers: { _, _, _, _, _, _, _ in },
            repeat_info: { _, _, _, _ in }
        ))
        return pointer
    }()
}
