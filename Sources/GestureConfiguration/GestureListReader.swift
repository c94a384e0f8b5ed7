import Responder

extension YAMLReader {
    /// Reads the whole text (with libyaml) and its `gestures:` list only: what libtactile's
    /// embedders take from a Tactile configuration file, the rest being the server's.
    public static func gestures(fromYAML text: String, file: String) throws -> [GestureBinding] {
        guard let root = try ConfigNode.compose(yaml: text, file: file) else { return [] }
        return try gestures(in: root, file: file)
    }

    /// The `gestures:` list of a composed file, the rest of it unread.
    public static func gestures(in root: ConfigNode, file: String) throws -> [GestureBinding] {
        let reader = YAMLReader(file: file)
        guard let list = try reader.table(root, "").entries["gestures"] else { return [] }
        return try reader.gestures(list)
    }

    /// The `gestures:` list: each gesture checked, names unique, and every name that
    /// simultaneous-with or requires-failure-of give found in the list.
    package func gestures(_ list: (key: ConfigNode, node: ConfigNode)) throws -> [GestureBinding] {
        var bindings: [GestureBinding] = []
        guard let items = list.node.sequence else { throw error(list.node, "gestures", "expected a list of gestures") }
        var names: [String: Int] = [:]
        var gestures: [Table] = []
        for (k, item) in items.enumerated() {
            let gesture = try table(item, "gestures[\(k)]")
            gestures.append(gesture)
            let binding = try self.gesture(gesture)
            if let line = names[binding.name] {
                throw error(gesture.entries["name"]?.node ?? item, "gestures[\(k)].name", "'\(binding.name)' is already the name of the gesture on line \(line)")
            }
            names[binding.name] = item.mark?.line ?? 0
            bindings.append(binding)
        }
        // Names may refer to gestures further down the list: checked once all are known.
        for gesture in gestures {
            for key in ["simultaneous-with", "requires-failure-of"] {
                guard let entry = gesture.entries[key], let list = entry.node.sequence else { continue }
                for (j, other) in list.enumerated() where names[other.string ?? ""] == nil {
                    throw error(other, "\(gesture.path).\(key)[\(j)]", "no gesture is named '\(other.string ?? "")'")
                }
            }
        }
        return bindings
    }

    private func gesture(_ g: Table) throws -> GestureBinding {
        guard let name = try g.string("name"), !name.isEmpty else { throw g.missing("name", "a name for the log and for commands") }
        guard let kind = try g.string("kind") else { throw g.missing("kind", "one of edge-swipe, swipe, pinch, long-press, tap") }
        let common = ["name", "kind", "action", "run", "when", "cancels-touches-in-view", "delays-touches-began",
                      "delays-touches-ended", "input-types", "simultaneous-with", "requires-failure-of"]
        let recognizer: any GestureRecognizer & Sendable
        switch kind {
        case "edge-swipe":
            try g.only(common + ["edge", "start-band", "distance"])
            guard let edge = try g.choice("edge", Edge.self) else { throw g.missing("edge", "left, right, top or bottom") }
            recognizer = EdgeSwipe(edge: edge, startBand: try g.number("start-band", atLeast: 1) ?? 24, distance: try g.number("distance", atLeast: 1) ?? 80)
        case "swipe":
            try g.only(common + ["device", "fingers", "direction", "distance", "gather-time"])
            recognizer = Swipe(
                fingers: try g.integer("fingers", in: 1...10) ?? 3, direction: try g.choice("direction", Swipe.Direction.self),
                distance: try g.number("distance", atLeast: 1) ?? 100, gatherTime: try g.milliseconds("gather-time") ?? .milliseconds(150)
            )
        case "pinch":
            try g.only(common + ["device", "fingers", "scale", "direction", "max-translation", "gather-time"])
            recognizer = Pinch(
                fingers: try g.integer("fingers", in: 2...10) ?? 2, scale: try g.number("scale", atLeast: 1.01) ?? 1.25,
                direction: try g.choice("direction", Pinch.Direction.self), maximumTranslation: try g.number("max-translation", atLeast: 1) ?? 80,
                gatherTime: try g.milliseconds("gather-time") ?? .milliseconds(150)
            )
        case "long-press":
            try g.only(common + ["duration", "slop", "corner", "corner-size"])
            let corner = try g.choice("corner", Corner.self)
            let side = try g.number("corner-size", atLeast: 1) ?? LongPress.cornerSize
            recognizer = LongPress(duration: try g.milliseconds("duration") ?? .milliseconds(500), slop: try g.number("slop", atLeast: 0) ?? 10,
                                   corner: corner.map { ($0, side) })
        case "tap":
            try g.only(common + ["taps", "interval", "max-duration", "slop", "max-distance"])
            recognizer = Tap(
                count: try g.integer("taps", in: 1...10) ?? 1, interval: try g.milliseconds("interval") ?? .milliseconds(300),
                maximumDuration: try g.milliseconds("max-duration") ?? .milliseconds(300), slop: try g.number("slop", atLeast: 0) ?? 10,
                maximumDistance: try g.number("max-distance", atLeast: 0) ?? 40
            )
        default:
            throw error(g.entries["kind"]!.node, "\(g.path).kind", "'\(kind)' is not a gesture kind (edge-swipe, swipe, pinch, long-press, tap)")
        }
        let defaults = GestureOptions()
        let options = GestureOptions(
            cancelsTouchesInView: try g.bool("cancels-touches-in-view") ?? defaults.cancelsTouchesInView,
            delaysTouchesBegan: try g.bool("delays-touches-began") ?? defaults.delaysTouchesBegan,
            delaysTouchesEnded: try g.bool("delays-touches-ended") ?? defaults.delaysTouchesEnded,
            inputTypes: try g.inputTypes("input-types") ?? defaults.inputTypes
        )
        return GestureBinding(
            name: name, recognizer: recognizer, options: options, device: try g.choice("device", GestureDevice.self) ?? .touchscreen, action: try action(g), actsWhen: try g.choice("when", ActionMoment.self) ?? .recognized,
            simultaneousWith: try g.strings("simultaneous-with"), requiresFailureOf: try g.strings("requires-failure-of")
        )
    }

    private func action(_ g: Table) throws -> GestureAction {
        let command = try g.string("run")
        let named = try g.string("action")
        if command != nil, named != nil { throw error(g.entries["run"]!.node, "\(g.path).run", "give either run or action, not both") }
        if let command { return .run(command) }
        switch named {
        case nil, "none": return .none
        case "focus-next": return .focusNext
        case "close-focused": return .closeFocused
        case "clean-screen": return .cleanScreen
        case "staff-door": return .staffDoor
        case let other?:
            throw error(g.entries["action"]!.node, "\(g.path).action",
                        "'\(other)' is not an action (none, focus-next, close-focused, clean-screen, staff-door; or run: COMMAND)")
        }
    }
}
