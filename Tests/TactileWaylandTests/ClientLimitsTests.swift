import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing

/// What one client may make the server hold (`ClientLimits`, the configuration's `limits`):
/// past a limit that client is cut off with a protocol error that names it, and a client
/// beside it goes on as before.
@Suite struct ClientLimitsTests {
    static func server(bufferSide: Int? = nil, objects: Int? = nil) throws -> TestServer {
        var configuration = ServerConfiguration()
        if let bufferSide { configuration.limits.bufferSide = bufferSide }
        if let objects { configuration.limits.objects = objects }
        return try TestServer(configuration)
    }

    /// A buffer as long as the limit shows; one pixel longer is wl_surface.invalid_size, by
    /// default past 8192 (a sparse file's 16384-wide buffer costs its client nothing).
    @Test(arguments: [(1024, Int32(1024), Int32(1025)), (nil, 8192, 8193)])
    func aBufferLongerThanTheLimitIsInvalidSize(_ limit: Int?, _ fits: Int32, _ tooLong: Int32) throws {
        let server = try Self.server(bufferSide: limit)
        let bystander = try TestClient(socket: server.socket)
        let bystanderWindow = try bystander.toplevel(width: 100, height: 100)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        try client.commitBuffer(window.surface, width: fits, height: 2, colour: 0xff00_0000)
        try client.roundtrip()
        try client.commitBuffer(window.surface, width: 2, height: tooLong, colour: 0xff00_0000)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError == "wl_surface#\(client.id(window.surface)): 2", "wl_surface.invalid_size")
        try bystander.commitBuffer(bystanderWindow.surface, width: 50, height: 50, colour: 0xff00_0000)
        try bystander.roundtrip()
        #expect(try bystander.surfaceHit(at: 10, 10) == bystander.id(bystanderWindow.surface), "the other client is served")
    }

    /// Objects past `limits.objects-per-client` (here 1000 regions more than a client's
    /// own few dozen) end the connection with wl_display's implementation error.
    @Test func objectsPastTheLimitEndTheConnection() throws {
        let server = try Self.server(objects: 1000)
        let bystander = try TestClient(socket: server.socket)
        let client = try TestClient(socket: server.socket)
        for _ in 0..<900 { _ = wl_compositor_create_region(client.compositor) }
        try client.roundtrip()
        for _ in 0..<200 { _ = wl_compositor_create_region(client.compositor) }
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError == "wl_display#1: 3", "wl_display.implementation")
        for _ in 0..<900 { _ = wl_compositor_create_region(bystander.compositor) }
        try bystander.roundtrip()
    }

    /// A client's wl_shm pools are counted too, and past 1000 at once the same error comes.
    @Test func shmPoolsPastTheLimitEndTheConnection() throws {
        let server = try Self.server()
        let client = try TestClient(socket: server.socket)
        let fd = tactile_client_memfd_create("tactile-test-pools")
        #expect(fd >= 0 && ftruncate(fd, 4096) == 0)
        defer { close(fd) }
        for _ in 0..<1000 { _ = wl_shm_create_pool(client.shm, fd, 4096) }
        try client.roundtrip()
        _ = wl_shm_create_pool(client.shm, fd, 4096)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError == "wl_display#1: 3")
    }

    /// Lists that grow with requests and not with objects are bounded too: restacks waiting
    /// for a parent that never commits, and a selection source's MIME types (every client
    /// the selection goes to hears each one).
    @Test func listsGrownByRequestsAreBounded() throws {
        let server = try Self.server()
        let bystander = try TestClient(socket: server.socket)
        let restacker = try TestClient(socket: server.socket)
        let window = try restacker.toplevel(width: 100, height: 100)
        let (_, role) = try restacker.subsurface(of: window.surface, width: 10, height: 10)
        for _ in 0..<4096 { wl_subsurface_place_above(role, window.surface) }
        try restacker.roundtrip()
        wl_subsurface_place_above(role, window.surface)
        #expect(throws: ClientError.self) { try restacker.roundtrip() }
        #expect(restacker.lastError == "wl_display#1: 3")

        let offerer = try TestClient(socket: server.socket)
        let source = try #require(wl_data_device_manager_create_data_source(offerer.dataDeviceManager))
        for k in 0..<256 { wl_data_source_offer(source, "text/x-\(k)") }
        wl_data_source_offer(source, "text/x-0")
        try offerer.roundtrip()
        wl_data_source_offer(source, "text/x-256")
        #expect(throws: ClientError.self) { try offerer.roundtrip() }
        #expect(offerer.lastError == "wl_display#1: 3")
        try bystander.roundtrip()
    }
}
