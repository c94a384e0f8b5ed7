import CWaylandClient
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// wlr-layer-shell with real clients: a keyboard panel along the bottom takes its strip from a
/// kiosk app, touches on it go to it without moving keyboard focus, layers stack around
/// windows, and bad requests are protocol errors.
@Suite struct LayerShellOverTheWireTests {
    /// A panel along the bottom edge, as an on-screen keyboard makes it: full width, 300 high,
    /// keeping windows out of its strip, never taking keys.
    func keyboardPanel(_ client: TestClient) throws -> LayerClientSurface {
        let panel = LayerClientSurface(client: client, layer: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue, namespace: "osk")
        zwlr_layer_surface_v1_set_anchor(panel.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue)
        zwlr_layer_surface_v1_set_size(panel.layerSurface, 0, 300)
        zwlr_layer_surface_v1_set_exclusive_zone(panel.layerSurface, 300)
        wl_surface_commit(panel.surface)
        try client.roundtrip()
        return panel
    }

    @Test func aKioskAppShrinksAboveAKeyboardPanelAndGrowsBackWhenItGoes() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let app = try TestClient(socket: server.socket)
        let osk = try TestClient(socket: server.socket)
        let output = try #require(app.outputModes.values.first)
        let window = try app.toplevel(width: 100, height: 100)
        try app.roundtrip()
        #expect(window.configuredSize?.width == output.width && window.configuredSize?.height == output.height)

        let panel = try keyboardPanel(osk)
        #expect(panel.configure?.width == UInt32(output.width) && panel.configure?.height == 300)
        try panel.map(client: osk)
        try app.roundtrip()
        #expect(window.configuredSize?.width == output.width && window.configuredSize?.height == output.height - 300)

        // The panel's keys are touched; the app keeps keyboard focus, as a text field must.
        _ = app.take()
        #expect(try osk.surfaceHit(at: 50, Double(output.height) - 10) == osk.id(panel.surface))
        #expect(try app.surfaceHit(at: 50, 50) == app.id(window.surface))
        try app.roundtrip()
        #expect(!app.take().contains { if case .keyboardLeave = $0 { true } else { false } }, "the app lost keyboard focus to the panel")

