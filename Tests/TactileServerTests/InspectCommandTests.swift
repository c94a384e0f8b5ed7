import CWaylandClient
import Foundation
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// `tactile inspect` against a running server, as a tester points it at a surface: the
/// scene it lists and the hit test it explains are the ones the server routes by.
@Suite(.serialized) struct InspectCommandTests {
    static let tactile = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tactile").path

    static func inspect(_ socket: String, _ arguments: [String]) throws -> [String] {
        try #require(FileManager.default.isExecutableFile(atPath: tactile), "\(tactile) was not built")
        let result = try runProcess(tactile, ["inspect", "--socket", socket] + arguments, environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// Offering the inspector to `tactile inspect`. `tactile serve` gives it to its own
    /// executable; the server here runs in the tests' process, so the binary is named.
    static var inspecting: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.offersInspector = true
        let binary = URL(fileURLWithPath: tactile).resolvingSymlinksInPath().path
        configuration.privileges.grants[.inspector] = .only(started: true, executables: [binary])
        return configuration
    }

    /// A server offering the inspector, with one client's 400×300 window at `origin`.
    static func inspectableServer(windowAt origin: (Int32, Int32)) throws -> (TestServer, TestClient, Window) {
        let configuration = Self.inspecting
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 400, height: 300, at: origin)
        try client.roundtrip()
        return (server, client, window)
    }

    /// A window at (100, 100) with a subsurface at (50, 50) in it whose input region is its
    /// left half. Inspect names the owner at a point in each half, and a touch at those
    /// points goes where it said.
    @Test func inspectAtAnswersAsTheServerRoutes() throws {
        let (server, client, window) = try Self.inspectableServer(windowAt: (100, 100))
        xdg_toplevel_set_app_id(window.toplevel, "org.example.inspected")
        let (sub, role) = try client.subsurface(of: window.surface, width: 100, height: 100)
        wl_subsurface_set_position(role, 50, 50)
        let region = wl_compositor_create_region(client.compositor)
        wl_region_add(region, 0, 0, 50, 100)
        wl_surface_set_input_region(sub, region)
        wl_region_destroy(region)
        wl_surface_commit(sub)
        wl_surface_commit(window.surface)
        try client.roundtrip()

        let scene = try Self.inspect(server.socket, [])
        #expect(scene.first == "output HEADLESS-1 at=0,0 size=1280x800 scale=1")
        let subLine = scene.first { $0.contains("surface=wl_surface@\(client.id(sub)) role=subsurface") }
        #expect(subLine?.hasPrefix("    node ") == true, "two levels under the background: \(scene)")
        #expect(subLine?.contains("app_id=org.example.inspected") == true)
        #expect(subLine?.contains(" at=150,150 size=100x100 input=0,0,50x100 above-parent frames=") == true, "\(subLine ?? "")")
        // The window's line: where its user sees it, and that it has the keyboard.
        let windowLine = scene.first { $0.contains("surface=wl_surface@\(client.id(window.surface)) role=toplevel") }
        #expect(windowLine?.contains(" window=100,100,400x300 ") == true && windowLine?.hasSuffix(" focused") == true, "\(windowLine ?? "")")

        for (x, y, owner, local) in [(175.0, 175.0, sub, "25,25"), (225, 175, window.surface, "125,75")] {
            let answer = try Self.inspect(server.socket, ["--at", "\(Int(x)),\(Int(y))"])
            let ownerLine = answer.first { $0.hasPrefix("point owner ") }
            #expect(ownerLine?.hasPrefix("point owner surface=wl_surface@\(client.id(owner)) ") == true, "\(answer)")
            #expect(ownerLine?.hasSuffix("local=\(local)") == true, "\(answer)")
            #expect(try client.surfaceHit(at: x, y) == client.id(owner), "the server routes a touch there as inspect said")
        }
        // Right of the input region's extent the subsurface is pruned without a look inside.
        let outside = try Self.inspect(server.socket, ["--at", "225,175"])
        #expect(outside.contains { $0.hasPrefix("point hit-test surface=wl_surface@\(client.id(sub)) ") && $0.hasSuffix("local=75,25 verdict=pruned") }, "\(outside)")
        #expect(outside.contains { $0.hasPrefix("point hit-test surface=wl_surface@\(client.id(window.surface)) ") && $0.hasSuffix("local=125,75 verdict=hit") }, "\(outside)")
    }

