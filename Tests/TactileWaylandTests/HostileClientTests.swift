import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// What a buggy or hostile client once did to the server (issue 12's fuzzing finds), each
/// replayed by hand. A server that crashes takes this test process down with it, so each
/// test also shows that a bystander client is still served afterwards.
@Suite struct HostileClientTests {
    let server: TestServer
    let bystander: TestClient

    init() throws {
        server = try TestServer()
        bystander = try TestClient(socket: server.socket)
    }

    /// Runs `body` as a client that disconnects when it returns; then waits past a few
    /// frame-timer ticks and checks the server still answers the bystander.
    private func disconnecting(_ body: (TestClient) throws -> Void) throws {
        try body(TestClient(socket: server.socket))
        usleep(60_000)
        try bystander.roundtrip()
    }

    @Test func aCommittedFrameCallbackOfAClientThatLeftIsNeverCompleted() throws {
        try disconnecting { client in
            let surface = wl_compositor_create_surface(client.compositor)
            _ = wl_surface_frame(surface)
            wl_surface_commit(surface)
            try client.roundtrip()
        }
    }

    /// LeakSanitizer (the AddressSanitizer run of scripts/test) checks this one: the parent
    /// held itself through its pending restack, and stayed after its client left.
    @Test func aSubsurfacePlacedAboveItsParentLeavesNothingBehindWhenItsClientGoes() throws {
        try disconnecting { client in
            let window = try client.toplevel(width: 100, height: 100)
            let subsurface = try client.subsurface(of: window.surface, width: 10, height: 10)
            wl_subsurface_place_above(subsurface.role, window.surface)
            try client.roundtrip()
        }
    }

    /// libwayland destroys a departing client's objects in id order; a callback with a lower
    /// id than its surface is freed before the surface's destroy handler runs.
    @Test func aPendingFrameCallbackWithALowerIDThanItsSurfaceIsFreedOnce() throws {
        try disconnecting { client in
            let regions = [wl_compositor_create_region(client.compositor), wl_compositor_create_region(client.compositor)]
            let surface = wl_compositor_create_surface(client.compositor)
            regions.forEach(wl_region_destroy)
            // The regions' ids come back free; libwayland-client hands out the latest freed id
            // first, which is the roundtrip's own callback's, then the regions'.
            try client.roundtrip()
            let callbacks = [wl_surface_frame(surface), wl_surface_frame(surface)]
            #expect(callbacks.contains { client.id($0) < client.id(surface) })
            try client.roundtrip()
        }
    }
}

extension HostileClientTests {
    @Test func aPopupThatOutlivesItsToplevelLeavesAnotherClientsTouchesAlone() throws {
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100, at: (0, 0))
        let popup = try client.popup(on: window, width: 20, height: 20)
        xdg_toplevel_destroy(window.toplevel)
        try client.roundtrip()
        let other = try bystander.toplevel(width: 200, height: 200, at: (300, 300))
        xdg_popup_destroy(popup)
        try client.roundtrip()
        _ = bystander.take()
        try bystander.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(350), f(360))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let touches = bystander.take().filter { !$0.isKeyboard }
        #expect(touches == [.touchDown(surface: bystander.id(other.surface), id: 1, x: f(50), y: f(60)), .touchFrame, .touchUp(id: 1), .touchFrame])
    }
}

extension TestClient {
    /// A mapped xdg_popup of `width × height` on `parent`, centred on the anchor rectangle.
    /// With `grabSerial`, the popup asks for a grab with it. Its pixels are `colour`.
    func popup(
        on parent: Window, width: Int32, height: Int32, anchorRect: (Int32, Int32, Int32, Int32) = (0, 0, 1, 1), grabSerial: UInt32? = nil,
        colour: UInt32 = 0
    ) throws -> OpaquePointer {
        let positioner = xdg_wm_base_create_positioner(wmBase)
        xdg_positioner_set_size(positioner, width, height)
        xdg_positioner_set_anchor_rect(positioner, anchorRect.0, anchorRect.1, anchorRect.2, anchorRect.3)
        let surface = wl_compositor_create_surface(compositor)
        let xdg = xdg_wm_base_get_xdg_surface(wmBase, surface)
        let popup = xdg_surface_get_popup(xdg, parent.xdgSurface, positioner)!
        xdg_popup_add_listener(popup, Listeners.popup, Unmanaged.passUnretained(self).toOpaque())
        xdg_positioner_destroy(positioner)
        if let grabSerial { xdg_popup_grab(popup, seat, grabSerial) }
        wl_surface_commit(surface)
        try roundtrip()
        try commitBuffer(surface!, width: width, height: height, colour: colour)
        try roundtrip()
        return popup
    }
}

