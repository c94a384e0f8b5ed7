import GestureConfiguration
import Responder

/// `tactile panel-check`'s measurements of one touchscreen, from its raw touches (as the
/// panel reports them: neither calibrated nor filtered), one step at a time, and the
/// `devices:` settings that repair what they show (`fixes`).
///
/// The steps: hold a finger still (jitter at rest), tap ten times (bounces), draw a line (the
/// panel's report rate and the time between its reports), touch nothing (ghost and stuck
/// contacts). Positions are the screen's pixels, times the panel's.
public struct PanelCheck {
    public enum Step: Int, CaseIterable, Sendable {
        case holdStill, tapTen, drawLine, touchNothing

        /// What the installer is asked, for the terminal.
        public var request: String {
            switch self {
            case .holdStill: "hold a finger still on the cross for \(PanelCheck.holdTime.components.seconds) s, then lift it"
            case .tapTen: "tap the cross ten times, as you would a button"
            case .drawLine: "draw a line from the cross to the right, at least \(Int(PanelCheck.lineLength)) px, then lift"
            case .touchNothing: "touch nothing until the screen asks again"
            }
        }
    }

    public enum Event: Sendable, Equatable {
        case down(id: Int32, Point, Instant)
        case motion(id: Int32, Point, Instant)
        case up(id: Int32, Instant)
    }

    /// How long the finger is held still.
    public static let holdTime = Duration.seconds(2)
    /// A contact that comes this soon after the last one lifted, within `bounceRadius` of it,
    /// is a bounce, not a tap.
    public static let bounceWindow = Duration.milliseconds(150)
    public static let bounceRadius = 30.0
    public static let lineLength = 200.0

    public private(set) var step: Step? = .holdStill
    /// How long the panel is left alone in the last step.
    public let quiet: Duration

    // What each step saw.
    public private(set) var still: [Point] = []
    private var stillStart: (at: Point, time: Instant)?
    private var stillMotions = 0
    private var stillDuration = Duration.zero
    private var lastLift: (at: Point, time: Instant)?
    private var contactStart: (id: Int32, at: Point, time: Instant)?
    public private(set) var taps = 0
    public private(set) var bounces: [(gap: Duration, distance: Double)] = []
    private var line: [Instant] = []
    private var lineStart: Point?
    private var lineTravel = 0.0
    private var quietStart: Instant?
    private var quietDown: [(id: Int32, at: Point, time: Instant)] = []
    public private(set) var ghosts: [(at: Point, lasted: Duration)] = []
    public private(set) var stuck: [(at: Point, held: Duration)] = []
    private var lineFigures: (rate: Double, median: Duration, longest: Duration)?

    public init(quiet: Duration = .seconds(30)) { self.quiet = quiet }

    /// Takes one raw touch event; returns the step that has just ended, if one has.
    public mutating func take(_ event: Event) -> Step? {
        guard let step else { return nil }
        switch step {
        case .holdStill: return holding(event)
        case .tapTen: return tapping(event)
        case .drawLine: return drawing(event)
        case .touchNothing:
            switch event {
            case .down(let id, let at, let time): quietDown.append((id, at, time))
            case .up(let id, let time):
                if let k = quietDown.firstIndex(where: { $0.id == id }) {
                    let contact = quietDown.remove(at: k)
                    ghosts.append((contact.at, time.since(contact.time)))
                }
            case .motion: break
            }
            return nil
        }
    }

    /// The time is `now` (the panel's clock): the quiet step ends once it has lasted `quiet`;
    /// contacts still down then are stuck.
    public mutating func tick(_ now: Instant) -> Step? {
        guard step == .touchNothing else { return nil }
        guard let start = quietStart else {
            quietStart = now
            return nil
        }
        guard now.since(start) >= quiet else { return nil }
        stuck = quietDown.map { ($0.at, now.since($0.time)) }
        return advance()
    }

