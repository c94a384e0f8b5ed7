/// A hit test told step by step: every node the walk looked at, in order, with what it decided.
///
/// Built only on request (`Scene.explainHitTest(at:)`); the ordinary hit test runs the same
/// walk with a tracer that compiles to nothing.
public struct HitTestExplanation: CustomStringConvertible {
    public struct Step: Hashable, Sendable {
        public let node: NodeID
        /// The point in the node's local coordinates.
        public let local: Point
        public let verdict: HitVerdict
    }

    public internal(set) var steps: [Step] = []
    public internal(set) var result: HitTestResult?

    public var description: String {
        var lines = steps.map { "  \($0.node) at \($0.local): \($0.verdict)" }
        if let result {
            lines.append("  → \(result.node) at \(result.local), chain \(result.chain.map(\.description).joined(separator: " → "))")
        } else {
            lines.append("  → nothing hit")
        }
        return lines.joined(separator: "\n")
    }
}

/// Records every verdict up to the first hit; past it, only the nodes that would have been
/// hit, as covered.
struct ExplainingTracer: HitTestTracer {
    static var isRecording: Bool { true }
    static var walksPastHit: Bool { true }
    var steps: [(Int32, Point, HitVerdict)] = []
    private(set) var hit: (Int32, Point)?

    mutating func record(_ node: Int32, _ local: Point, _ verdict: HitVerdict) {
        let hits = verdict == .hit || verdict == .captured
        guard hit == nil else {
            if hits { steps.append((node, local, .covered)) }
            return
        }
        if hits { hit = (node, local) }
        steps.append((node, local, verdict))
    }
}

extension Scene {
    /// The hit test at `global`, with the reason for every node visited or skipped, and the
    /// surfaces under the one hit. Its result is the ordinary hit test's.
    public mutating func explainHitTest(at global: Point) -> HitTestExplanation {
        var tracer = ExplainingTracer()
        var explanation = HitTestExplanation()
        _ = hitTest(at: global, tracer: &tracer)
        if let (index, local) = tracer.hit {
            explanation.result = HitTestResult(node: id(index), local: local, chain: responderChain(from: id(index)))
        }
        let chain = explanation.result.map { Set($0.chain) } ?? []
        explanation.steps = tracer.steps.compactMap { index, local, verdict in
            let node = id(index)
            // A node the winner lies inside is its responder chain, not covered by it.
            if verdict == .covered, chain.contains(node) { return nil }
            return HitTestExplanation.Step(node: node, local: local, verdict: verdict)
        }
        return explanation
    }
}
