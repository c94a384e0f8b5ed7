// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tactile",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Responder", targets: ["Responder"]),
        .executable(name: "tactile", targets: ["tactile"]),
    ],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Layer 1: the routing core. Standard library only: no C, no I/O.
        .target(name: "Responder"),
        // The benchmark scenes of SCENES.md, regenerated bit for bit; shared by tests and benchmarks.
        .target(name: "BenchmarkScenes", dependencies: ["Responder"]),
        .executableTarget(name: "tactile", dependencies: ["Responder"]),
        .testTarget(name: "ResponderTests", dependencies: ["Responder", "BenchmarkScenes"]),
        .executableTarget(
            name: "ResponderBenchmarks",
            dependencies: ["Responder", "BenchmarkScenes", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Responder",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
