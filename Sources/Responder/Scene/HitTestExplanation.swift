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

struct ExplainingTracer: HitTestTracer {
    static var isRecording: Bool { true }
    var steps: [(Int32, Point, HitVerdict)] = []

    mutating func record(_ node: Int32, _ local: Point, _ verdict: HitVerdict) {
        steps.append((node, local, verdict))
    }
}

extension Scene {
    /// The hit test at `global`, with the reason for every node visited or skipped.
    public mutating func explainHitTest(at global: Point) -> HitTestExplanation {
        var tracer = ExplainingTracer()
        var explanation = HitTestExplanation()
        explanation.result = hitTest(at: global, tracer: &tracer)
        explanation.steps = tracer.steps.map { HitTestExplanation.Step(node: id($0.0), local: $0.1, verdict: $0.2) }
        return explanation
    }
}
