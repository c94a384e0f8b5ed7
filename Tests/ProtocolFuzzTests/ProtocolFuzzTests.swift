import Foundation
@testable import TactileTestSupport
import Testing

/// The protocol fuzzer (`Sources/TactileProtocolFuzz`) against a fresh `tactile serve
/// --test-input` it starts itself: a fixed seed and a fixed budget of requests, random and
/// scripted, over hundreds of connections, each followed by a probe that the server still
/// answers. A crash or a hang fails the test with the fuzzer's report, which names the
/// connection to replay (`--seed S --connection I --verbose`) and the server's stack.
@Suite struct ProtocolFuzzTests {
    static let seed = "20261123"
    static let requests = "50000"

    /// The products SwiftPM built beside this test bundle.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    @Test(.timeLimit(.minutes(4)))
    func aFixedSeedNeitherCrashesNorHangsTheServer() throws {
        let server = Self.productsDirectory.appendingPathComponent("tactile").path
        let fuzzer = Self.productsDirectory.appendingPathComponent("TactileProtocolFuzz").path
        // A missing binary fails the test: a fuzz run that did not happen must not look green.
        for binary in [server, fuzzer] {
            try #require(FileManager.default.isExecutableFile(atPath: binary), "\(binary) was not built (swift build --build-tests builds it)")
        }
        let (status, output) = try runProcess(fuzzer, ["--server", server, "--seed", Self.seed, "--requests", Self.requests])
        #expect(output.contains("result: 0 crashes, 0 hangs"), "\(output)")
        #expect(status == 0, "the fuzzer exited with status \(status)\n\(output)")
    }
}
