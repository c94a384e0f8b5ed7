import BenchmarkScenes
import Testing
import Responder

@Suite struct BenchmarkSceneTests {
    @Test(arguments: BenchmarkScene.all)
    func checksumMatchesReference(_ spec: BenchmarkScene) {
        var (scene, ids) = spec.build()
        #expect(spec.runQueries(on: &scene, specID: ids, count: spec.queryCount) == spec.checksum)
    }
}
