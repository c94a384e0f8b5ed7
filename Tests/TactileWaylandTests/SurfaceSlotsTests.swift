import Foundation
import Responder
@testable import TactileWayland
import Testing

/// The per-surface state protocols keep in slots: how a commit treats them, and the two
/// promises that keep a commit off the heap (every slot type fits in place, and there is
/// room for all of them at once).
@Suite struct SurfaceSlotsTests {
    @Test func aCommitKeepsWhatPersistsAndStartsOverTheRest() {
        var pending = SurfaceState()
        pending[AlphaMultiplier.self].factor = 7
        pending.slots.update(Viewport.self) { $0.setDestination((width: 20, height: 10)) }
        pending[FifoRequests.self].setsBarrier = true
        pending[CommitTarget.self].time = Instant(microseconds: 5)
        let committed = pending
        pending.slots.startOver()

        #expect(committed[FifoRequests.self].setsBarrier && committed[CommitTarget.self].time == Instant(microseconds: 5))
        #expect(!pending[FifoRequests.self].setsBarrier && pending[CommitTarget.self].time == nil, "per-commit requests start over")
        #expect(pending[AlphaMultiplier.self].factor == 7 && pending[Viewport.self].destination == Size(width: 20, height: 10),
                "state persists past the commit")
        #expect(SurfaceState()[ContentType.self] == .none, "an unset slot reads its init()")
    }

    @Test func onlyAChangedAlphaRepaintsEverything() {
        var before = SurfaceSlots(), after = SurfaceSlots()
        before[AlphaMultiplier.self].factor = 9
        after[AlphaMultiplier.self].factor = 9
        after[TearingHint.self].async = true
        #expect(!after.changesEveryPixel(from: before))
        after[AlphaMultiplier.self].factor = 10
        #expect(after.changesEveryPixel(from: before))
    }

    @Test func edgeDeferralShapesTheSceneNode() {
        var slots = SurfaceSlots()
        slots[EdgeDeferralRegions.self].regions[.left] = Region(Rect(x: 0, y: 0, width: 40, height: 100))
        var node = Node.compositor(size: Size(width: 100, height: 100))
        slots.shape(&node)
        #expect(node.edgeGestureDeferral[.left] != nil && node.edgeGestureDeferral[.top] == nil)
    }

    /// A slot larger than three words is boxed on the heap each time it is set, and copies of
    /// the state share the box until one is changed.
    @Test func everySlotFitsInPlace() {
        let sizes = [MemoryLayout<Viewport>.size, MemoryLayout<AlphaMultiplier>.size, MemoryLayout<ContentType>.size,
                     MemoryLayout<TearingHint>.size, MemoryLayout<EdgeDeferralRegions>.size, MemoryLayout<FifoRequests>.size,
                     MemoryLayout<CommitTarget>.size]
        #expect(sizes.allSatisfy { $0 <= 3 * MemoryLayout<Int>.size }, "\(sizes)")
    }

    /// The slot types declared in the sources: a surface may hold all of them at once.
    @Test func thereIsRoomForEverySlotType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/TactileWayland").standardized
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let declaration = try Regex(#"^(?:struct|enum|extension) \w+: [^{]*\bSurfaceStateSlot\b"#).anchorsMatchLineEndings()
        let count = try files.reduce(0) { total, file in
            total + (try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)).matches(of: declaration).count
        }
        #expect(count >= 7, "the seven protocols' slots are found (\(count))")
        #expect(count <= SurfaceSlots.capacity, "\(count) slot types, room for \(SurfaceSlots.capacity): raise SurfaceSlots' storage")
    }
}
