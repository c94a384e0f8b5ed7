import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// zxdg_shell_v6 and wl_shell: older toolkits' windows get touches like any other.
@Suite struct OlderShellTests {
    let server: TestServer
    let client: TestClient

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
    }

    /// A zxdg_shell_v6 toplevel: configure, ack, buffer.
    func v6Toplevel(width: Int32, height: Int32) throws -> (surface: OpaquePointer, xdg: OpaquePointer) {
        let surface = wl_compositor_create_surface(client.compositor)!
        let xdg = zxdg_shell_v6_get_xdg_surface(client.shellV6, surface)!
        let serial = SerialBox()
        zxdg_surface_v6_add_listener(xdg, v6SurfaceListener, Unmanaged.passUnretained(serial).toOpaque())
        let toplevel = zxdg_surface_v6_get_toplevel(xdg)
        zxdg_toplevel_v6_add_listener(toplevel, v6ToplevelListener, nil)
        wl_surface_commit(surface)
        try client.roundtrip()
        let configured = try #require(serial.value, "no zxdg_surface_v6.configure after the initial commit")
        zxdg_surface_v6_ack_configure(xdg, configured)
        try client.commitBuffer(surface, width: width, height: height)
        try client.roundtrip()
        return (surface, xdg)
    }

    @Test func aV6ToplevelTakesTouchesInItsCoordinates() throws {
        let window = try v6Toplevel(width: 200, height: 100)
        tactile_test_input_v1_move_toplevel(client.testInput, window.surface, 300, 200)
        try client.roundtrip()
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(310.5), f(250))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(window.surface), id: 1, x: f(10.5), y: f(50)), .touchFrame])
    }

    @Test func aV6PopupIsPlacedFromBitmaskAnchorAndGravity() throws {
        let parent = try v6Toplevel(width: 200, height: 200)
        tactile_test_input_v1_move_toplevel(client.testInput, parent.surface, 100, 100)
        let positioner = zxdg_shell_v6_create_positioner(client.shellV6)
        zxdg_positioner_v6_set_size(positioner, 40, 30)
        zxdg_positioner_v6_set_anchor_rect(positioner, 0, 0, 50, 50)
        zxdg_positioner_v6_set_anchor(positioner, ZXDG_POSITIONER_V6_ANCHOR_BOTTOM.rawValue | ZXDG_POSITIONER_V6_ANCHOR_RIGHT.rawValue)
        zxdg_positioner_v6_set_gravity(positioner, ZXDG_POSITIONER_V6_GRAVITY_BOTTOM.rawValue | ZXDG_POSITIONER_V6_GRAVITY_RIGHT.rawValue)
        let popupSurface = wl_compositor_create_surface(client.compositor)!
        let popupXdg = zxdg_shell_v6_get_xdg_surface(client.shellV6, popupSurface)
        _ = zxdg_surface_v6_get_popup(popupXdg, parent.xdg, positioner)
        wl_surface_commit(popupSurface)
        try client.roundtrip()
        try client.commitBuffer(popupSurface, width: 40, height: 30)
        #expect(try client.surfaceHit(at: 155, 152) == client.id(popupSurface))
        #expect(try client.surfaceHit(at: 145, 152) == client.id(parent.surface))
        #expect(try client.surfaceHit(at: 191, 152) == client.id(parent.surface))
    }

    @Test func aWlShellToplevelAndItsTransientTakeTouches() throws {
        let surface = wl_compositor_create_surface(client.compositor)!
        let shellSurface = wl_shell_get_shell_surface(client.shell, surface)
        wl_shell_surface_set_toplevel(shellSurface)
        try client.commitBuffer(surface, width: 100, height: 100)
        tactile_test_input_v1_move_toplevel(client.testInput, surface, 400, 300)
        try client.roundtrip()
        #expect(try client.surfaceHit(at: 410, 310) == client.id(surface))
        let transient = wl_compositor_create_surface(client.compositor)!
        let transientShell = wl_shell_get_shell_surface(client.shell, transient)
        wl_shell_surface_set_transient(transientShell, surface, 80, 80, 0)
        try client.commitBuffer(transient, width: 50, height: 50)
        #expect(try client.surfaceHit(at: 490, 390) == client.id(transient))
        #expect(try client.surfaceHit(at: 470, 370) == client.id(surface))
    }
}

private final class SerialBox {
    var value: UInt32?
}

nonisolated(unsafe) private let v6SurfaceListener: UnsafeMutablePointer<zxdg_surface_v6_listener> = {
    let l = UnsafeMutablePointer<zxdg_surface_v6_listener>.allocate(capacity: 1)
    l.initialize(to: zxdg_surface_v6_listener(configure: { data, _, serial in
        Unmanaged<SerialBox>.fromOpaque(data!).takeUnretainedValue().value = serial
    }))
    return l
}()

nonisolated(unsafe) private let v6ToplevelListener: UnsafeMutablePointer<zxdg_toplevel_v6_listener> = {
    let l = UnsafeMutablePointer<zxdg_toplevel_v6_listener>.allocate(capacity: 1)
    l.initialize(to: zxdg_toplevel_v6_listener(configure: { _, _, _, _, _ in }, close: { _, _ in }))
    return l
}()
