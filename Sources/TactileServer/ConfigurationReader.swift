import Responder
import TactileBackends
import TactileRender
import TactileWayland
import Yams

/// Walks the YAML tree of a configuration file, checking each key and value against what
/// Tactile knows, so every error carries the line, column and key path it is about.
struct ConfigurationReader {
    let file: String

    func read(_ root: Yams.Node, into config: inout ConfigurationFile) throws {
        let top = try table(root, "")
        try top.only(["app", "touch", "pen", "keyboard", "devices", "outputs", "idle", "privileges", "limits", "gestures", "trace", "show-touches", "show-input-regions", "cursor", "xwayland", "renderer", "bell"])
        config.trace = try top.bool("trace")
        // true and false, as for focus-new-windows, are lazy and off.
        if let flag = top.entries["xwayland"]?.node.bool {
            config.xwayland = flag ? .lazy : .off
        } else {
            config.xwayland = try top.choice("xwayland", XwaylandMode.self)
        }
        config.cursor = try top.choice("cursor", CursorPolicy.self)
        config.renderer = try top.choice("renderer", RendererChoice.self)
        config.bell = try top.choice("bell", BellAction.self)
        config.showTouches = try top.bool("show-touches")
        config.showInputRegions = try top.bool("show-input-regions")
        if let touch = try top.table("touch") {
            try touch.only(["pointer-emulation", "edge-deferral-limit"])
            config.pointerEmulation = try touch.bool("pointer-emulation")
            config.edgeDeferralLimit = try touch.number("edge-deferral-limit", atLeast: 0)
        }
        if let pen = try top.table("pen") {
            try pen.only(["palm-rejection"])
            config.palmRejection = try pen.bool("palm-rejection")
        }
        if let keyboard = try top.table("keyboard") {
            try keyboard.only(["rules", "model", "layout", "variant", "options", "focus-new-windows", "shortcuts-inhibit"])
            config.shortcutsInhibit = try keyboard.choice("shortcuts-inhibit", ShortcutsInhibitPolicy.self)
            // true and false, the older spellings, are always and never.
            if let flag = keyboard.entries["focus-new-windows"]?.node.bool {
                config.focusNewWindows = flag ? .always : .never
            } else {
                config.focusNewWindows = try keyboard.choice("focus-new-windows", NewWindowFocus.self)
            }
            config.keyboardLayout = KeyboardLayout(
                rules: try keyboard.string("rules"), model: try keyboard.string("model"), layout: try keyboard.string("layout"),
                variant: try keyboard.string("variant"), options: try keyboard.string("options")
            )
        }
        if let idle = try top.table("idle") {
            try idle.only(["timeout", "wake"])
            config.idle = IdleSettings(timeout: try idle.integer("timeout", in: IdleSettings.timeouts),
                                       wake: try idle.choice("wake", IdleSettings.Wake.self) ?? .swallow)
        }
        if let app = try top.table("app") {
            try app.only(["restart"])
            config.appRestart = try app.choice("restart", SessionCommand.Restart.self)
        }
        if let privileges = try top.table("privileges") {
            try privileges.only(Privilege.allCases.map(\.rawValue))
            for privilege in Privilege.allCases {
                if let grant = try privileges.grant(privilege.rawValue) { config.privileges[privilege] = grant }
            }
        }
        if let limits = try top.table("limits") {
            try limits.only(["buffer-side", "objects-per-client"])
            config.bufferSide = try limits.integer("buffer-side", in: 256...16384)
            config.objectsPerClient = try limits.integer("objects-per-client", in: 1000...1_000_000)
        }
        if let list = top.entries["devices"] {
            guard let items = list.node.sequence else { throw error(list.node, "devices", "expected a list of device settings") }
            config.devices = try items.enumerated().map { k, item in try device(table(item, "devices[\(k)]")) }
        }
        if let list = top.entries["outputs"] {
            guard let items = list.node.sequence else { throw error(list.node, "outputs", "expected a list of output settings") }
            config.outputs = try items.enumerated().map { k, item in try output(table(item, "outputs[\(k)]")) }
        }
        guard let list = top.entries["gestures"] else { return }
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
            config.gestures.append(binding)
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
            try g.only(common + ["duration", "slop"])
            recognizer = LongPress(duration: try g.milliseconds("duration") ?? .milliseconds(500), slop: try g.number("slop", atLeast: 0) ?? 10)
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

    private func device(_ d: Table) throws -> DeviceSettings {
        try d.only(["match", "output", "calibration", "region", "accel-speed", "accel-profile", "tap-to-click", "natural-scroll"])
        let region = try d.numbers("region", count: 4).map { r in
            guard r.allSatisfy({ $0 == $0.rounded() && abs($0) <= 1_000_000 }), r[2] >= 1, r[3] >= 1 else {
                throw error(d.entries["region"]!.node, "\(d.path).region", "expected [x, y, width, height], whole pixels, width and height at least 1")
            }
            return Rect(x: Int(r[0]), y: Int(r[1]), width: Int(r[2]), height: Int(r[3]))
        }
        return DeviceSettings(
            match: try d.string("match"), output: try d.string("output"), calibration: try d.numbers("calibration", count: 6).map { $0.map(Float.init) },
            region: region,
            accelerationSpeed: try d.number("accel-speed", in: -1...1), accelerationProfile: try d.choice("accel-profile", DeviceSettings.AccelerationProfile.self),
            tapToClick: try d.bool("tap-to-click"), naturalScrolling: try d.bool("natural-scroll")
        )
    }

    private func output(_ o: Table) throws -> OutputSettings {
        try o.only(["name", "make", "model", "serial", "mode", "scale", "transform", "position", "enabled"])
        let position = try o.numbers("position", count: 2).map { xy in
            guard xy.allSatisfy({ $0 == $0.rounded() && abs($0) <= 1_000_000 }) else {
                throw error(o.entries["position"]!.node, "\(o.path).position", "expected two whole numbers of pixels")
            }
            return Position(x: Int(xy[0]), y: Int(xy[1]))
        }
        return OutputSettings(
            name: try o.string("name"), make: try o.string("make"), model: try o.string("model"), serial: try o.string("serial"), mode: try o.mode("mode"), scale: try o.scale("scale"),
            transform: try o.transform("transform"),
            position: position, enabled: try o.bool("enabled"))
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
        case let other?:
            throw error(g.entries["action"]!.node, "\(g.path).action", "'\(other)' is not an action (none, focus-next, close-focused; or run: COMMAND)")
        }
    }

