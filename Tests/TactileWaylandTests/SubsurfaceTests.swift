import CWaylandClient
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// wl_subsurface as the spec has it, observed through where touches land.
@Suite struct SubsurfaceTests {
    let server: TestServer
    let client: TestClient
    let window: Window

    init() throws {
        server = try TestServer()
        client = try TestClient(socket: server.socket)
        window = try client.toplevel(width: 200, height: 200, at: (100, 100))
    }

    var parent: UInt32 { client.id(window.surface) }

    @Test func aNewSubsurfaceAppearsOnlyWhenItsParentCommits() throws {
        let sub = try client.subsurface(of: window.surface, width: 50, height: 50)
        #expect(try client.surfaceHit(at: 110, 110) == parent)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 110, 110) == client.id(sub.surface))
    }

    @Test func aSynchronizedSubsurfacesCommitWaitsForItsParent() throws {
        let sub = try client.subsurface(of: window.surface, width: 20, height: 20)
        wl_surface_commit(window.surface)
        try client.commitBuffer(sub.surface, width: 100, height: 100)
        #expect(try client.surfaceHit(at: 150, 150) == parent)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 150, 150) == client.id(sub.surface))
    }

    @Test func aDesynchronizedSubsurfaceCommitsOnItsOwn() throws {
        let sub = try client.subsurface(of: window.surface, width: 20, height: 20)
        wl_surface_commit(window.surface)
        wl_subsurface_set_desync(sub.role)
        try client.commitBuffer(sub.surface, width: 100, height: 100)
        #expect(try client.surfaceHit(at: 150, 150) == client.id(sub.surface))
    }

    @Test func setDesyncAppliesCachedStateWhenTheParentIsNotSynchronized() throws {
        let sub = try client.subsurface(of: window.surface, width: 20, height: 20)
        wl_surface_commit(window.surface)
        try client.commitBuffer(sub.surface, width: 100, height: 100)
        #expect(try client.surfaceHit(at: 150, 150) == parent)
        wl_subsurface_set_desync(sub.role)
        #expect(try client.surfaceHit(at: 150, 150) == client.id(sub.surface))
    }

    @Test func setPositionTakesEffectOnTheParentsCommitAndMayLeaveTheParent() throws {
        let sub = try client.subsurface(of: window.surface, width: 50, height: 50)
        wl_surface_commit(window.surface)
        wl_subsurface_set_position(sub.role, -60, 10)
        #expect(try client.surfaceHit(at: 45, 115) == nil)
        wl_surface_commit(window.surface)
        try client.roundtrip()
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(45.5), f(115))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(sub.surface), id: 1, x: f(5.5), y: f(5)), .touchFrame])
    }

    @Test func aSubsurfacePlacedBelowItsParentIsHitOnlyOutsideIt() throws {
        let sub = try client.subsurface(of: window.surface, width: 300, height: 300)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 150, 150) == client.id(sub.surface))
        wl_subsurface_place_below(sub.role, window.surface)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 150, 150) == parent)
        #expect(try client.surfaceHit(at: 350, 350) == client.id(sub.surface))
    }

    @Test func placeAboveASiblingReordersOnTheParentsCommit() throws {
        let a = try client.subsurface(of: window.surface, width: 50, height: 50)
        let b = try client.subsurface(of: window.surface, width: 50, height: 50)
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 110, 110) == client.id(b.surface))
        wl_subsurface_place_above(a.role, b.surface)
        #expect(try client.surfaceHit(at: 110, 110) == client.id(b.surface))
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 110, 110) == client.id(a.surface))
    }

    @Test func aNestedSubsurfaceFollowsItsSynchronizedParent() throws {
        let middle = try client.subsurface(of: window.surface, width: 20, height: 20)
        wl_surface_commit(window.surface)
        let inner = try client.subsurface(of: middle.surface, width: 10, height: 10)
        wl_subsurface_set_desync(inner.role)
        wl_surface_commit(middle.surface)
        #expect(try client.surfaceHit(at: 105, 105) == client.id(middle.surface))
        wl_surface_commit(window.surface)
        #expect(try client.surfaceHit(at: 105, 105) == client.id(inner.surface))
    }

    @Test func destroyingTheSubsurfaceUnmapsItAtOnce() throws {
        let sub = try client.subsurface(of: window.surface, width: 50, height: 50)
        wl_surface_commit(window.surface)
        wl_subsurface_destroy(sub.role)
        #expect(try client.surfaceHit(at: 110, 110) == parent)
    }

    @Test func nestingDeeperThanSixtyFourLevelsIsRefused() throws {
        let offender = try TestClient(socket: server.socket)
        var deepest = wl_compositor_create_surface(offender.compositor)!
        for _ in 0..<64 {
            let child = wl_compositor_create_surface(offender.compositor)!
            _ = wl_subcompositor_get_subsurface(offender.subcompositor, child, deepest)
            deepest = child
        }
        try offender.roundtrip()
        let tooDeep = wl_compositor_create_surface(offender.compositor)!
        _ = wl_subcompositor_get_subsurface(offender.subcompositor, tooDeep, deepest)
        #expect(throws: ClientError.self) { try offender.roundtrip() }
        #expect(offender.lastError.hasPrefix("wl_subcompositor#") && offender.lastError.hasSuffix(": \(WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue)"))
        #expect(try client.surfaceHit(at: 150, 150) == parent)
    }

    @Test func protocolErrorsForBadSurfacesAndCycles() throws {
        for misbehave in [
            { (c: TestClient) in
                let s = wl_compositor_create_surface(c.compositor)
                _ = wl_subcompositor_get_subsurface(c.subcompositor, s, s)
            },
            { (c: TestClient) in
                let a = wl_compositor_create_surface(c.compositor), b = wl_compositor_create_surface(c.compositor)
                _ = wl_subcompositor_get_subsurface(c.subcompositor, a, b)
                _ = wl_subcompositor_get_subsurface(c.subcompositor, b, a)
            },
        ] {
            let offender = try TestClient(socket: server.socket)
            misbehave(offender)
            #expect(throws: ClientError.self) { try offender.roundtrip() }
            #expect(offender.lastError.hasPrefix("wl_subcompositor#") && offender.lastError.hasSuffix(": \(WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue)"))
        }
        let offender = try TestClient(socket: server.socket)
        let w = try offender.toplevel(width: 10, height: 10)
        let stranger = wl_compositor_create_surface(offender.compositor)
        let sub = try offender.subsurface(of: w.surface, width: 5, height: 5)
        wl_subsurface_place_above(sub.role, stranger)
        #expect(throws: ClientError.self) { try offender.roundtrip() }
        #expect(offender.lastError.hasPrefix("wl_subsurface#") && offender.lastError.hasSuffix(": \(WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue)"))
        #expect(try client.surfaceHit(at: 150, 150) == parent)
    }
}
