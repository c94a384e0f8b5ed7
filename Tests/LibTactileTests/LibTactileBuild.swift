import Foundation
@testable import TactileTestSupport

/// libtactile as a C program meets it: the library SwiftPM built beside this test bundle,
/// laid out by scripts/libtactile-stage, and the C programs of Tests/LibTactileC built
/// against it with pkg-config, once per test run.
enum LibTactileBuild {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let scratch: String = {
        let path = NSTemporaryDirectory() + "libtactile-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    static var stage: String { scratch + "/stage" }

    /// The C compiler and its flags: `cc`, or what LIBTACTILE_TEST_CC says (the
    /// AddressSanitizer pass gives the toolchain's clang with -fsanitize=address, so the
    /// programs load the sanitizer's runtime the instrumented library needs).
    static let compiler = ProcessInfo.processInfo.environment["LIBTACTILE_TEST_CC"] ?? "cc"

    /// The staged library and every program built, or what went wrong.
    static let built: Result<Void, Failure> = {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let programs = ["replay", "abi", "scenes", "fuzz"].filter { FileManager.default.fileExists(atPath: "\(repository)/Tests/LibTactileC/\($0).c") }
        let script = """
            set -e
            scripts/libtactile-stage '\(stage)' '\(bin)' >/dev/null
            export PKG_CONFIG_PATH='\(stage)/lib/pkgconfig'
            for p in \(programs.joined(separator: " ")); do
                \(compiler) -O2 -std=c11 -Wall -Wextra -Werror -o '\(scratch)'/$p Tests/LibTactileC/$p.c $(pkg-config --cflags --libs tactile) -lm
            done
            """
        let result = shell(script)
        return result.status == 0 ? .success(()) : .failure(Failure(description: "building the C programs failed:\n\(result.output)"))
    }()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a C program of Tests/LibTactileC, with the staged library on its path.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try built.get()
        return try runProcess(scratch + "/" + program, arguments, environment: environment.merging(["LD_LIBRARY_PATH": stage + "/lib"]) { $1 })
    }

    /// A bash script run from the repository's root; a failure to start it is its output.
    static func shell(_ script: String) -> (status: Int32, output: String) {
        do {
            return try runProcess("/bin/bash", ["-c", "cd '\(repository)' && \(script)"])
        } catch {
            return (-1, "cannot run bash: \(error)")
        }
    }
}