    private mutating func advance() -> Step? {
        let ended = step
        step = step.flatMap { Step(rawValue: $0.rawValue + 1) }
        return ended
    }

    private mutating func holding(_ event: Event) -> Step? {
        switch event {
        case .down(_, let at, let time) where stillStart == nil:
            stillStart = (at, time)
            still = [at]
            stillMotions = 0
        case .motion(_, let at, _) where stillStart != nil:
            still.append(at)
            stillMotions += 1
        case .up(_, let time):
            guard let start = stillStart else { return nil }
            stillStart = nil
            // Lifted too soon: asked again.
            guard time.since(start.time) >= Self.holdTime else { return nil }
            stillDuration = time.since(start.time)
            return advance()
        default: break
        }
        return nil
    }

    private mutating func tapping(_ event: Event) -> Step? {
        switch event {
        case .down(let id, let at, let time) where contactStart == nil:
            contactStart = (id, at, time)
            if let lift = lastLift, time.since(lift.time) <= Self.bounceWindow, at.distance(to: lift.at) <= Self.bounceRadius {
                bounces.append((time.since(lift.time), at.distance(to: lift.at)))
                taps -= 1
            }
        case .up(let id, let time) where contactStart?.id == id:
            lastLift = (contactStart!.at, time)
            contactStart = nil
            taps += 1
            if taps == 10 { return advance() }
        default: break
        }
        return nil
    }

    private mutating func drawing(_ event: Event) -> Step? {
        switch event {
        case .down(let id, let at, let time) where contactStart == nil:
            // A bounce of the last tap still counts as one.
            if let lift = lastLift, time.since(lift.time) <= Self.bounceWindow, at.distance(to: lift.at) <= Self.bounceRadius {
                bounces.append((time.since(lift.time), at.distance(to: lift.at)))
            }
            contactStart = (id, at, time)
            lineStart = at
            lineTravel = 0
            line = [time]
        case .motion(let id, let at, let time) where contactStart?.id == id:
            line.append(time)
            lineTravel = max(lineTravel, at.distance(to: lineStart ?? at))
        case .up(let id, _) where contactStart?.id == id:
            contactStart = nil
            lastLift = nil
            // The reports while it moved: the down and its motions (the lift is no report).
            guard lineTravel >= Self.lineLength, line.count >= 3 else { return nil }
            let gaps = zip(line.dropFirst(), line).map { $0.since($1) }.sorted()
            let span = line.last!.since(line.first!)
            lineFigures = (Double(line.count - 1) / span.seconds, gaps[gaps.count / 2], gaps.last!)
            return advance()
        default: break
        }
        return nil
    }
}

extension PanelCheck {
    /// How far a still finger strayed from where it came down: at most, and its RMS.
    public var jitter: (peak: Double, rms: Double) {
        guard let first = still.first else { return (0, 0) }
        let distances = still.map { $0.distance(to: first) }
        return (distances.max() ?? 0, (distances.map { $0 * $0 }.reduce(0, +) / Double(distances.count)).squareRoot())
    }

    /// What the check found, a line each, for the installer.
    public var report: [String] {
        var lines: [String] = []
        let j = jitter
        let rest = stillDuration > .zero ? Double(stillMotions) / stillDuration.seconds : 0
        lines.append("jitter at rest: \(Self.tenths(j.peak)) px at most, \(Self.tenths(j.rms)) px RMS (\(stillMotions) reports in \(Self.tenths(stillDuration.seconds)) s: \(Int(rest.rounded())) Hz with a still finger)")
        let gaps = bounces.map { $0.gap.milliseconds }
        lines.append("taps: 10; bounces seen: \(bounces.count)" + (bounces.isEmpty ? "" : " (\(gaps.min()!)–\(gaps.max()!) ms after the lift, within \(Self.tenths(bounces.map(\.distance).max()!)) px)"))
        if let f = lineFigures {
            lines.append("report rate: \(Int(f.rate.rounded())) Hz while drawing; between reports: \(Self.tenths(f.median.seconds * 1000)) ms median, \(Self.tenths(f.longest.seconds * 1000)) ms at most")
        }
        lines.append("ghost contacts while nothing touched it for \(quiet.components.seconds) s: \(ghosts.count)"
                     + (ghosts.isEmpty ? "" : " (" + ghosts.map { "\(Self.pixel($0.at)) for \($0.lasted.milliseconds) ms" }.joined(separator: ", ") + ")"))
        lines.append("stuck contacts: \(stuck.count)" + (stuck.isEmpty ? "" : " (" + stuck.map { "\(Self.pixel($0.at)), down \(Int($0.held.seconds)) s" }.joined(separator: ", ") + ")"))
        return lines
    }

