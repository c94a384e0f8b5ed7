import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// text-input v3 and input-method v2 with real clients, beyond what WLCS covers: one input
/// method per seat, its keyboard grab, its popup under the field's cursor, and text input
/// staying with the field while an on-screen keyboard is touched.
@Suite struct TextInputOverTheWireTests {
    let server: TestServer
    let app: TestClient
    let osk: TestClient

    init() throws {
        server = try TestServer()
        app = try TestClient(socket: server.socket)
        osk = try TestClient(socket: server.socket)
    }

    /// A window at the origin with an enabled text field whose cursor is at (10, 20), 5 × 15.
    func field() throws -> (Window, OpaquePointer) {
        let window = try app.toplevel(width: 200, height: 200, at: (0, 0))
        let input = try #require(zwp_text_input_manager_v3_get_text_input(app.textInputManager, app.seat))
        try app.roundtrip()
        zwp_text_input_v3_enable(input)
        zwp_text_input_v3_set_surrounding_text(input, "hello", 5, 5)
        zwp_text_input_v3_set_cursor_rectangle(input, 10, 20, 5, 15)
        zwp_text_input_v3_commit(input)
        try app.roundtrip()
        return (window, input)
    }

    @Test func aSecondInputMethodIsUnavailable() throws {
        let first = InputMethodClient(client: osk)
        let second = InputMethodClient(client: osk)
        try osk.roundtrip()
        #expect(first.events.isEmpty)
        #expect(second.events == ["unavailable"])
        _ = try field()
        try osk.roundtrip()
        #expect(first.events.starts(with: ["activate", "surrounding_text(hello, 5, 5)"]) && first.events.last == "done")
        #expect(second.events == ["unavailable"])
    }

    @Test func theKeyboardGrabTakesRealKeysWhileItIsHeld() throws {
        let method = InputMethodClient(client: osk)
        _ = try field()
        method.grabKeyboard()
        try osk.roundtrip()
        _ = app.take()
        try osk.inject { input in
            tactile_test_input_v1_key(input, 30, 1)
            tactile_test_input_v1_key(input, 30, 0)
        }
        try osk.roundtrip()
        try app.roundtrip()
        #expect(method.grabbedKeys.map(\.0) == [30, 30])
        #expect(!app.take().contains { if case .key = $0 { true } else { false } }, "a grabbed key reached the app")

        method.releaseKeyboard()
        try osk.roundtrip()
        try osk.inject { input in
            tactile_test_input_v1_key(input, 31, 1)
            tactile_test_input_v1_key(input, 31, 0)
        }
        try app.roundtrip()
        #expect(app.take().filter { if case .key = $0 { true } else { false } } == [.key(key: 31, state: 1), .key(key: 31, state: 0)])
    }

    @Test func itsPopupSitsUnderTheFieldsCursorAndTouchesOnAPanelKeepTheField() throws {
        let method = InputMethodClient(client: osk)
        let (window, _) = try field()
        let surface = wl_compositor_create_surface(osk.compositor)!
        _ = zwp_input_method_v2_get_input_popup_surface(method.inputMethod, surface)
        try osk.commitBuffer(surface, width: 40, height: 30)
        try osk.roundtrip()
        // Under the cursor rectangle (10, 20, 5 × 15): from (10, 35).
        #expect(try osk.surfaceHit(at: 12, 37) == osk.id(surface))
        #expect(try app.surfaceHit(at: 8, 37) == app.id(window.surface))

        // A keyboard panel of the input method's client: touching it leaves the field active.
        let panel = LayerClientSurface(client: osk, layer: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue, namespace: "osk")
        zwlr_layer_surface_v1_set_anchor(panel.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue)
        zwlr_layer_surface_v1_set_size(panel.layerSurface, 300, 100)
        wl_surface_commit(panel.surface)
        try osk.roundtrip()
        try panel.map(client: osk)
        method.events.removeAll()
        let bottom = Double(try #require(app.outputModes.values.first).height) - 10
        #expect(try osk.surfaceHit(at: 640, bottom) == osk.id(panel.surface))
        try osk.roundtrip()
        #expect(!method.events.contains("deactivate"), "touching the keyboard panel deactivated the input method")
    }
}
