import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// xdg_wm_dialog_v1: while a modal dialog is up, its parent takes no touches (they reach no
/// one, not the window below), the dialog does, and raising the parent brings the dialog
/// above it again; unset, the parent is touchable again.
@Suite(.serialized) struct DialogTests {
    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    /// The surface a tap at (x, y) reached, or nil.
    func tapped(_ x: Double, _ y: Double) throws -> UInt32? { try client.surfaceHit(at: x, y) }

    /// Docks' handles, to raise a window as a task bar does.
    final class Dock {
        var handles: [(proxy: OpaquePointer, title: String?)] = []
        nonisolated(unsafe) static let managerListener: UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener> = {
            let pointer = UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: zwlr_foreign_toplevel_manager_v1_listener(
                toplevel: { data, _, handle in
                    let dock = Unmanaged<Dock>.fromOpaque(data!).takeUnretainedValue()
                    dock.handles.append((handle!, nil))
                    zwlr_foreign_toplevel_handle_v1_add_listener(handle, Dock.handleListener, data)
                },
                finished: { _, _ in }
            ))
            return pointer
        }()
        nonisolated(unsafe) static let handleListener: UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener> = {
            let pointer = UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
            pointer.initialize(to: zwlr_foreign_toplevel_handle_v1_listener(
                title: { data, handle, title in
                    let dock = Unmanaged<Dock>.fromOpaque(data!).takeUnretainedValue()
                    if let i = dock.handles.firstIndex(where: { $0.proxy == handle }) { dock.handles[i].title = String(cString: title!) }
                },
                app_id: { _, _, _ in }, output_enter: { _, _, _ in }, output_leave: { _, _, _ in }, state: { _, _, _ in },
                done: { _, _ in }, closed: { _, _ in }, parent: { _, _, _ in }
            ))
            return pointer
        }()
    }

    @Test func aModalDialogKeepsItsParentFromInputAndStaysAboveIt() throws {
        let parent = try client.toplevel(width: 300, height: 200, at: (0, 0))
        xdg_toplevel_set_title(parent.toplevel, "parent")
        let behind = try client.toplevel(width: 400, height: 300, at: (0, 0))
        tactile_test_input_v1_move_toplevel(client.testInput, behind.surface, 0, 0)
        // The parent above the window behind it: raised by the dock below.
        let dock = Dock()
        let manager = try client.bind("zwlr_foreign_toplevel_manager_v1", tactile_zwlr_foreign_toplevel_manager_v1_interface(), version: 3)
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, Dock.managerListener, Unmanaged.passUnretained(dock).toOpaque())
        try client.roundtrip()
        let parentHandle = try #require(dock.handles.first { $0.title == "parent" }?.proxy)
        zwlr_foreign_toplevel_handle_v1_activate(parentHandle, client.seat)
        try client.roundtrip()
        #expect(try tapped(250, 150) == client.id(parent.surface), "the parent, raised")

        let dialog = try client.toplevel(width: 100, height: 80, at: (100, 60))
        xdg_toplevel_set_parent(dialog.toplevel, parent.toplevel)
        let dialogs = try client.bind("xdg_wm_dialog_v1", tactile_xdg_wm_dialog_v1_interface())
        let modal = try #require(xdg_wm_dialog_v1_get_xdg_dialog(dialogs, dialog.toplevel))
        xdg_dialog_v1_set_modal(modal)
        try client.roundtrip()
        #expect(try tapped(250, 150) == nil, "the parent takes no touch, and it does not fall through to the window behind")
        #expect(try tapped(120, 70) == client.id(dialog.surface), "the dialog does")

        // A dock raises the parent: its modal dialog comes above it again.
        zwlr_foreign_toplevel_handle_v1_activate(parentHandle, client.seat)
        try client.roundtrip()
        #expect(try tapped(120, 70) == client.id(dialog.surface), "still above its parent")
        #expect(try tapped(250, 150) == nil)

        xdg_dialog_v1_unset_modal(modal)
        try client.roundtrip()
        #expect(try tapped(250, 150) == client.id(parent.surface), "not modal: the parent is touchable again")
        xdg_dialog_v1_set_modal(modal)
        try client.roundtrip()
        #expect(try tapped(250, 150) == nil)
        xdg_toplevel_destroy(dialog.toplevel)
        try client.roundtrip()
        #expect(try tapped(250, 150) == client.id(parent.surface), "the dialog closed: the parent is free")
    }

    @Test func aLoopOfParentsAndASecondDialogObjectAreErrors() throws {
        let a = try client.toplevel(width: 100, height: 100)
        let b = try client.toplevel(width: 100, height: 100)
        xdg_toplevel_set_parent(b.toplevel, a.toplevel)
        xdg_toplevel_set_parent(a.toplevel, b.toplevel)
        #expect(throws: (any Error).self) { try client.roundtrip() }
        #expect(client.lastError == "xdg_toplevel#\(client.id(a.toplevel)): \(XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue)")

        let other = try TestClient(socket: server.socket)
        let window = try other.toplevel(width: 100, height: 100)
        let dialogs = try other.bind("xdg_wm_dialog_v1", tactile_xdg_wm_dialog_v1_interface())
        _ = xdg_wm_dialog_v1_get_xdg_dialog(dialogs, window.toplevel)
        _ = xdg_wm_dialog_v1_get_xdg_dialog(dialogs, window.toplevel)
        #expect(throws: (any Error).self) { try other.roundtrip() }
        #expect(other.lastError.hasPrefix("xdg_wm_dialog_v1#") && other.lastError.hasSuffix(": 0"), "already_used: \(other.lastError)")
    }
}