    // MARK: Typed access with locations

    /// A YAML mapping with its key path (Yams has already refused repeated keys).
    struct Table {
        let reader: ConfigurationReader
        let path: String
        let node: Yams.Node
        let entries: [String: (key: Yams.Node, node: Yams.Node)]

        private func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func only(_ allowed: [String]) throws {
            for (name, entry) in entries where !allowed.contains(name) {
                throw reader.error(entry.key, keyPath(name), "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
        }

        func missing(_ key: String, _ what: String) -> ConfigurationError {
            reader.error(node, keyPath(key), "missing: \(what)")
        }

        func table(_ key: String) throws -> Table? {
            guard let entry = entries[key] else { return nil }
            return try reader.table(entry.node, keyPath(key))
        }

        private func scalar<T>(_ key: String, _ expected: String, _ convert: (Yams.Node) -> T?) throws -> T? {
            guard let entry = entries[key] else { return nil }
            guard entry.node.scalar != nil, let value = convert(entry.node) else {
                throw reader.error(entry.node, keyPath(key), "expected \(expected), got \(reader.show(entry.node))")
            }
            return value
        }

        func string(_ key: String) throws -> String? { try scalar(key, "a string") { $0.string } }

        func bool(_ key: String) throws -> Bool? { try scalar(key, "true or false") { $0.bool } }

        func number(_ key: String, atLeast minimum: Double) throws -> Double? {
            try scalar(key, "a number of at least \(minimum.formatted)") { node in node.float.flatMap { $0.isFinite && $0 >= minimum ? $0 : nil } }
        }

        func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
            try scalar(key, "a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted)") { node in node.float.flatMap { range.contains($0) ? $0 : nil } }
        }

        func numbers(_ key: String, count: Int) throws -> [Double]? {
            guard let entry = entries[key] else { return nil }
            guard let list = entry.node.sequence, list.count == count else { throw reader.error(entry.node, keyPath(key), "expected a list of \(count) numbers") }
            return try list.enumerated().map { j, item in
                guard item.scalar != nil, let value = item.float, value.isFinite else { throw reader.error(item, "\(keyPath(key))[\(j)]", "expected a number, got \(reader.show(item))") }
                return value
            }
        }

        func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            try scalar(key, "a whole number from \(range.lowerBound) to \(range.upperBound)") { node in node.int.flatMap { range.contains($0) ? $0 : nil } }
        }

