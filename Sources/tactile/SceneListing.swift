/// The scene as `tactile inspect` lists it, read back: the windows by app_id, and what is
/// still pending. The listing is the server's own text (WaylandServer+Inspection.swift), so
/// what a wait or a window-relative script sees is what a tester reads.
struct SceneListing {
    struct Window: Equatable {
        var appID: String
        var title: String?
        /// The window as its user sees it, in global pixels (xdg window geometry).
        var x = 0, y = 0, width = 0, height = 0
        var mapped = false
        var focused = false
    }

    let lines: [String]
    /// Toplevels, first listed (topmost) first; one per app_id is what a test names.
    private(set) var windows: [Window] = []
    /// Frames shown with a new buffer of each app's surfaces, all of them summed.
    private(set) var frames: [String: Int] = [:]
    /// No frame to come, and every configure acked.
    private(set) var idle = false

    init(_ lines: [String]) {
        self.lines = lines
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "pending" {
                idle = words.contains("frame=no") && words.contains("configures=0")
                continue
            }
            guard words.first == "node", let appID = Self.value("app_id", in: words) else { continue }
            frames[appID, default: 0] += Self.value("frames", in: words).flatMap(Int.init) ?? 0
            guard let geometry = Self.value("window", in: words) else { continue }
            var window = Window(appID: appID, title: Self.title(in: line))
            let numbers = geometry.split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Int($0) }
            if numbers.count == 4 { (window.x, window.y, window.width, window.height) = (numbers[0], numbers[1], numbers[2], numbers[3]) }
            window.mapped = !words.contains("unmapped") && !words.contains("hidden")
            window.focused = words.contains("focused")
            windows.append(window)
        }
    }

    func window(_ appID: String) -> Window? {
        windows.first { $0.appID == appID && $0.mapped } ?? windows.first { $0.appID == appID }
    }

    /// The window a script's positions are relative to (`--window`), or why there is none.
    func shownWindow(_ appID: String) throws -> Window {
        guard let window = window(appID) else {
            let ids = windows.map(\.appID)
            throw GlobalConnection.Failure(description: "--window \(appID): no window has that app_id (" + (ids.isEmpty ? "no windows" : "windows: " + ids.joined(separator: ", ")) + ")")
        }
        guard window.mapped else {
            throw GlobalConnection.Failure(description: "--window \(appID): the window is not shown yet (`wait mapped app_id=\(appID)` first)")
        }
        return window
    }

    private static func value(_ key: String, in words: [String]) -> String? {
        words.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// Titles may hold spaces: the quoted text up to the `pid=` after it.
    private static func title(in line: String) -> String? {
        guard let start = line.firstRange(of: " title=\""), let end = line[start.upperBound...].firstRange(of: "\" pid=") else { return nil }
        return String(line[start.upperBound..<end.lowerBound])
    }
}

/// What `tactile inspect --wait` and an inject script's `wait` line wait for.
enum WaitCondition: Equatable, CustomStringConvertible {
    case mapped(appID: String)
    case focused(appID: String)
    case idle
    /// A frame with new content of that app's, after the wait began.
    case frame(appID: String)
    case titled(appID: String, text: String)

    static let syntax = "mapped app_id=ID | focused app_id=ID | idle | frame app_id=ID | titled app_id=ID TEXT"

    init?(_ text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func appID(_ i: Int) -> String? {
            guard i < words.count, words[i].hasPrefix("app_id="), words[i].count > 7 else { return nil }
            return String(words[i].dropFirst(7))
        }
        switch (words.first, words.count) {
        case ("mapped", 2): guard let id = appID(1) else { return nil }; self = .mapped(appID: id)
        case ("focused", 2): guard let id = appID(1) else { return nil }; self = .focused(appID: id)
        case ("idle", 1): self = .idle
        case ("frame", 2): guard let id = appID(1) else { return nil }; self = .frame(appID: id)
        case ("titled", 3...): guard let id = appID(1) else { return nil }; self = .titled(appID: id, text: words[2...].joined(separator: " "))
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .mapped(let id): "mapped app_id=\(id)"
        case .focused(let id): "focused app_id=\(id)"
        case .idle: "idle"
        case .frame(let id): "frame app_id=\(id)"
        case .titled(let id, let text): "titled app_id=\(id) \(text)"
        }
    }

    /// Whether `scene` shows it; `start` is the scene when the wait began.
    func holds(in scene: SceneListing, since start: SceneListing) -> Bool {
        switch self {
        case .mapped(let id): scene.window(id)?.mapped == true
        case .focused(let id): scene.windows.contains { $0.appID == id && $0.focused }
        case .idle: scene.idle
        case .frame(let id): scene.frames[id, default: 0] > start.frames[id, default: 0]
        case .titled(let id, let text): scene.windows.contains { $0.appID == id && $0.title?.contains(text) == true }
        }
    }
}
