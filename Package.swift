// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tactile",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Responder", targets: ["Responder"]),
        .executable(name: "tactile", targets: ["tactile"]),
        // For WLCS: `wlcs .build/debug/libTactileWLCS.so --gtest_filter=...`
        .library(name: "TactileWLCS", type: .dynamic, targets: ["TactileWLCS"]),
        // libtactile: the core's C face. SwiftPM names the file libTactileC.so; its soname is
        // libtactile.so.0, and scripts/libtactile-stage lays it out as a C library installs.
        .library(name: "TactileC", type: .dynamic, targets: ["LibTactile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Layer 1: the routing core. Standard library only: no C, no I/O.
        // Its routing is generic over the sink that takes the decisions; compiled for
        // cross-module optimization, callers (libtactile, the server) get it specialized to
        // their sink instead of calling it through witness tables for every decision.
        .target(name: "Responder", swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]),
        // Layer 1's C face (libtactile, include/tactile/tactile.h): the core for compositors in
        // C, C++ or Rust, and the gestures list of the configuration file it reads.
        .target(
            name: "LibTactile",
            dependencies: ["Responder", "TactileABI", "GestureConfiguration"],
            // A router is a class, so each access to its core would be checked at run time for
            // overlap; the C face refuses reentry itself (TACTILE_ERROR_BUSY) before anything
            // touches the core, and the checks cost each routed event about a tenth of its time.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=libtactile.so.0"])]
        ),
        // The header's types, for the Swift side of the C face to implement it exactly.
        .systemLibrary(name: "TactileABI", path: "include"),
        // The YAML `gestures:` list read into recognizers with their options and actions, and
        // the YAML composer (libyaml) for the server's configuration file and libtactile
        // alike: neither carries Foundation.
        .target(name: "GestureConfiguration", dependencies: ["Responder", "CYAML"]),
        // Layer 2: the Wayland server over libwayland-server, sending what the core decides.
        .target(
            name: "TactileWayland",
            dependencies: ["Responder", "GestureConfiguration", "TactileRender", "CWaylandServer", "CXKBCommon", "CXcursor", "CXCB", "CCrypt", "CSharedMemory", "WaylandProtocols", .product(name: "Logging", package: "swift-log")]
        ),
        // Clients' wl_shm files mapped into the server, and the SIGBUS guard around reading
        // them (C: a signal handler).
        .target(name: "CSharedMemory"),
        // Layer 2's renderers: surfaces composed into output frames, damage only, with pixman
        // on the CPU or GLES through EGL, and the damage history the backends' buffers catch
        // up with. Knows pixels and rectangles, not Wayland, so it is measured and tested on
        // its own.
        .target(name: "TactileRender", dependencies: ["Responder", "CPixman", "CEGL", "CGBM", "CDRM"]),
        // Layer 3: backends, through the server's `BackendHost` seam: headless outputs (and the
        // test-input protocol), libinput (udev seat or device paths, opened through libseat),
        // nested (a wayland-client window in a parent compositor).
        .target(
            name: "TactileBackends",
            dependencies: ["Responder", "GestureConfiguration", "TactileWayland", "TactileRender", "CWaylandServer", "CWaylandClient", "WaylandProtocols", "CLibinput", "CLibseat", "CDRM", "CGBM", .product(name: "Logging", package: "swift-log")]
        ),
        // System libraries, each with a small C header for what Swift cannot call directly.
        .systemLibrary(name: "CWaylandServer", pkgConfig: "wayland-server", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CLibinput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .systemLibrary(name: "CLibseat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CEGL", providers: [.apt(["libegl-dev", "libgles-dev"])]),
        .systemLibrary(name: "CGBM", pkgConfig: "gbm", providers: [.apt(["libgbm-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CXcursor", pkgConfig: "xcursor", providers: [.apt(["libxcursor-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // PNG files of captures (`tactile capture`), read back by its tests.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc does not declare.
        .systemLibrary(name: "CSpawn"),
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev", "libxcb-composite0-dev", "libxcb-xfixes0-dev", "libxcb-res0-dev"])]),
        // wayland-scanner output, regenerated by protocol/generate and committed.
        .target(name: "WaylandProtocols", dependencies: ["CWaylandServer"]),
        // The benchmark scenes of SCENES.md, regenerated bit for bit; shared by tests and benchmarks.
        .target(name: "BenchmarkScenes", dependencies: ["Responder"]),
        // Layer 4: server options and the configuration file, shared by the executable and
        // the WLCS integration.
        .target(
            name: "TactileServer",
            dependencies: [
                "Responder", "GestureConfiguration", "TactileWayland", "TactileRender", "TactileBackends", "CSpawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Layer 4: the WLCS integration library; the C glue defines the symbol WLCS loads.
        .target(
            name: "TactileWLCS",
            dependencies: ["TactileWLCSGlue", "TactileServer", "TactileWayland", "TactileBackends", "Responder", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TactileWLCSGlue",
            dependencies: ["CWaylandClient"],
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("wayland-server")]
        ),
        // Layer 4: the `tactile` executable (demo, serve, inject).
        .executableTarget(
            name: "tactile",
            dependencies: [
                "Responder", "TactileWayland", "TactileBackends", "TactileServer", "CWaylandClient", "WaylandProtocols", "CPNG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["TactileVersion"]
        ),
        // `tactile --version`: scripts/version's answer (the commit) written before each build.
        .plugin(name: "TactileVersion", capability: .buildTool()),
        // A seeded, replayable protocol fuzzer (C): a hostile client against `tactile serve --test-input`.
        .executableTarget(name: "TactileProtocolFuzz", dependencies: ["WaylandProtocols"], linkerSettings: [.linkedLibrary("wayland-client")]),
        // A client measuring touch-to-present latency on any compositor with wp_presentation
        // and input timestamps (C): the guest runs it on Tactile and on weston.
        .executableTarget(name: "TactileLatencyProbe", dependencies: ["TactileProbeClient"]),
        // A full-screen client animating on frame callbacks (C), for compositor CPU per frame
        // against the peers (scripts/peer-bench).
        .executableTarget(name: "TactileFrameProbe", dependencies: ["TactileProbeClient"]),
        // A full-screen client with a tablet seat that prints what pens tell it (C): the
        // guest's kiosk scenario checks a real pen's tool, pressure and tilt with it.
        .executableTarget(name: "TactileTabletProbe", dependencies: ["TactileProbeClient"]),
        // A client that hands the compositor real dmabufs (vgem dumb buffers, exported with
        // PRIME) and misuses linux-dmabuf's params (C): the guest's GLES scenario runs it.
        .executableTarget(name: "TactileDmabufProbe", dependencies: ["TactileProbeClient", "CDRM"], linkerSettings: [.linkedLibrary("drm")]),
        // An X11 client (C, XCB) for the window manager's tests: a window with an
        // override-redirect menu, and a seeded hostile mode.
        .executableTarget(name: "TactileX11Probe", linkerSettings: [.linkedLibrary("xcb")]),
        // What the two measuring clients share: shm buffers that track release, the ping answer.
        .target(name: "TactileProbeClient", dependencies: ["WaylandProtocols"], linkerSettings: [.linkedLibrary("wayland-client")]),
        // Tests mirror the targets. The support target holds what several of them drive a
        // server with: a server on its own thread, and a libwayland-client test client.
        .target(
            name: "TactileTestSupport",
            dependencies: ["GestureConfiguration", "TactileWayland", "TactileRender", "TactileBackends", "TactileServer", "CWaylandClient", "WaylandProtocols", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support"
        ),
        .testTarget(name: "ResponderTests", dependencies: ["Responder", "BenchmarkScenes"]),
        // libtactile through C: the ABI's programs in Tests/LibTactileC, built against the
        // staged library, the same decisions as the Swift core, and the wlroots kiosk.
        .testTarget(name: "LibTactileTests", dependencies: ["Responder", "GestureConfiguration", "BenchmarkScenes", "TactileTestSupport"]),
        .testTarget(name: "TactileRenderTests", dependencies: ["TactileRender", "Responder", "BenchmarkScenes"]),
        .testTarget(name: "TactileWaylandTests", dependencies: ["GestureConfiguration", "TactileWayland", "TactileTestSupport", "CWaylandClient", "CXKBCommon", "CXcursor", "WaylandProtocols", "BenchmarkScenes"]),
        .testTarget(name: "TactileBackendsTests", dependencies: ["GestureConfiguration", "TactileBackends", "TactileWayland", "TactileTestSupport", "CWaylandClient", "WaylandProtocols", "Responder", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TactileServerTests", dependencies: ["GestureConfiguration", "TactileServer", "TactileWayland", "TactileTestSupport", "TactileBackends", "Responder", "CWaylandClient", "WaylandProtocols", "CPNG", "tactile"]),
        // WLCS against libTactileWLCS.so, built beside the tests.
        .testTarget(name: "WLCSTests", dependencies: ["TactileWLCS", "TactileTestSupport"]),
        // Real kernel devices and a real screen, in a QEMU guest (scripts/guest/): the libinput
        // backend, and Tactile nested in weston's DRM backend.
        .testTarget(name: "LibinputGuestTests", dependencies: ["TactileTestSupport", "TactileLatencyProbe"],
                    exclude: ["scenario.py", "gles.py", "gbm.py", "gbm_clients.py", "weston_nested.py", "kiosk.py", "two_screens.py", "cursor_plane.py", "rotated.py", "idle.py", "latency.py", "wlroots_kiosk.py", "guest_input.py", "heal.py", "calibrate.py", "panels.py", "accessibility.py", "kiosk_vkms.py"]),
        // The protocol fuzzer with a fixed seed against a fresh server (both executables built beside the tests).
        .testTarget(name: "ProtocolFuzzTests", dependencies: ["tactile", "TactileProtocolFuzz", "TactileTestSupport"]),
        .executableTarget(
            name: "ResponderBenchmarks",
            dependencies: ["Responder", "BenchmarkScenes", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Responder",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: ["Responder", "TactileRender", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Render",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A wl_surface.commit through a whole server: a headless one on a thread, a
        // libwayland client committing to it.
        .executableTarget(
            name: "ServerBenchmarks",
            dependencies: ["TactileServer", "TactileWayland", "TactileBackends", "CWaylandClient", "WaylandProtocols", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Server",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
