import BenchmarkScenes
import Foundation
import GestureConfiguration
import Responder
import Testing

/// The same decisions through C as through Swift, event for event: seeded streams of scene
/// changes and input, with the configuration's gestures attached, are routed once by the
/// core called from Swift and once by a C program through libtactile (Tests/LibTactileC/
/// replay.c); both print every delivery and gesture state in one format, and the two
/// transcripts must be equal line for line.
@Suite struct DifferentialTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aStreamGivesTheSameDecisionsThroughC(seed: UInt64) throws {
        try Self.compare(seed: seed)
    }

    /// The same with every touch a touchscreen's, through the filters of `streamFilters`:
    /// held downs and lifts, bounces joined, ghosts and dead-zone touches dropped, smoothed
    /// motion, stuck contacts cancelled, all let go by the same deadlines in both.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func aFilteredStreamGivesTheSameDecisionsThroughC(seed: UInt64) throws {
        try Self.compare(seed: seed, filtered: true)
    }

    /// Between them the streams make every kind of decision the C face reports.
    @Test func theStreamsReachEveryDecision() throws {
        var kinds: Set<String> = []
        for seed: UInt64 in 1...6 {
            var generator = StreamGenerator(seed: seed)
            var replay = SwiftReplay()
            for line in replay.run(generator.stream(steps: 4000)) {
                let words = line.split(separator: " ")
                kinds.insert(words[0] == "gesture" ? "gesture " + words[2] : String(words[0]))
            }
        }
        for kind in ["touch-down", "touch-motion", "touch-up", "touch-frame", "touch-cancel", "pointer-enter", "pointer-leave", "pointer-motion",
                     "pointer-button", "pointer-frame", "keyboard-enter", "keyboard-leave", "key", "gesture began", "gesture ended",
                     "gesture recognized", "gesture failed"] {
            #expect(kinds.contains(kind), "no stream made a \(kind): \(kinds.sorted())")
        }
    }

    /// Between them the filtered streams make every filter act.
    @Test func theFilteredStreamsReachEveryFilter() {
        var seen: Set<TouchFilterReport.Filter> = []
        for seed: UInt64 in 7...9 {
            var generator = StreamGenerator(seed: seed, filtered: true)
            var replay = SwiftReplay()
            _ = replay.run(generator.stream(steps: 4000))
            seen.formUnion(replay.filtersSeen)
        }
        #expect(seen == Set(TouchFilterReport.Filter.allCases), "no stream made \(Set(TouchFilterReport.Filter.allCases).subtracting(seen))")
    }

    static func compare(seed: UInt64, filtered: Bool = false) throws {
        var generator = StreamGenerator(seed: seed, filtered: filtered)
        let stream = generator.stream(steps: 4000)
        var replay = SwiftReplay()
        let swift = replay.run(stream)
        let file = LibTactileBuild.scratch + "/stream-\(seed).txt"
        try stream.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let c = try LibTactileBuild.run("replay", [file])
        try #require(c.status == 0, "replay failed: \(c.output.suffix(2000))")
        let cLines = Array(c.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast())
        #expect(swift.count > 300, "the stream made few decisions (\(swift.count)): it tests little")
        let firstDifference = zip(swift, cLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        if let k = firstDifference ?? (swift.count == cLines.count ? nil : min(swift.count, cLines.count)) {
            let context = max(0, k - 5)..<k
            Issue.record("""
                seed \(seed): decision \(k + 1) differs (Swift \(swift.count) lines, C \(cLines.count))
                before: \(swift[context].joined(separator: "\n"))
                Swift:  \(k < swift.count ? swift[k] : "(end)")
                C:      \(k < cLines.count ? cLines[k] : "(end)")
                """)
            return
        }
        print("differential: seed \(seed): \(stream.count) stream lines, \(swift.count) decisions, equal through C and Swift")
    }
}

/// The filters of the filtered streams' touchscreen, as a kiosk's configuration file gives
/// them: each acts often at the streams' pace (a step every 0 to 40 ms).
let streamFilters = """
    devices:
      - match: Panel
        debounce: 30
        jitter: 3
        smoothing: one-euro
        dead-zones: [[0, 0, 60, 60], [900, 700, 100, 100]]
        min-contact: 15
        stuck-after: 1
    """

