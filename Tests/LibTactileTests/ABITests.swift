import Foundation
import Testing

/// libtactile held to its header by C programs built against it as a compositor builds
/// (Tests/LibTactileC): each promise checked by name, the twelve hit-test scenes of the
/// shared benchmark with their checksums, and a seeded hostile caller.
@Suite struct ABITests {
    /// The shared benchmark's scenes, beside the checkout as CI lays it out.
    static var scenesDirectory: String { LibTactileBuild.repository + "/../shared/bench/scenes" }

    @Test func everyPromiseOfTheHeaderHolds() throws {
        let run = try LibTactileBuild.run("abi", [])
        #expect(run.status == 0, "\(run.output)")
        let checks = run.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count
        #expect(checks >= 30, "only \(checks) checks passed:\n\(run.output)")
    }

    /// All twelve scenes with the spec's query counts: the checksums of SCENES.md's table.
    @Test func theTwelveScenesGiveTheirChecksumsThroughC() throws {
        let run = try LibTactileBuild.run("scenes", ["check"], environment: ["SCENES_DIR": Self.scenesDirectory])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("12 of 12 scenes ok"), "\(run.output)")
    }

    /// The first 1,000 queries of each scene, answer by answer, against the spec's golden files.
    @Test func eachQueryHitsWhatTheGoldenFilesSay() throws {
        try #require(FileManager.default.fileExists(atPath: Self.scenesDirectory), "no \(Self.scenesDirectory): ../shared must be beside the checkout")
        let run = try LibTactileBuild.run("scenes", ["check", "--short"], environment: ["SCENES_DIR": Self.scenesDirectory])
        #expect(run.status == 0, "\(run.output)")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [Int])
    func aHostileCallerNeverBreaksIt(seed: Int) throws {
        let run = try LibTactileBuild.run("fuzz", [String(seed), "20000"], environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(run.status == 0, "seed \(seed):\n\(run.output.suffix(3000))")
        #expect(run.output.contains("fuzz done"), "\(run.output.suffix(2000))")
    }
}