        zwlr_layer_surface_v1_destroy(panel.layerSurface)
        try osk.roundtrip()
        try app.roundtrip()
        #expect(window.configuredSize?.width == output.width && window.configuredSize?.height == output.height)
    }

    /// A dock in the top left corner is anchored to two edges: only its exclusive edge (v5)
    /// says which one its zone takes from a kiosk window.
    @Test func aCornerPanelTakesItsZoneFromItsExclusiveEdge() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let app = try TestClient(socket: server.socket)
        let output = try #require(app.outputModes.values.first)
        let window = try app.toplevel(width: 100, height: 100)
        let dock = LayerClientSurface(client: app, layer: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue, namespace: "dock")
        zwlr_layer_surface_v1_set_anchor(dock.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue)
        zwlr_layer_surface_v1_set_size(dock.layerSurface, 64, 64)
        zwlr_layer_surface_v1_set_exclusive_zone(dock.layerSurface, 64)
        wl_surface_commit(dock.surface)
        try app.roundtrip()
        try dock.map(client: app)
        #expect(window.configuredSize?.width == output.width && window.configuredSize?.height == output.height, "a corner without an exclusive edge took a strip")
        zwlr_layer_surface_v1_set_exclusive_edge(dock.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue)
        wl_surface_commit(dock.surface)
        try app.roundtrip()
        #expect(window.configuredSize?.width == output.width - 64 && window.configuredSize?.height == output.height)
        // Its 100 × 100 buffer now starts at x = 64, right of the strip.
        #expect(try app.surfaceHit(at: 130, 50) == app.id(window.surface), "the kiosk window did not move right of the dock's strip")
        // An edge it is not anchored to is an error.
        zwlr_layer_surface_v1_set_exclusive_edge(dock.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue)
        wl_surface_commit(dock.surface)
        #expect(throws: ClientError.self) { try app.roundtrip() }
        #expect(app.lastError.hasSuffix(": \(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_EXCLUSIVE_EDGE.rawValue)"))
    }

    @Test func backgroundLayersStackBelowWindowsAndOverlaysAbove() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 400, height: 400, at: (0, 0))
        var surfaces: [UInt32: LayerClientSurface] = [:]
        for layer in [ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY] {
            let surface = LayerClientSurface(client: client, layer: layer.rawValue)
            zwlr_layer_surface_v1_set_anchor(surface.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue)
            zwlr_layer_surface_v1_set_size(surface.layerSurface, 200, 200)
            wl_surface_commit(surface.surface)
            try client.roundtrip()
            try surface.map(client: client)
            surfaces[layer.rawValue] = surface
        }
        // The overlay covers the window's corner; the wallpaper shows only beside the window.
        #expect(try client.surfaceHit(at: 50, 50) == client.id(surfaces[ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue]!.surface))
        #expect(try client.surfaceHit(at: 300, 300) == client.id(window.surface))
        // Moved to the background with the other, it is under the window too.
        let overlay = surfaces[ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue]!
        zwlr_layer_surface_v1_set_layer(overlay.layerSurface, ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue)
        wl_surface_commit(overlay.surface)
        #expect(try client.surfaceHit(at: 50, 50) == client.id(window.surface))
    }

    /// Runs `misbehave` on a fresh client and returns the error it got ("interface#id: code").
    func errorAfter(_ server: TestServer, _ misbehave: (TestClient) throws -> Void) throws -> String {
        let offender = try TestClient(socket: server.socket)
        try misbehave(offender)
        #expect(throws: ClientError.self) { try offender.roundtrip() }
        return offender.lastError
    }

    @Test func badLayerRequestsAreProtocolErrors() throws {
        let server = try TestServer()
        let bystander = try TestClient(socket: server.socket)
        let window = try bystander.toplevel(width: 100, height: 100)
        // A zero size must be anchored on both sides of it.
        let unanchored = try errorAfter(server) { c in
            let surface = LayerClientSurface(client: c, layer: 2)
            zwlr_layer_surface_v1_set_anchor(surface.layerSurface, ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue)
            zwlr_layer_surface_v1_set_size(surface.layerSurface, 0, 100)
            wl_surface_commit(surface.surface)
        }
        #expect(unanchored.hasPrefix("zwlr_layer_surface_v1#") && unanchored.hasSuffix(": \(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue)"))
        let layer = try errorAfter(server) { c in _ = LayerClientSurface(client: c, layer: 4) }
        #expect(layer.hasPrefix("zwlr_layer_shell_v1#") && layer.hasSuffix(": \(ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue)"))
        let anchor = try errorAfter(server) { c in
            zwlr_layer_surface_v1_set_anchor(LayerClientSurface(client: c, layer: 2).layerSurface, 16)
        }
        #expect(anchor.hasPrefix("zwlr_layer_surface_v1#") && anchor.hasSuffix(": \(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue)"))
        let role = try errorAfter(server) { c in
            let surface = wl_compositor_create_surface(c.compositor)
            _ = xdg_wm_base_get_xdg_surface(c.wmBase, surface)
            _ = zwlr_layer_shell_v1_get_layer_surface(c.layerShell, surface, nil, 2, "x")
        }
        #expect(role.hasPrefix("zwlr_layer_shell_v1#") && role.hasSuffix(": \(ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue)"))
        // Margins wider than the output leave no room: closed, not an error.
        let squeezed = LayerClientSurface(client: bystander, layer: 2)
        zwlr_layer_surface_v1_set_anchor(squeezed.layerSurface, 15)
        zwlr_layer_surface_v1_set_margin(squeezed.layerSurface, Int32.max, Int32.max, Int32.max, Int32.max)
        wl_surface_commit(squeezed.surface)
        try bystander.roundtrip()
        #expect(squeezed.closed)
        #expect(try bystander.surfaceHit(at: 10, 10) == bystander.id(window.surface))
    }
}
