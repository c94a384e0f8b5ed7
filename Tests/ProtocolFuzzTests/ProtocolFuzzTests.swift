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
        let (status, output) = try Self.fuzz(["--seed", Self.seed, "--requests", Self.requests])
        #expect(output.contains("result: 0 crashes, 0 hangs"), "\(output)")
        #expect(status == 0, "the fuzzer exited with status \(status)\n\(output)")
    }

    /// Eight hostile clients at once for 30 s, with activation tokens, offers and popups
    /// crossing between them, beside random touches, pointer and keys: no crash, no hang, and
    /// a window whose input region is empty never gets a touch or a pointer enter (another
    /// client's input). The probe's round trips are printed, not judged (a timing goal).
    @Test(.timeLimit(.minutes(3)))
    func manyHostileClientsAtOnceNeitherCrashNorMisrouteInput() throws {
        let (status, output) = try Self.fuzz(["--seed", Self.seed, "--duration", "30", "--clients", "8"])
        print(output.split(separator: "\n").filter { $0.hasPrefix("seed ") || $0.contains("round trips") || $0.contains("resident") }.joined(separator: "\n"))
        #expect(output.contains("the witness (no input region) got 0 touch downs or pointer enters"), "\(output)")
        #expect(output.contains("result: 0 crashes, 0 hangs\n"), "\(output)")
        #expect(status == 0, "the fuzzer exited with status \(status)\n\(output)")
    }

    /// Runs the fuzzer against a `tactile` it starts itself.
    static func fuzz(_ arguments: [String]) throws -> (Int32, String) {
        let server = productsDirectory.appendingPathComponent("tactile").path
        let fuzzer = productsDirectory.appendingPathComponent("TactileProtocolFuzz").path
        // A missing binary fails the test: a fuzz run that did not happen must not look green.
        for binary in [server, fuzzer] {
            try #require(FileManager.default.isExecutableFile(atPath: binary), "\(binary) was not built (swift build --build-tests builds it)")
        }
        return try runProcess(fuzzer, ["--server", server] + arguments)
    }
}
