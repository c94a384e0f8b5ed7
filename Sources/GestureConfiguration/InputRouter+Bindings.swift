import Responder

/// A relation of a binding naming a gesture the list does not have.
public struct UnknownGestureName: Sendable {
    /// The binding that names it, and the name.
    public var gesture: String
    public var name: String
    /// Named in requires-failure-of (true) or in simultaneous-with.
    public var waitsForIt: Bool
}

extension InputRouter {
    /// Adds the bindings' recognizers on the scene's root, then relates them by name as their
    /// simultaneous-with and requires-failure-of say: how the server and libtactile alike
    /// turn a gestures list into recognizers. Returns each binding's id, in the list's order,
    /// and the names its relations give that no binding has (a configuration file's reader
    /// refuses those; bindings built in code may still carry them).
    public mutating func install(_ bindings: [GestureBinding], shouldBegin: ((GestureID) -> Bool)? = nil)
        -> (ids: [GestureID], unknown: [UnknownGestureName]) {
        let ids = bindings.map { addGesture($0.recognizer, on: scene.root, options: $0.options, device: $0.device, shouldBegin: shouldBegin) }
        let byName = Dictionary(zip(bindings.map(\.name), ids)) { _, later in later }
        var unknown: [UnknownGestureName] = []
        for (binding, id) in zip(bindings, ids) {
            for other in binding.simultaneousWith {
                if let o = byName[other] { recognizeSimultaneously(id, o) } else { unknown.append(UnknownGestureName(gesture: binding.name, name: other, waitsForIt: false)) }
            }
            for other in binding.requiresFailureOf {
                if let o = byName[other] { require(id, toFail: o) } else { unknown.append(UnknownGestureName(gesture: binding.name, name: other, waitsForIt: true)) }
            }
        }
        return (ids, unknown)
    }
}
