import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Bad requests get the protocol error the spec names, the offender is disconnected, and
/// nobody else notices.
@Suite struct ProtocolErrorTests {
    let server: TestServer
    let bystander: TestClient

    init() throws {
        server = try TestServer()
        bystander = try TestClient(socket: server.socket)
    }

    /// Runs `misbehave` on a fresh client and returns the error it got ("interface#id: code").
    func errorAfter(_ misbehave: (TestClient) throws -> Void) throws -> String {
        let offender = try TestClient(socket: server.socket)
        try misbehave(offender)
        #expect(throws: ClientError.self) { try offender.roundtrip() }
        return offender.lastError
    }

    @Test func aSecondXdgSurfaceForOneSurfaceIsARoleError() throws {
        let error = try errorAfter { c in
            let surface = wl_compositor_create_surface(c.compositor)
            _ = xdg_wm_base_get_xdg_surface(c.wmBase, surface)
            _ = xdg_wm_base_get_xdg_surface(c.wmBase, surface)
        }
        #expect(error.hasPrefix("xdg_wm_base#") && error.hasSuffix(": \(XDG_WM_BASE_ERROR_ROLE.rawValue)"))
        try bystander.roundtrip()
    }

    @Test func aZeroBufferScaleIsInvalidScale() throws {
        let error = try errorAfter { c in
            let surface = wl_compositor_create_surface(c.compositor)
            wl_surface_set_buffer_scale(surface, 0)
        }
        #expect(error.hasPrefix("wl_surface#") && error.hasSuffix(": \(WL_SURFACE_ERROR_INVALID_SCALE.rawValue)"))
        try bystander.roundtrip()
    }

    @Test func aButtonStateThatIsNeitherZeroNorOneIsRefused() throws {
        let error = try errorAfter { c in tactile_test_input_v1_pointer_button(c.testInput, 0x110, 7) }
        #expect(error.hasPrefix("tactile_test_input_v1#") && error.hasSuffix(": \(TACTILE_TEST_INPUT_V1_ERROR_INVALID_STATE.rawValue)"))
        try bystander.roundtrip()
    }

    @Test func theTestInputGlobalIsAbsentUnlessAskedFor() throws {
        let plain = try TestServer(testInput: false)
        let c = try TestClient(socket: plain.socket)
        #expect(c.testInput == nil)
        #expect(c.compositor != nil && c.seat != nil && c.wmBase != nil && c.shm != nil && !c.outputs.isEmpty)
    }
}
