import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// tactile_edge_deferral_v1 (protocol/tactile-edge-deferral-v1.xml) from a real client: the
/// limit event, a deferred stretch of the left edge keeping its touch, the limit cutting off
/// a greedy client, and the protocol errors.
@Suite struct EdgeDeferralOverTheWireTests {
    let server: TestServer
    let client: TestClient
    let window: Window
    let deferral: OpaquePointer

    init() throws {
        var policy = RoutingPolicy()
        policy.edgeDeferralLimit = 150
        server = try TestServer(ServerConfiguration(
            routingPolicy: policy,
            gestures: [GestureBinding(name: "edge", recognizer: EdgeSwipe(edge: .left))]
        ))
        client = try TestClient(socket: server.socket)
        window = try client.toplevel(width: 1280, height: 800, at: (0, 0))
        deferral = tactile_edge_deferral_manager_v1_get_edge_deferral(client.edgeDeferralManager, window.surface)!
        tactile_edge_deferral_v1_add_listener(deferral, Listeners.edgeDeferral, Unmanaged.passUnretained(client).toOpaque())
        try client.roundtrip()
    }

    /// Defers `rect` for the edges and commits.
    func defer_(_ edges: UInt32, _ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) throws {
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, x, y, w, h)
        tactile_edge_deferral_v1_set_region(deferral, edges, region)
        wl_region_destroy(region)
        wl_surface_commit(window.surface)
        try client.roundtrip()
    }

    /// A swipe from the left edge at height y: whether the client was cancelled.
    func swipeCancels(atY y: Double) throws -> Bool {
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(5), f(y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_motion(input, 1, f(150), f(y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        return client.take().contains(.touchCancel)
    }

    @Test func theClientLearnsTheLimit() {
        #expect(client.edgeDeferralLimit == 150)
    }

    /// Deferred only once committed, only on the named edge's stretch, and no more once the
    /// object is destroyed.
    @Test func aDeferredStretchKeepsItsTouchesFromTheEdgeSwipe() throws {
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, 0, 100, 40, 100)
        tactile_edge_deferral_v1_set_region(deferral, TACTILE_EDGE_DEFERRAL_V1_EDGE_LEFT.rawValue, region)
        try client.roundtrip()
        #expect(try swipeCancels(atY: 150), "not yet committed")
        wl_surface_commit(window.surface)
        try client.roundtrip()
        #expect(try !swipeCancels(atY: 150))
        #expect(try swipeCancels(atY: 400))
        tactile_edge_deferral_v1_destroy(deferral)
        try client.roundtrip()
        #expect(try swipeCancels(atY: 150))
    }

    /// A client asking for the whole left edge gets the first 150 px of it.
    @Test func theLimitCutsOffAClientDeferringTheWholeEdge() throws {
        try defer_(TACTILE_EDGE_DEFERRAL_V1_EDGE_LEFT.rawValue | TACTILE_EDGE_DEFERRAL_V1_EDGE_TOP.rawValue, 0, 0, 1280, 800)
        #expect(try !swipeCancels(atY: 20))
        #expect(try !swipeCancels(atY: 140))
        #expect(try swipeCancels(atY: 160))
        #expect(try swipeCancels(atY: 700))
    }

    @Test func anUnknownEdgeIsInvalidEdge() throws {
        tactile_edge_deferral_v1_set_region(deferral, 16, nil)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasPrefix("tactile_edge_deferral_v1#") && client.lastError.hasSuffix(": \(TACTILE_EDGE_DEFERRAL_V1_ERROR_INVALID_EDGE.rawValue)"))
    }

    @Test func aSecondDeferralForTheSurfaceIsAlreadyDeferring() throws {
        _ = tactile_edge_deferral_manager_v1_get_edge_deferral(client.edgeDeferralManager, window.surface)
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": \(TACTILE_EDGE_DEFERRAL_MANAGER_V1_ERROR_ALREADY_DEFERRING.rawValue)"))
    }
}
