// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tactile",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Responder", targets: ["Responder"]),
    ],
    targets: [
        // Layer 1: the routing core. Standard library only: no C, no I/O.
        .target(name: "Responder"),
        // The benchmark scenes of SCENES.md, regenerated bit for bit; shared by tests and benchmarks.
        .target(name: "BenchmarkScenes", dependencies: ["Responder"]),
        .testTarget(name: "ResponderTests", dependencies: ["Responder", "BenchmarkScenes"]),
    ]
)