    /// The settings that repair what was found, in the configuration file's keys, on a
    /// screen of `screen` (for dead zones); nothing for a panel that behaved.
    public func fixes(screen: Size) -> [(key: String, value: String)] {
        var fixes: [(String, String)] = []
        let j = jitter
        // A threshold just past the farthest the still finger strayed.
        if j.peak >= 1 { fixes.append(("jitter", String(Int(j.peak.rounded(.up)) + 1))) }
        if j.rms >= 1 { fixes.append(("smoothing", "one-euro")) }
        if let gap = bounces.map(\.gap).max() {
            // Twice the longest gap seen, in tens of milliseconds: bounces vary.
            let window = min(500, max(30, Int((Double(gap.milliseconds) * 2 / 10).rounded(.up)) * 10))
            fixes.append(("debounce", String(window)))
            let reach = bounces.map(\.distance).max()! * 2
            if reach > TouchFilterSettings.defaultDebounceRadius { fixes.append(("debounce-radius", String(Int(reach.rounded(.up))))) }
        }
        let short = ghosts.filter { $0.lasted < .milliseconds(250) }
        if let longest = short.map(\.lasted).max() {
            fixes.append(("min-contact", String(min(500, max(10, Int((Double(longest.milliseconds) * 2 / 5).rounded(.up)) * 5)))))
        }
        let zones = deadZones(screen: screen)
        if !zones.isEmpty {
            fixes.append(("dead-zones", "[" + zones.map { "[\($0.x), \($0.y), \($0.width), \($0.height)]" }.joined(separator: ", ") + "]"))
        }
        if !stuck.isEmpty { fixes.append(("stuck-after", String(Int(PanelFilterSettings.defaultStuckAfter.seconds)))) }
        return fixes
    }

    /// Where ghosts come again and again (two or more within 40 px of each other), or last
    /// too long for min-contact: 80 px squares around them, on the screen.
    func deadZones(screen: Size) -> [Rect] {
        var zones: [Rect] = []
        for ghost in ghosts {
            let neighbours = ghosts.filter { $0.at.distance(to: ghost.at) <= 40 }
            guard neighbours.count >= 2 || ghost.lasted >= .milliseconds(250) else { continue }
            let centre = Point(x: neighbours.map(\.at.x).reduce(0, +) / Double(neighbours.count), y: neighbours.map(\.at.y).reduce(0, +) / Double(neighbours.count))
            let x = min(max(0, Int(centre.x.rounded()) - 40), max(0, screen.width - 80))
            let y = min(max(0, Int(centre.y.rounded()) - 40), max(0, screen.height - 80))
            let zone = Rect(x: x, y: y, width: min(80, screen.width), height: min(80, screen.height))
            if !zones.contains(zone) { zones.append(zone) }
        }
        return zones
    }

    private static func tenths(_ v: Double) -> String {
        let t = Int((v * 10).rounded())
        return "\(t / 10).\(abs(t % 10))"
    }

    private static func pixel(_ p: Point) -> String { "\(Int(p.x.rounded())),\(Int(p.y.rounded()))" }
}

extension Point {
    fileprivate func distance(to other: Point) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
