import Foundation
import PackagePlugin

/// Names the commit in the `tactile` executable: `scripts/version` writes `tactileVersion`
/// (the commit's version, "+dirty" for uncommitted changes) into a Swift file the target
/// compiles, rewriting it only when the version changes.
///
/// A build command whose inputs are what the version depends on: git's HEAD, its log (every
/// commit, checkout or reset appends to it) and the index, and every source file of the
/// package (an edit may make it "+dirty"). Not a prebuild command: SwiftPM skips those on incremental
/// builds (swiftlang/swift-package-manager#5476), which would keep an old commit's version.
@main
struct TactileVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/version")
        let output = context.pluginWorkDirectoryURL.appending(path: "Version.swift")
        let sources = context.package.targets.compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles.map(\.url) }
        let inputs = [script, package.appending(path: "Package.swift")] + gitFiles(in: package) + sources
        return [
            .buildCommand(
                displayName: "Version of \(target.name) from git",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(percentEncoded: false), "--swift", output.path(percentEncoded: false)],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// HEAD, its log and the index of the checkout at `package` (a worktree keeps its own),
    /// those that exist; none outside a git checkout, where the version is "unknown" anyway.
    private func gitFiles(in package: URL) -> [URL] {
        let git = Process()
        git.executableURL = URL(filePath: "/usr/bin/git")
        git.arguments = ["-C", package.path(percentEncoded: false), "rev-parse", "--path-format=absolute", "--git-path", "HEAD", "--git-path", "logs/HEAD", "--git-path", "index"]
        let pipe = Pipe()
        git.standardOutput = pipe
        git.standardError = FileHandle.nullDevice
        guard (try? git.run()) != nil else { return [] }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { return [] }
        return text.split(separator: "\n").map { URL(filePath: String($0)) }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
    }
}