/// Geometry a client sends is the client's arithmetic: sums past int32 must saturate.
extension HostileClientTests {
    @Test func aPopupAnchoredNearInt32MaxIsConfiguredAtTheEdgeOfInt32() throws {
        let window = try bystander.toplevel(width: 100, height: 100)
        let popup = try bystander.popup(on: window, width: 20, height: 20, anchorRect: (2_147_483_000, 0, 2000, 10))
        #expect(bystander.popupConfigures[bystander.id(popup)]?.x == Int32.max)
    }

    @Test func resizingAWindowWhoseGeometryIsInt32MaxWideAsksForInt32Max() throws {
        let window = try bystander.toplevel(width: 100, height: 100, at: (0, 0))
        xdg_surface_set_window_geometry(window.xdgSurface, 0, 0, Int32.max, 100)
        wl_surface_commit(window.surface)
        try bystander.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(50), f(50))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
        }
        xdg_toplevel_resize(window.toplevel, bystander.seat, try #require(bystander.lastButtonSerial), XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue)
        try bystander.roundtrip()
        try bystander.inject { input in tactile_test_input_v1_pointer_motion(input, f(80), f(50)) }
        #expect(window.configuredSize?.width == Int32.max)
    }
}

/// A grab, move or resize must name a serial of the client's recent input: no client takes
/// the keyboard or the pointer on its own.
extension HostileClientTests {
    @Test func aPopupGrabWithSerialZeroIsRefusedAndTheFocusedClientKeepsTheKeyboard() throws {
        _ = try bystander.toplevel(width: 100, height: 100, at: (0, 0))
        let intruder = try TestClient(socket: server.socket, devices: ["keyboard"])
        let window = try intruder.toplevel(width: 100, height: 100, at: (300, 0))
        try bystander.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        _ = bystander.take()
        let popup = try intruder.popup(on: window, width: 20, height: 20, grabSerial: 0)
        try bystander.roundtrip()
        #expect(bystander.take().filter(\.isKeyboard).isEmpty, "no keyboard leave for the focused client")
        #expect(intruder.popupsDone.contains(intruder.id(popup)))
    }

    @Test func aMoveWithAStaleSerialDoesNotTakeThePointer() throws {
        let window = try bystander.toplevel(width: 100, height: 100, at: (0, 0))
        try bystander.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(50), f(50))
            tactile_test_input_v1_pointer_button(input, 0x110, 1)
        }
        xdg_toplevel_move(window.toplevel, bystander.seat, 0)
        try bystander.roundtrip()
        _ = bystander.take()
        try bystander.inject { input in tactile_test_input_v1_pointer_motion(input, f(60), f(50)) }
        #expect(bystander.take() == [.pointerMotion(x: f(60), y: f(50)), .pointerFrame], "the window still has the pointer")
    }
}

/// Regions: every edit costs what its rectangle crosses, and a client's regions together are
/// capped, so no client makes the others wait.
extension HostileClientTests {
    @Test func aClientWhoseRegionsPassTenThousandRectanglesIsDisconnectedWithAReason() throws {
        let client = try TestClient(socket: server.socket)
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, 0, 0, 400, 400)
        #expect(throws: ClientError.self) {
            for k in 0..<20_000 {
                let (x, y) = (Int32(k % 100), Int32(k / 100))
                wl_region_subtract(region, 2 * x + y % 2, 2 * y, 1, 1)
                if k % 1000 == 999 { try client.roundtrip() }  // libwayland-client's buffer is 4 KiB
            }
        }
        #expect(client.lastError == "wl_display#1: 3", "an implementation error, on the display")
        try bystander.roundtrip()
    }

    @Test func fiveThousandHolesInOneRegionAreServedAndHitExactly() throws {
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200, at: (0, 0))
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, 0, 0, 200, 200)
        for k in 0..<4_900 {
            let (x, y) = (Int32(k % 70), Int32(k / 70))
            wl_region_subtract(region, 2 * x + y % 2, 2 * y, 1, 1)
            if k % 1000 == 999 { try client.roundtrip() }
        }
        wl_surface_set_input_region(window.surface, region)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 0.5, 0.5) == nil, "a hole")
        #expect(try client.surfaceHit(at: 1.5, 0.5) == client.id(window.surface))
        #expect(try client.surfaceHit(at: 0.5, 2.5) == client.id(window.surface))
        #expect(try client.surfaceHit(at: 1.5, 2.5) == nil, "a hole of the next row, shifted by one")
    }
}
