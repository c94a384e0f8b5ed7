import GestureConfiguration
import Responder
import TactileBackends
import TactileRender
import TactileWayland

/// Walks the YAML tree of a configuration file, checking each key and value against what
/// Tactile knows, so every error carries the line, column and key path it is about.
struct ConfigurationReader {
    let yaml: YAMLReader

    init(file: String) { yaml = YAMLReader(file: file) }

    private func table(_ node: ConfigNode, _ path: String) throws -> YAMLReader.Table { try yaml.table(node, path) }

    private func error(_ node: ConfigNode, _ key: String?, _ problem: String) -> ConfigurationError { yaml.error(node, key, problem) }

    func read(_ root: ConfigNode, into config: inout ConfigurationFile) throws {
        let top = try table(root, "")
        try top.only(["app", "touch", "pen", "keyboard", "devices", "outputs", "windows", "idle", "privileges", "limits", "gestures", "trace", "show-touches", "show-input-regions", "cursor", "xwayland", "renderer", "bell", "metrics", "accessibility", "session", "cleaning", "staff"])
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
            try touch.only(["pointer-emulation", "edge-deferral-limit", "feedback", "map", "secondary-click"])
            config.secondaryClick = try touch.scalar("secondary-click", "0 (off) or a whole number of milliseconds from 200 to 4000") { node -> Duration? in
                if node.bool == false || node.string == "off" || node.int == 0 { return .zero }
                return node.int.flatMap { (200...4000).contains($0) ? .milliseconds($0) : nil }
            }
            config.touchMap = try touch.choice("map", TouchMapChoice.self)
            config.pointerEmulation = try touch.bool("pointer-emulation")
            config.touchFeedback = try touch.choice("feedback", TouchFeedbackStyle.self)
            config.edgeDeferralLimit = try touch.number("edge-deferral-limit", atLeast: 0)
        }
        if let accessibility = try top.table("accessibility") {
            config.accommodations = try accessibility.accommodations()
            config.zoom = try accessibility.zoom()
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
        if let session = try top.table("session") {
            try session.only(["reset-after", "warning", "reset-run", "text", "countdown"])
            var settings = SessionResetSettings()
            guard let after = try session.integer("reset-after", in: SessionResetSettings.seconds) else {
                throw session.missing("reset-after", "the seconds without input before the session starts over")
            }
            settings.resetAfter = after
            settings.warning = try session.integer("warning", in: SessionResetSettings.warnings) ?? settings.warning
            settings.text = try session.string("text") ?? settings.text
            settings.countdown = try session.string("countdown") ?? settings.countdown
            config.sessionReset = settings
            config.sessionResetRun = try session.string("reset-run")
        }
        if let cleaning = try top.table("cleaning") {
            try cleaning.only(["duration", "end-hold", "text", "countdown"])
            var settings = CleaningSettings()
            settings.duration = try cleaning.integer("duration", in: CleaningSettings.durations) ?? settings.duration
            settings.endHold = try cleaning.integer("end-hold", in: CleaningSettings.holds) ?? settings.endHold
            settings.text = try cleaning.string("text") ?? settings.text
            settings.countdown = try cleaning.string("countdown") ?? settings.countdown
            config.cleaning = settings
        }
        if let staff = try top.table("staff") {
            try staff.only(["pin", "corner", "taps", "opens", "run"])
            guard let pin = try staff.scalar("pin", "the PIN's salted hash that `tactile staff-pin` prints", { $0.string.flatMap { StaffPin.isHash($0) ? $0 : nil } }) else {
                throw staff.missing("pin", "the PIN's salted hash that `tactile staff-pin` prints")
            }
            let command = try staff.string("run")
            let named = try staff.string("opens")
            let opens: StaffDoorOpens
            switch named ?? (command != nil ? "run" : "exit") {
            case "run":
                guard let command else { throw staff.missing("run", "the command the door opens") }
                opens = .run(command)
            case "exit": opens = .exit
            case "restart": opens = .restart
            case let other:
                throw error(staff.entries["opens"]!.node, "staff.opens", "'\(other)' is not what a door opens (exit, restart, run with run: COMMAND)")
            }
            if command != nil, named != nil, named != "run" {
                throw error(staff.entries["run"]!.node, "staff.run", "a command runs only with opens: run")
            }
            var settings = StaffSettings(pinHash: pin, opens: opens)
            settings.corner = try staff.choice("corner", Corner.self) ?? settings.corner
            settings.taps = try staff.integer("taps", in: StaffSettings.tapCounts) ?? settings.taps
            config.staff = settings
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
        if let metrics = try top.table("metrics") {
            try metrics.only(["listen", "textfile"])
            config.metrics = MetricsSettings(listen: try metrics.listenAddress("listen"), textfile: try metrics.absolutePath("textfile"))
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
        if let list = top.entries["windows"] {
            guard let items = list.node.sequence else { throw error(list.node, "windows", "expected a list of window rules") }
            config.windows = try items.enumerated().map { k, item in try windowRule(table(item, "windows[\(k)]")) }
        }
        if let list = top.entries["gestures"] { config.gestures = try yaml.gestures(list) }
    }

    private func windowRule(_ w: YAMLReader.Table) throws -> WindowRule {
        try w.only(["app-id", "tag", "output", "fullscreen", "accommodations"])
        let rule = WindowRule(appID: try w.string("app-id"), tag: try w.string("tag"), output: try w.string("output"), fullscreen: try w.bool("fullscreen"),
                              accommodations: try w.bool("accommodations"), label: w.path)
        guard rule.appID != nil || rule.tag != nil else { throw error(w.node, w.path, "a window rule names the windows it is for: app-id, tag or both") }
        guard rule.places || rule.accommodations != nil else {
            throw error(w.node, w.path, "a window rule says where they go (output, fullscreen) or how their touches are taken (accommodations)")
        }
        return rule
    }

    private func device(_ d: YAMLReader.Table) throws -> DeviceSettings {
        try d.only(PanelFilterSettings.deviceEntryKeys)
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
            tapToClick: try d.bool("tap-to-click"), naturalScrolling: try d.bool("natural-scroll"),
            filters: try d.touchFilters()
        )
    }

    private func output(_ o: YAMLReader.Table) throws -> OutputSettings {
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
}

/// The settings only the server reads, with their locations.
extension YAMLReader.Table {
    func listenAddress(_ key: String) throws -> ListenAddress? {
        // A bare port is a number to YAML.
        try scalar(key, "a port (loopback), or an address and port such as 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464") {
            $0.string.flatMap(ListenAddress.init)
        }
    }

    func absolutePath(_ key: String) throws -> String? {
        try scalar(key, "an absolute path") { node in node.string.flatMap { $0.hasPrefix("/") ? $0 : nil } }
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
}