/// The gestures of the streams, as a kiosk's configuration file gives them.
let streamGestures = """
    gestures:
      - name: back
        kind: edge-swipe
        edge: left
      - name: overview
        kind: swipe
        fingers: 3
      - name: double
        kind: tap
        taps: 2
        cancels-touches-in-view: false
      - name: hold
        kind: long-press
        delays-touches-began: true
        requires-failure-of: [double]
    """

/// A seeded stream in replay.c's language: clients with and without wl_touch, surfaces and
/// compositor nodes added, moved, restacked, given input regions and removed, fingers near
/// the left edge and elsewhere, the pointer and the keyboard, and time passing past
/// gestures' deadlines.
struct StreamGenerator {
    var random: SplitMix64
    var nodes = 0
    var live: [Int] = []
    var fingers: Set<Int32> = []
    var nextFinger: Int32 = 0
    var buttons = false
    var keys = false
    var now: UInt64 = 1000
    /// Every touch is device 1's, through `streamFilters`.
    let filtered: Bool

    init(seed: UInt64, filtered: Bool = false) {
        random = SplitMix64(state: seed)
        self.filtered = filtered
    }

    /// A touch line (`down ID X Y T`...), as the device's when the stream is filtered.
    func touch(_ line: String) -> String {
        guard filtered else { return line }
        return line.split(separator: "\n").map { $0 == "frame" ? "dframe 1" : "d" + $0.replacingOccurrences(of: " ", with: " 1 ", options: [], range: $0.range(of: " ")) }
            .joined(separator: "\n") + "\n"
    }

    mutating func r(_ n: Int) -> Int { random.draw(n) }

    /// Where each finger is, for the small moves of filtered streams.
    var positions: [Int32: (x: Double, y: Double)] = [:]

    mutating func point() -> String {
        // One touch in four starts at the left edge, where the edge swipe takes it.
        let x = r(4) == 0 ? r(20) : r(1000)
        let (xd, y, yd) = (r(10), r(800), r(10))
        last = (Double(x) + Double(xd) / 10, Double(y) + Double(yd) / 10)
        return "\(x).\(xd) \(y).\(yd)"
    }

    /// The point `point()` gave last.
    var last = (x: 0.0, y: 0.0)

    mutating func stream(steps: Int) -> [String] {
        var out = ["root 1000 800\n", "yaml \(streamGestures.utf8.count)\n\(streamGestures)\n"]
        if filtered { out.append("devices \(streamFilters.utf8.count)\n\(streamFilters)\n") }
        for client in 1...3 { out.append("caps \(client) \(client == 3 ? 3 : 7)\n") }
        for _ in 0..<8 { out.append(add()) }
        for _ in 0..<steps {
            now += UInt64(r(40_000))
            out.append(step())
        }
        for id in fingers.sorted() { out.append(touch("up \(id) \(now)\nframe\n")) }
        out.append("deadline \(now + 2_000_000)\n")
        return out
    }

    mutating func add() -> String {
        let parent = live.isEmpty || r(3) == 0 ? 0 : live[r(live.count)]
        let client = r(5) == 0 ? 0 : 1 + r(3)
        let flags = [1, 1, 1, 9, 9, 3, 5, 0][r(8)]
        nodes += 1
        live.append(nodes)
        return "add \(parent) \(client) \(r(700) - 50) \(r(600) - 50) \(r(500)) \(r(400)) \(flags)\n"
    }

