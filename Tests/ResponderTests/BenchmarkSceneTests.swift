import BenchmarkScenes
import Foundation
import Responder
import Testing

/// Where the shared reference files are: `../shared/bench/scenes` beside the checkout.
private let sharedScenes: String = {
    var path = #filePath.split(separator: "/").dropLast(3).map(String.init)
    path += ["..", "shared", "bench", "scenes"]
    return "/" + path.joined(separator: "/")
}()

private let sharedScenesPresent = (try? String(contentsOfFile: sharedScenes + "/queries-flat-10.txt", encoding: .utf8)) != nil

@Suite struct BenchmarkSceneTests {
    /// The full query run of every scene, folded as SCENES.md says, against its table.
    @Test(arguments: BenchmarkScene.all)
    func checksumMatchesReference(_ spec: BenchmarkScene) {
        var (scene, ids) = spec.build()
        #expect(spec.runQueries(on: &scene, specID: ids, count: spec.queryCount) == spec.checksum)
    }

    @Test(.enabled(if: sharedScenesPresent, "needs ../shared/bench/scenes beside the checkout"), arguments: BenchmarkScene.all)
    func sceneMatchesTheSharedFile(_ spec: BenchmarkScene) throws {
        let text = try String(contentsOfFile: "\(sharedScenes)/scene-\(spec.name).txt", encoding: .utf8)
        // "node <id> <parent> <kind> <x> <y> <w> <h> ..." for each node, in creation order.
        let fromFile = text.split(separator: "\n").filter { $0.hasPrefix("node ") }.map {
            $0.split(separator: " ")[1...7].joined(separator: " ")
        }
        let generated = spec.items().map { "\($0.id) \($0.parent) \($0.kind.rawValue) \($0.x) \($0.y) \($0.width) \($0.height)" }
        #expect(fromFile == generated)
    }

    @Test(.enabled(if: sharedScenesPresent, "needs ../shared/bench/scenes beside the checkout"), arguments: BenchmarkScene.all)
    func firstQueriesMatchTheSharedAnswers(_ spec: BenchmarkScene) throws {
        let text = try String(contentsOfFile: "\(sharedScenes)/queries-\(spec.name).txt", encoding: .utf8)
        let expected = text.split(separator: "\n").filter { $0.hasPrefix("q ") }.map { $0.split(separator: " ") }
        #expect(expected.count == 1000)
        var (scene, ids) = spec.build()
        var queries = QueryGenerator()
        for f in expected {
            let point = queries.next()!
            #expect(point == p(Double(f[2])!, Double(f[3])!), "query \(f[1])")
            let hit = scene.hitTest(at: point)
            #expect((hit.map { ids[$0.node.slot] } ?? -1) == Int(f[4])!, "query \(f[1])")
            if let hit { #expect(hit.local == p(Double(f[5])!, Double(f[6])!), "query \(f[1])") }
        }
    }
}
