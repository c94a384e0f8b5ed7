import CWaylandClient
import Foundation
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