    mutating func step() -> String {
        switch r(26) {
        case 0: return add()
        case 1 where !live.isEmpty:
            let k = r(live.count)
            defer { live.remove(at: k) }
            return "remove \(live[k])\n"
        case 2 where !live.isEmpty: return "geometry \(live[r(live.count)]) \(r(700)) \(r(600)) \(r(500)) \(r(400))\n"
        case 3 where !live.isEmpty: return "region \(live[r(live.count)]) 2 0 0 \(r(200)) \(r(200)) \(r(100)) \(r(100)) \(r(300)) \(r(300))\n"
        case 4 where !live.isEmpty: return "infinite \(live[r(live.count)])\n"
        case 5 where !live.isEmpty: return (r(2) == 0 ? "top " : "bottom ") + "\(live[r(live.count)])\n"
        case 6: return "caps \(1 + r(3)) \(r(8))\n"
        case 7 where r(10) == 0: return "gone \(1 + r(3))\n"
        case 8...10 where fingers.count < 4:
            nextFinger += 1
            fingers.insert(nextFinger)
            let line = touch("down \(nextFinger) \(point()) \(now)\nframe\n")
            positions[nextFinger] = last
            return line
        case 11...15 where !fingers.isEmpty:
            let id = fingers.sorted()[r(fingers.count)]
            let line = touch("motion \(id) \(point()) \(now)\nframe\n")
            positions[id] = last
            return line
        case 16...17 where !fingers.isEmpty:
            let id = fingers.sorted()[r(fingers.count)]
            fingers.remove(id)
            return touch((r(8) == 0 ? "cancel" : "up") + " \(id) \(now)\nframe\n")
        // With no finger down: a deliberate double tap, or a finger held still past the long
        // press's deadline, so the recognizers that need calm also win now and then.
        case 21 where fingers.isEmpty:
            let at = "\(100 + r(800)) \(100 + r(600))"
            nextFinger += 2
            let (a, b, t) = (nextFinger - 1, nextFinger, now)
            now += 200_000
            return touch("down \(a) \(at) \(t)\nframe\nup \(a) \(t + 50_000)\nframe\ndown \(b) \(at) \(t + 120_000)\nframe\nup \(b) \(t + 170_000)\nframe\n")
        case 22 where fingers.isEmpty:
            nextFinger += 1
            let t = now
            now += 700_000
            return touch("down \(nextFinger) \(100 + r(800)) \(100 + r(600)) \(t)\nframe\n") + "deadline \(t + 650_000)\n" + touch("up \(nextFinger) \(t + 700_000)\nframe\n")
        // Filtered streams only: a finger's jitter, and a contact the device never lets go of
        // while nothing else on it changes.
        case 23 where filtered && !fingers.isEmpty:
            let id = fingers.sorted()[r(fingers.count)]
            let at = positions[id] ?? (0, 0)
            return touch("motion \(id) \(at.x + Double(r(5) - 2)) \(at.y + Double(r(5) - 2)) \(now)\nframe\n")
        case 24 where filtered && fingers.isEmpty:
            nextFinger += 1
            let t = now
            now += 1_300_000
            return touch("down \(nextFinger) \(100 + r(800)) \(100 + r(600)) \(t)\nframe\n") + "deadline \(t + 1_200_000)\n" + touch("up \(nextFinger) \(t + 1_300_000)\nframe\n")
        case 18: return "pointer \(point()) \(now)\n"
        case 19:
            buttons.toggle()
            return "button 272 \(buttons ? 1 : 0) \(now)\n"
        case 20:
            keys.toggle()
            return "key 30 \(keys ? 1 : 0) \(now)\n"
        default: return "deadline \(now)\n"
        }
    }
}

/// The stream routed by the core from Swift, printed as replay.c prints libtactile's.
struct SwiftReplay {
    var router = InputRouter()
    var filters = TouchFilters()
    /// The filters that acted, for `theFilteredStreamsReachEveryFilter`.
    var filtersSeen: Set<TouchFilterReport.Filter> = []
    var nodes: [NodeID?] = []
    var names: [NodeID: Int] = [:]
    var gestureNames: [GestureID: String] = [:]
    var lines: [String] = []