    /// `inspect --watch` prints each decision as the server makes it, and keeps going.
    /// Idle blanking on a headless server shows where a user can see it: the inspector
    /// lists the output as off once asleep.
    /// The hints a surface was given: its content type (wp_content_type_v1), alpha
    /// (wp_alpha_modifier_v1) and window icon (xdg_toplevel_icon_v1), on its node's line once
    /// committed; trace lines name the content type too.
    @Test func inspectShowsAWindowsContentTypeAndAlpha() throws {
        let (server, client, window) = try Self.inspectableServer(windowAt: (0, 0))
        let types = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["wp_content_type_manager_v1"]),
                                                   tactile_wp_content_type_manager_v1_interface(), 1))
        let alphas = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["wp_alpha_modifier_v1"]),
                                                    tactile_wp_alpha_modifier_v1_interface(), 1))
        wp_content_type_v1_set_content_type(wp_content_type_manager_v1_get_surface_content_type(types, window.surface), WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue)
        wp_alpha_modifier_surface_v1_set_multiplier(wp_alpha_modifier_v1_get_surface(alphas, window.surface), UInt32.max / 4)
        try client.roundtrip()
        let line = { try Self.inspect(server.socket, []).first { $0.contains("surface=wl_surface@\(client.id(window.surface)) ") } }
        #expect(try line()?.contains("content=") == false, "not before the commit")
        wl_surface_commit(window.surface)
        try client.roundtrip()
        let committed = try #require(try line())
        #expect(committed.contains(" content=video") && committed.contains(" alpha=25%"), "\(committed)")
        let answer = try Self.inspect(server.socket, ["--at", "10,10"])
        #expect(answer.contains { $0.contains("content=video") }, "\(answer)")

        // Its own icon (xdg_toplevel_icon_v1): a name and two pictures, from the next commit.
        let icons = OpaquePointer(wl_registry_bind(client.registry, try #require(client.registryNames["xdg_toplevel_icon_manager_v1"]),
                                                   tactile_xdg_toplevel_icon_manager_v1_interface(), 1))
        let icon = xdg_toplevel_icon_manager_v1_create_icon(icons)
        xdg_toplevel_icon_v1_set_name(icon, "utilities-terminal")
        xdg_toplevel_icon_v1_add_buffer(icon, try client.buffer(width: 48, height: 48), 1)
        xdg_toplevel_icon_v1_add_buffer(icon, try client.buffer(width: 96, height: 96), 2)
        xdg_toplevel_icon_manager_v1_set_icon(icons, window.toplevel, icon)
        xdg_toplevel_icon_v1_destroy(icon)
        try client.roundtrip()
        #expect(try line()?.contains("icon=") == false, "not before the commit")
        wl_surface_commit(window.surface)
        try client.roundtrip()
        let withIcon = try line() ?? ""
        #expect(withIcon.contains(" icon=\"utilities-terminal\",48x48@1,96x96@2"), "\(withIcon)")
    }

    /// An app id as long as Chromium's `--app` windows make from a page's path is listed whole,
    /// so a wait names it as the app set it; a title is still cut at 80 characters.
    @Test func aLongAppIDIsListedWholeAndCanBeWaitedOn() throws {
        let (server, client, window) = try Self.inspectableServer(windowAt: (0, 0))
        let appID = "chrome-__" + String(repeating: "deep_folder_", count: 12) + "touch_page.html-Default"
        xdg_toplevel_set_app_id(window.toplevel, appID)
        xdg_toplevel_set_title(window.toplevel, String(repeating: "t", count: 200))
        wl_surface_commit(window.surface)
        try client.roundtrip()
        let line = try Self.inspect(server.socket, []).first { $0.contains("role=toplevel") } ?? ""
        #expect(line.contains(" app_id=\(appID) "), "\(line)")
        #expect(line.contains(" title=\"\(String(repeating: "t", count: 80))\" "), "\(line)")
        _ = try Self.inspect(server.socket, ["--wait", "mapped app_id=\(appID)", "--timeout", "5"])
    }

    @Test func inspectShowsAnOutputAsleep() throws {
        var configuration = Self.inspecting
        configuration.idle = IdleSettings(timeout: 1)
        let server = try TestServer(configuration)
        #expect(try Self.inspect(server.socket, []).first == "output HEADLESS-1 at=0,0 size=1280x800 scale=1")
        var first = ""
        let deadline = Date().addingTimeInterval(5)
        repeat {
            usleep(100_000)
            first = try Self.inspect(server.socket, []).first ?? ""
        } while !first.hasSuffix("power=off") && Date() < deadline
        #expect(first == "output HEADLESS-1 at=0,0 size=1280x800 scale=1 power=off")
    }

    /// What a client makes the server hold is listed, and counted down as it goes: ten
    /// regions more are ten objects more, and destroying them gives them back.
    @Test func inspectListsWhatEachClientHolds() throws {
        let (server, client, _) = try Self.inspectableServer(windowAt: (0, 0))
        func held() throws -> (objects: Int, line: String) {
            let line = try #require(try Self.inspect(server.socket, []).first { $0.contains(" pid=\(getpid()) ") }, "the test client's line")
            let objects = line.split(separator: " ").first { $0.hasPrefix("objects=") }.flatMap { Int($0.dropFirst(8)) }
            return (try #require(objects, "objects= in \(line)"), line)
        }
        let before = try held()
        #expect(before.line.hasPrefix("client ") && before.line.contains(" shm-pools=0 buffers=1 "), "\(before.line)")
        let regions = (0..<10).map { _ in wl_compositor_create_region(client.compositor) }
        for region in regions { wl_region_add(region, 0, 0, 10, 10) }
        try client.roundtrip()
        let more = try held()
        #expect(more.objects == before.objects + 10)
        #expect(more.line.hasSuffix(" region-rects=10"), "\(more.line)")
        for region in regions { wl_region_destroy(region) }
        try client.roundtrip()
        #expect(try held().objects == before.objects)
    }

    @Test func inspectWatchStreamsTheTraceLive() throws {
        let (server, client, window) = try Self.inspectableServer(windowAt: (0, 0))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tactile)
        process.arguments = ["inspect", "--socket", server.socket, "--watch"]
        process.environment = ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            // SIGKILL: the test runner's threads block SIGTERM, and a child spawned by
            // Foundation keeps that mask.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var text = ""
        // The watch is registered once inspect has bound it; touches until a line arrives.
        for attempt in 0..<50 {
            try client.inject { input in
                tactile_test_input_v1_touch_down(input, Int32(attempt), f(10), f(10))
                tactile_test_input_v1_touch_frame(input)
                tactile_test_input_v1_touch_up(input, Int32(attempt))
                tactile_test_input_v1_touch_frame(input)
            }
            usleep(100_000)
            text += Self.available(output)
            if text.contains(" owner ") { break }
        }
        #expect(text.contains("owner surface=wl_surface@\(client.id(window.surface)) role=toplevel"), "\(text)")
        #expect(process.isRunning, "a watch goes on")
    }

    /// What the pipe holds now, without waiting for more.
    static func available(_ pipe: Pipe) -> String {
        let fd = pipe.fileHandleForReading.fileDescriptor
        var text = ""
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&poller, 1, 0) > 0, (poller.revents & Int16(POLLIN)) != 0 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return text
    }

    @Test func withoutInspectTheServerOffersNoInspector() throws {
        let server = try TestServer(ServerConfiguration())
        let result = try runProcess(Self.tactile, ["inspect", "--socket", server.socket], environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        #expect(result.status != 0)
        #expect(result.output.contains("has no tactile_inspector_v1 (start it with `tactile serve --inspect`)"))
    }
}