        func mode(_ key: String) throws -> OutputSettings.Mode? {
            try scalar(key, "a mode such as 1920x1080 or 1920x1080@60") { $0.string.flatMap(OutputSettings.Mode.init) }
        }

        func scale(_ key: String) throws -> Double? {
            try scalar(key, "a number from 1 to 4, such as 2 or 1.5") { node in node.float.flatMap(OutputSettings.scale) }
        }

        func transform(_ key: String) throws -> OutputTransform? {
            let names = OutputTransform.allCases.map(\.description).joined(separator: ", ")
            return try scalar(key, "one of \(names)") { $0.string.flatMap(OutputTransform.init(name:)) }
        }

        func milliseconds(_ key: String) throws -> Duration? {
            try scalar(key, "a whole number of milliseconds from 1 to 60000") { node in node.int.flatMap { (1...60000).contains($0) ? .milliseconds($0) : nil } }
        }

        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws -> T? where T.RawValue == String {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            return try scalar(key, "one of \(names)") { $0.string.flatMap(T.init(rawValue:)) }
        }

        /// `everyone`, or `started`, an absolute executable path, or a list of those (an empty
        /// list: nobody).
        func grant(_ key: String) throws -> PrivilegePolicy.Grant? {
            guard let entry = entries[key] else { return nil }
            let expected = "everyone, started, an absolute path to an executable, or a list of started and paths"
            if entry.node.string == "everyone" { return .everyone }
            let items = entry.node.sequence.map(Array.init) ?? (entry.node.scalar != nil ? [entry.node] : nil)
            guard let items else { throw reader.error(entry.node, keyPath(key), "expected \(expected), got \(reader.show(entry.node))") }
            var started = false
            var executables: [String] = []
            for (j, item) in items.enumerated() {
                let place = entry.node.sequence == nil ? keyPath(key) : "\(keyPath(key))[\(j)]"
                guard item.scalar != nil, let value = item.string, value == "started" || value.hasPrefix("/") else {
                    throw reader.error(item, place, "expected \(expected), got \(reader.show(item))")
                }
                if value == "started" { started = true } else { executables.append(value) }
            }
            return .only(started: started, executables: executables)
        }

        /// `touch`, `pen`, or a list of those (not empty).
        func inputTypes(_ key: String) throws -> InputTypes? {
            guard let entry = entries[key] else { return nil }
            let items = entry.node.sequence.map(Array.init) ?? [entry.node]
            var types: InputTypes = []
            for (j, item) in items.enumerated() {
                let place = entry.node.sequence == nil ? keyPath(key) : "\(keyPath(key))[\(j)]"
                switch item.string {
                case "touch"?: types.insert(.touch)
                case "pen"?: types.insert(.pen)
                default: throw reader.error(item, place, "expected touch or pen, got \(reader.show(item))")
                }
            }
            guard !types.isEmpty else { throw reader.error(entry.node, keyPath(key), "expected touch, pen or both, got an empty list") }
            return types
        }

        func strings(_ key: String) throws -> [String] {
            guard let entry = entries[key] else { return [] }
            guard let list = entry.node.sequence else { throw reader.error(entry.node, keyPath(key), "expected a list of gesture names") }
            return try list.enumerated().map { j, item in
                guard item.scalar != nil, let name = item.string else { throw reader.error(item, "\(keyPath(key))[\(j)]", "expected a gesture name") }
                return name
            }
        }
    }

    func table(_ node: Yams.Node, _ path: String) throws -> Table {
        guard let mapping = node.mapping else { throw error(node, path.isEmpty ? nil : path, "expected a mapping of keys to values, got \(show(node))") }
        var entries: [String: (key: Yams.Node, node: Yams.Node)] = [:]
        for (key, value) in mapping {
            guard let name = key.string else { throw error(key, path, "keys must be plain words") }
            entries[name] = (key, value)
        }
        return Table(reader: self, path: path, node: node, entries: entries)
    }

    func error(_ node: Yams.Node, _ key: String?, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, problem: problem)
    }

    func show(_ node: Yams.Node) -> String {
        if let scalar = node.scalar { return "'\(scalar.string)'" }
        return node.mapping != nil ? "a mapping" : "a list"
    }
}

extension Double {
    fileprivate var formatted: String { self == Double(Int(self)) ? String(Int(self)) : String(self) }
}