    mutating func run(_ stream: [String]) -> [String] {
        nodes = [router.scene.root]
        names[router.scene.root] = 0
        var words = stream.joined().split(whereSeparator: \.isWhitespace).map(String.init)[...]
        func int() -> Int { Int(words.popFirst() ?? "") ?? 0 }
        func double() -> Double { Double(words.popFirst() ?? "") ?? 0 }
        func time() -> Instant { Instant(microseconds: UInt64(words.popFirst() ?? "") ?? 0) }
        func node(_ n: Int) -> NodeID? { n >= 0 && n < nodes.count ? nodes[n] : nil }
        let text = stream.joined()
        while let op = words.popFirst() {
            switch op {
            case "root":
                let (w, h) = (int(), int())
                change { $0.update($0.root) { $0.size = Size(width: w, height: h) } }
            case "yaml":
                let count = int()
                // The YAML is everything between the line "yaml N" and the next command.
                let start = text.range(of: "yaml \(count)\n")!.upperBound
                let yaml = String(text.utf8[start...].prefix(count))!
                let bindings = try! YAMLReader.gestures(fromYAML: yaml, file: "stream")
                for (binding, id) in zip(bindings, router.install(bindings).ids) { gestureNames[id] = binding.name }
                let yamlWords = yaml.split(whereSeparator: \.isWhitespace).count
                words = words.dropFirst(yamlWords)
            case "devices":
                let count = int()
                let start = text.range(of: "devices \(count)\n")!.upperBound
                let yaml = String(text.utf8[start...].prefix(count))!
                let panel = try! YAMLReader.touchFilters(fromYAML: yaml, file: "stream", device: "Panel")
                filters.setFilters(panel.touchFilters(on: Rect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))).settings, for: InputDeviceID(1))
                words = words.dropFirst(yaml.split(whereSeparator: \.isWhitespace).count)
            case "ddown": filter(device: int(), .touchDown(id: Int32(int()), global: Point(x: double(), y: double()), time: time()))
            case "dmotion": filter(device: int(), .touchMotion(id: Int32(int()), global: Point(x: double(), y: double()), time: time()))
            case "dup": filter(device: int(), .touchUp(id: Int32(int()), time: time()))
            case "dcancel": filter(device: int(), .touchCancel(id: Int32(int()), time: time()))
            case "dframe": filter(device: int(), .touchFrame)
            case "add":
                let (parent, client, x, y, w, h, flags) = (int(), UInt64(int()), int(), int(), int(), int(), int())
                var made: NodeID?
                if let p = node(parent) {
                    let owner = client == 0 ? nil : ClientID(client)
                    let n = Node(client: owner, isToplevel: flags & 8 != 0, position: Position(x: x, y: y), size: Size(width: w, height: h),
                                 inputRegion: owner == nil ? .empty : .infinite, isMapped: flags & 1 != 0, isHidden: flags & 2 != 0,
                                 acceptsInput: flags & 4 == 0)
                    // Named as it is added: the pointer may enter it while the core settles the change.
                    let name = nodes.count
                    var named = names
                    var sink = OrderedSink()
                    made = router.updateScene(sink: &sink) { scene in
                        let id = scene.add(n, to: p)
                        if let id { named[id] = name }
                        return id
                    }
                    names = named
                    record(sink)
                }
                nodes.append(made)
            case "remove": if let n = node(int()) { change { $0.remove(n) } }
            case "geometry":
                let (n, x, y, w, h) = (node(int()), int(), int(), int(), int())
                if let n { change { $0.update(n) { $0.position = Position(x: x, y: y); $0.size = Size(width: w, height: h) } } }
            case "region":
                let (n, count) = (node(int()), int())
                var region = Region()
                for _ in 0..<count { region.add(Rect(x: int(), y: int(), width: int(), height: int())) }
                if let n { change { $0.update(n) { $0.inputRegion = region } } }
            case "infinite": if let n = node(int()) { change { $0.update(n) { $0.inputRegion = .infinite } } }
            case "top": if let n = node(int()) { change { $0.restack(n, to: .top) } }
            case "bottom": if let n = node(int()) { change { $0.restack(n, to: .bottom) } }
            case "caps":
                let (client, mask) = (UInt64(int()), int())
                var caps: InputCapabilities = []
                if mask & 1 != 0 { caps.insert(.pointer) }
                if mask & 2 != 0 { caps.insert(.keyboard) }
                if mask & 4 != 0 { caps.insert(.touch) }
                router.setCapabilities(caps, for: ClientID(client))
            case "gone": let client = ClientID(UInt64(int())); routed { $0.clientDisconnected(client, sink: &$1) }
            case "down": handle(.touchDown(id: Int32(int()), global: Point(x: double(), y: double()), time: time()))
            case "motion": handle(.touchMotion(id: Int32(int()), global: Point(x: double(), y: double()), time: time()))
            case "up": handle(.touchUp(id: Int32(int()), time: time()))
            case "cancel": handle(.touchCancel(id: Int32(int()), time: time()))
            case "frame": handle(.touchFrame)
            case "pointer": handle(.pointerMotion(global: Point(x: double(), y: double()), time: time()))
            case "button": handle(.pointerButton(button: UInt32(int()), state: int() != 0 ? .pressed : .released, time: time()))
            case "key": handle(.key(key: UInt32(int()), state: int() != 0 ? .pressed : .released, time: time()))
            case "deadline":
                // As tactile_fire_deadlines: what the filters held first, then the recognizers.
                let t = time()
                var output = RecordingFilterOutput()
                filters.fireDeadlines(at: t, into: &output)
                filtersSeen.formUnion(output.reports.map(\.filter))
                for event in output.events { handle(event) }
                routed { $0.fireGestureDeadlines(at: t, sink: &$1) }
            default: Issue.record("unknown stream word \(op)")
            }
        }
        return lines
    }

    mutating func handle(_ event: InputEvent) { routed { $0.handle(event, sink: &$1) } }

    mutating func filter(device: Int, _ event: InputEvent) {
        var output = RecordingFilterOutput()
        filters.filter(event, from: InputDeviceID(UInt32(device)), into: &output)
        filtersSeen.formUnion(output.reports.map(\.filter))
        for event in output.events { handle(event) }
    }

    @discardableResult
    mutating func change<R>(_ body: (inout Scene) -> R) -> R {
        var sink = OrderedSink()
        let result = router.updateScene(sink: &sink, body)
        record(sink)
        return result
    }

    mutating func routed(_ body: (inout InputRouter, inout OrderedSink) -> Void) {
        var sink = OrderedSink()
        body(&router, &sink)
        record(sink)
    }

    mutating func record(_ sink: OrderedSink) {
        for entry in sink.entries {
            switch entry {
            case .delivery(let d): lines.append(line(d))
            case .gesture(let g): lines.append("gesture \(gestureNames[g.gesture] ?? "?") \(g.state) t=\(g.time.microseconds)")
            }
        }
    }

    func n(_ node: NodeID) -> Int { names[node] ?? -1 }

    func f(_ v: Double) -> String { String(format: "%.3f", v) }

    func line(_ d: Delivery) -> String {
        switch d {
        case .touchDown(let c, let s, let id, let l, let t): "touch-down c=\(c.rawValue) n=\(n(s)) id=\(id) \(f(l.x)) \(f(l.y)) t=\(t.microseconds)"
        case .touchMotion(let c, let s, let id, let l, let t): "touch-motion c=\(c.rawValue) n=\(n(s)) id=\(id) \(f(l.x)) \(f(l.y)) t=\(t.microseconds)"
        case .touchUp(let c, let id, let t): "touch-up c=\(c.rawValue) id=\(id) t=\(t.microseconds)"
        case .touchFrame(let c): "touch-frame c=\(c.rawValue)"
        case .touchCancel(let c): "touch-cancel c=\(c.rawValue)"
        case .pointerEnter(let c, let s, let l): "pointer-enter c=\(c.rawValue) n=\(n(s)) \(f(l.x)) \(f(l.y))"
        case .pointerLeave(let c, let s): "pointer-leave c=\(c.rawValue) n=\(n(s))"
        case .pointerMotion(let c, let s, let l, let t): "pointer-motion c=\(c.rawValue) n=\(n(s)) \(f(l.x)) \(f(l.y)) t=\(t.microseconds)"
        case .pointerButton(let c, let b, let s, let t): "pointer-button c=\(c.rawValue) \(b) \(s == .pressed ? 1 : 0) t=\(t.microseconds)"
        case .pointerAxis(let c, _, _): "pointer-axis c=\(c.rawValue)"
        case .pointerFrame(let c): "pointer-frame c=\(c.rawValue)"
        case .keyboardEnter(let c, let s, let keys): "keyboard-enter c=\(c.rawValue) n=\(n(s)) keys" + keys.map { " \($0)" }.joined()
        case .keyboardLeave(let c, let s): "keyboard-leave c=\(c.rawValue) n=\(n(s))"
        case .key(let c, let k, let s, let t): "key c=\(c.rawValue) \(k) \(s == .pressed ? 1 : 0) t=\(t.microseconds)"
        default: "other"
        }
    }
}

/// Deliveries and gesture events in the order the core made them, as the C callbacks hear them.
struct OrderedSink: DeliverySink {
    enum Entry {
        case delivery(Delivery)
        case gesture(GestureEvent)
    }

    var entries: [Entry] = []
    mutating func deliver(_ delivery: Delivery) { entries.append(.delivery(delivery)) }
    mutating func gesture(_ event: GestureEvent) { entries.append(.gesture(event)) }
}
