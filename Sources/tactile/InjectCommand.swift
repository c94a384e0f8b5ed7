import ArgumentParser
import CWaylandClient
import Glibc
import TactileServer
import WaylandProtocols

struct InjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inject",
        abstract: "Send input from a script to a running `tactile serve --test-input`.",
        discussion: """
        One event per line; '#' starts a comment. Coordinates are global (output) pixels, or \
        the window's with --window.
          touch down ID X Y | touch motion ID X Y | touch up ID | touch cancel ID | touch frame
          pointer motion X Y | pointer button BUTTON pressed|released   (BUTTON: left, right, middle or an evdev code)
          pointer scroll DX DY                                            (one wheel step: 120ths from the sign)
          key CODE pressed|released                                       (CODE: evdev key code, e.g. 30 for A)
          touchpad swipe|pinch|hold FINGERS | touchpad update DX DY [SCALE [DEGREES]] | touchpad end [cancelled]
          pen in ID X Y | pen motion ID X Y [PRESSURE [TILT_X TILT_Y]] | pen tip ID down|up | pen out ID
          pen button ID stylus|stylus2|stylus3 pressed|released           (PRESSURE: 0 to 1; TILT: degrees)
          pen motion ID X Y PRESSURE TILT_X TILT_Y DISTANCE ROTATION SLIDER WHEEL CLICKS   (every axis; WHEEL: a turn, in degrees)
          pen tool ID pen|eraser|brush|pencil|airbrush|finger|mouse|lens [tilt] [pressure] [distance] [rotation] [slider] [wheel]
          pad button ID N pressed|released | pad ring ID N DEGREES|stop | pad strip ID N POSITION|stop   (POSITION: 0 to 1)
          sleep MILLISECONDS
          wait mapped app_id=ID | focused app_id=ID | idle | frame app_id=ID | titled app_id=ID TEXT   (as inspect --wait;
                                                                          a frame counts from the script's start or its last wait)
        A line may begin with @T, T in microseconds since the script began (`tactile record` \
        writes them): it is sent then, and stamped with that time, so clients see the script's \
        spacing. `# window APP_ID WIDTHxHEIGHT` (written by `record --window`) says the size \
        the window had when its coordinates were recorded.
        """
    )

    @Argument(help: "The script; standard input when absent or '-'.")
    var script: String?

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    @Option(help: "Positions are relative to this window's top-left (app_id), wherever it is now; scaled to its size when the script's `# window` line says another.")
    var window: String?

    @Flag(help: "With --window: refuse a window whose size differs from the script's `# window` line instead of scaling.")
    var refuseResized = false

    @Option(help: "Play @T times this many times faster (2: twice as fast, 0.5: half).")
    var speed: Double = 1

    @Option(help: "How long each `wait` line waits, in seconds.")
    var timeout: Double = 10

    func validate() throws {
        if !(speed > 0 && speed.isFinite) { throw ValidationError("--speed \(speed): expected a factor above 0, e.g. 2") }
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout \(timeout): expected a number of seconds above 0") }
        if refuseResized, window == nil { throw ValidationError("--refuse-resized is about --window; name the window") }
    }

    func run() throws {
        let source = script.flatMap { $0 == "-" ? nil : $0 }
        let text = try (source.map(TextFile.read) ?? TextFile.read(fd: STDIN_FILENO))
            .mapError { GlobalConnection.Failure(description: "cannot read \(source ?? "standard input"): \($0)") }.get()
        let parsed = try InjectScript.parse(text)
        // The server takes times up to 2^40 µs past the first; a slow enough speed puts a
        // line beyond that (or beyond what a UInt64 holds): refused before anything is sent.
        if let late = parsed.lines.first(where: { $0.time.map { Double($0) / speed > 0x1p40 } ?? false }) {
            throw InjectScript.Error(line: late.number, text: late.words.joined(separator: " "),
                                     problem: "at --speed \(speed) it comes more than 2^40 µs (12 days) after the script began")
        }
        let connection = try InjectConnection(socket: socket)
        var player = ScriptPlayer(connection: connection, socket: socket, speed: speed, timeout: timeout)
        if let window {
            player.placement = WindowPlacement(appID: window, recorded: parsed.window.flatMap { $0.appID == window ? $0.size : nil },
                                               refuseResized: refuseResized)
        }
        try player.play(parsed.lines)
        try connection.finish()
    }
}

/// Plays a script's lines: each at its @T time (scaled by `speed`), through `connection`;
/// `wait` lines ask the inspector; with a placement, positions are the window's.
struct ScriptPlayer {
    let connection: InjectConnection
    let socket: String?
    let speed: Double
    let timeout: Double
    var placement: WindowPlacement?
    private var inspector: InspectorConnection?
    /// Where the window was found; looked up again after each wait (it may have moved).
    private var origin: (x: Double, y: Double, scaleX: Double, scaleY: Double)?
    /// The scene when the script began or its last wait ended: a `wait frame` waits for a
    /// frame after it, so the frame a tap just above the wait caused counts.
    private var since: SceneListing?

    init(connection: InjectConnection, socket: String?, speed: Double, timeout: Double) {
        self.connection = connection
        self.socket = socket
        self.speed = speed
        self.timeout = timeout
    }

    mutating func play(_ lines: [InjectScript.Line]) throws {
        if lines.contains(where: { if case .wait(.frame) = $0.step { true } else { false } }) { since = try inspect().scene() }
        let start = monotonicSeconds()
        for line in lines {
            if let time = line.time {
                let due = Double(time) / speed  // µs; checked against 2^40 before playing
                let wait = due / 1e6 - (monotonicSeconds() - start)
                if wait > 0 { usleep(UInt32(min(wait * 1e6, 4e9))) }
                try connection.setTime(UInt64(due))
            }
            if case .wait(let condition) = line.step {
                try connection.finish()
                try inspect().wait(for: condition, timeout: timeout, since: since)
                if since != nil { since = try inspect().scene() }
                origin = nil
                continue
            }
            try connection.perform(placement == nil ? line.step : placed(line))
        }
    }

    private mutating func inspect() throws -> InspectorConnection {
        if let inspector { return inspector }
        let made = try InspectorConnection(socket: socket)
        inspector = made
        return made
    }

    /// The line with its position moved from the window's pixels to global ones.
    private mutating func placed(_ line: InjectScript.Line) throws -> InjectStep {
        guard let placement, let (xi, yi) = InjectScript.coordinates(in: line.words) else { return line.step }
        if origin == nil { origin = try placement.locate(in: try inspect().scene()) }
        guard let origin, let x = Double(line.words[xi]), let y = Double(line.words[yi]) else { return line.step }
        var words = line.words
        words[xi] = String(origin.x + x * origin.scaleX)
        words[yi] = String(origin.y + y * origin.scaleY)
        return try InjectScript.step(words, line: line.number)
    }
}

/// `--window`: which window a script's positions are relative to, and the size they were
/// recorded at, if the script says.
struct WindowPlacement {
    let appID: String
    let recorded: (width: Int, height: Int)?
    let refuseResized: Bool

    func locate(in scene: SceneListing) throws -> (x: Double, y: Double, scaleX: Double, scaleY: Double) {
        let window = try scene.shownWindow(appID)
        guard let recorded, recorded != (window.width, window.height) else { return (Double(window.x), Double(window.y), 1, 1) }
        if refuseResized {
            throw GlobalConnection.Failure(description: "--window \(appID): the window is \(window.width)x\(window.height), the script was recorded at \(recorded.width)x\(recorded.height) (without --refuse-resized its positions are scaled)")
        }
        return (Double(window.x), Double(window.y), Double(window.width) / Double(recorded.width), Double(window.height) / Double(recorded.height))
    }
}

/// One line of an inject script.
enum InjectStep: Equatable {
    case touchDown(id: Int32, x: Double, y: Double)
    case touchMotion(id: Int32, x: Double, y: Double)
    case touchUp(id: Int32)
    case touchCancel(id: Int32)
    case touchFrame
    case pointerMotion(x: Double, y: Double)
    case pointerButton(button: UInt32, pressed: Bool)
    case pointerScroll(dx: Double, dy: Double)
    case key(code: UInt32, pressed: Bool)
    case touchpadBegin(kind: UInt32, fingers: UInt32)
    case touchpadUpdate(dx: Double, dy: Double, scale: Double, degrees: Double)
    case touchpadEnd(cancelled: Bool)
    case penIn(id: Int32, x: Double, y: Double)
    case penMotion(id: Int32, x: Double, y: Double, pressure: Double, tiltX: Double, tiltY: Double)
    case penTip(id: Int32, down: Bool)
    case penButton(id: Int32, button: UInt32, pressed: Bool)
    case penOut(id: Int32)
    /// Every axis: distance, rotation, slider and a wheel's turn besides pressure and tilt.
    case penMotionAxes(id: Int32, x: Double, y: Double, axes: [Double], clicks: Int32)
    case penTool(id: Int32, type: UInt32, capabilities: UInt32)
    case padButton(id: Int32, button: UInt32, pressed: Bool)
    /// `nil`: the finger left the ring or strip.
    case padRing(id: Int32, ring: UInt32, degrees: Double?)
    case padStrip(id: Int32, strip: UInt32, position: Double?)
    case sleep(milliseconds: UInt32)
    case wait(WaitCondition)
}

enum InjectScript {
    struct Error: Swift.Error, CustomStringConvertible {
        let line: Int
        let text: String
        let problem: String
        var description: String { "line \(line): \(problem): \(text)" }
    }

    /// A line: its @T time, if it has one, its words and what they say.
    struct Line {
        let number: Int
        let time: UInt64?
        let words: [String]
        let step: InjectStep
    }

    struct Parsed {
        var lines: [Line] = []
        /// `# window APP_ID WIDTHxHEIGHT`: the window the positions were recorded in.
        var window: (appID: String, size: (width: Int, height: Int))?
    }

    static func parse(_ text: String) throws -> Parsed {
        var parsed = Parsed()
        var lastTime: UInt64 = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let parts = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, let window = windowLine(parts[1]) { parsed.window = window }
            var words = (parts.first.map(String.init) ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            guard !words.isEmpty else { continue }
            var time: UInt64?
            if words[0].hasPrefix("@") {
                guard let t = UInt64(words[0].dropFirst()) else {
                    throw Error(line: index + 1, text: String(raw), problem: "@T needs T, microseconds since the script began")
                }
                guard t >= lastTime else {
                    throw Error(line: index + 1, text: String(raw), problem: "@\(t) comes before the line above it (@\(lastTime))")
                }
                time = t
                lastTime = t
                words.removeFirst()
            }
            parsed.lines.append(Line(number: index + 1, time: time, words: words, step: try step(words, line: index + 1, text: String(raw))))
        }
        return parsed
    }

    static func step(_ words: [String], line: Int, text: String? = nil) throws -> InjectStep {
        if words.first == "wait" {
            guard let condition = WaitCondition(words.dropFirst().joined(separator: " ")) else {
                throw Error(line: line, text: text ?? words.joined(separator: " "), problem: "expected wait \(WaitCondition.syntax)")
            }
            return .wait(condition)
        }
        guard let step = step(words) else { throw Error(line: line, text: text ?? words.joined(separator: " "), problem: "not an event this script knows") }
        return step
    }

    /// Where a line's position is (the indices of X and Y among its words), for the lines
    /// that have one: what --window moves and `record --window` makes relative.
    static func coordinates(in words: [String]) -> (Int, Int)? {
        switch (words.first, words.count > 1 ? words[1] : nil) {
        case ("touch", "down"), ("touch", "motion"), ("pen", "in"), ("pen", "motion"): words.count >= 5 ? (3, 4) : nil
        case ("pointer", "motion"): words.count >= 4 ? (2, 3) : nil
        default: nil
        }
    }

    private static func windowLine(_ comment: Substring) -> (appID: String, size: (width: Int, height: Int))? {
        let words = comment.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, words[0] == "window" else { return nil }
        let size = words[2].split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, size[0] > 0, size[1] > 0 else { return nil }
        return (String(words[1]), (size[0], size[1]))
    }

    private static func step(_ w: [String]) -> InjectStep? {
        func num(_ i: Int) -> Double? { i < w.count ? Double(w[i]).flatMap { $0.isFinite ? $0 : nil } : nil }
        func int(_ i: Int) -> Int32? { i < w.count ? Int32(w[i]) : nil }
        func pressed(_ i: Int) -> Bool? { i < w.count ? ["pressed": true, "released": false][w[i]] : nil }
        switch (w.first, w.count > 1 ? w[1] : nil, w.count) {
        case ("touch", "down", 5): return int(2).flatMap { id in num(3).flatMap { x in num(4).map { .touchDown(id: id, x: x, y: $0) } } }
        case ("touch", "motion", 5): return int(2).flatMap { id in num(3).flatMap { x in num(4).map { .touchMotion(id: id, x: x, y: $0) } } }
        case ("touch", "up", 3): return int(2).map { .touchUp(id: $0) }
        case ("touch", "cancel", 3): return int(2).map { .touchCancel(id: $0) }
        case ("touch", "frame", 2): return .touchFrame
        case ("pointer", "motion", 4): return num(2).flatMap { x in num(3).map { .pointerMotion(x: x, y: $0) } }
        case ("pointer", "button", 4): return button(w[2]).flatMap { b in pressed(3).map { .pointerButton(button: b, pressed: $0) } }
        case ("pointer", "scroll", 4): return num(2).flatMap { dx in num(3).map { .pointerScroll(dx: dx, dy: $0) } }
        case ("touchpad", "swipe", 3), ("touchpad", "pinch", 3), ("touchpad", "hold", 3):
            let kind: UInt32 = ["swipe": 0, "pinch": 1, "hold": 2][w[1]]!
            return UInt32(w[2]).map { .touchpadBegin(kind: kind, fingers: $0) }
        case ("touchpad", "update", 4...6):
            return num(2).flatMap { dx in num(3).flatMap { dy in
                (w.count > 4 ? num(4) : 1).flatMap { scale in (w.count > 5 ? num(5) : 0).map { .touchpadUpdate(dx: dx, dy: dy, scale: scale, degrees: $0) } }
            } }
        case ("touchpad", "end", 2): return .touchpadEnd(cancelled: false)
        case ("touchpad", "end", 3) where w[2] == "cancelled": return .touchpadEnd(cancelled: true)
        case ("pen", "in", 5): return int(2).flatMap { id in num(3).flatMap { x in num(4).map { .penIn(id: id, x: x, y: $0) } } }
        case ("pen", "motion", 5), ("pen", "motion", 6), ("pen", "motion", 8):
            let axes = (w.count > 5 ? num(5) : 0).flatMap { p in (w.count > 6 ? num(6) : 0).flatMap { tx in (w.count > 7 ? num(7) : 0).map { (p, tx, $0) } } }
            return int(2).flatMap { id in num(3).flatMap { x in num(4).flatMap { y in axes.map { .penMotion(id: id, x: x, y: y, pressure: $0.0, tiltX: $0.1, tiltY: $0.2) } } } }
        case ("pen", "tip", 4): return int(2).flatMap { id in ["down": true, "up": false][w[3]].map { .penTip(id: id, down: $0) } }
        case ("pen", "button", 5):
            let code: UInt32? = ["stylus": 0x14b, "stylus2": 0x14c, "stylus3": 0x149][w[3]] ?? UInt32(w[3])
            return int(2).flatMap { id in code.flatMap { c in pressed(4).map { .penButton(id: id, button: c, pressed: $0) } } }
        case ("pen", "out", 3): return int(2).map { .penOut(id: $0) }
        case ("pen", "motion", 13):
            let values = (3..<12).compactMap(num)
            guard values.count == 9, let id = int(2), let clicks = int(12) else { return nil }
            return .penMotionAxes(id: id, x: values[0], y: values[1], axes: Array(values[2...]), clicks: clicks)
        case ("pen", "tool", 4...10):
            let types: [String: UInt32] = ["pen": 0x140, "eraser": 0x141, "brush": 0x142, "pencil": 0x143, "airbrush": 0x144,
                                           "finger": 0x145, "mouse": 0x146, "lens": 0x147]
            let capabilities: [String: UInt32] = ["tilt": 1, "pressure": 2, "distance": 3, "rotation": 4, "slider": 5, "wheel": 6]
            let bits = w[4...].map { capabilities[$0] }
            guard let id = int(2), let type = types[w[3]], !bits.contains(nil) else { return nil }
            return .penTool(id: id, type: type, capabilities: bits.reduce(0) { $0 | 1 << $1! })
        case ("pad", "button", 5): return int(2).flatMap { id in UInt32(w[3]).flatMap { b in pressed(4).map { .padButton(id: id, button: b, pressed: $0) } } }
        case ("pad", "ring", 5), ("pad", "strip", 5):
            let value: Double?? = w[4] == "stop" ? .some(nil) : num(4).map { .some($0) }
            return int(2).flatMap { id in UInt32(w[3]).flatMap { index in value.map { w[1] == "ring" ? .padRing(id: id, ring: index, degrees: $0) : .padStrip(id: id, strip: index, position: $0) } } }
        case ("key", _, 3): return UInt32(w[1]).flatMap { code in pressed(2).map { .key(code: code, pressed: $0) } }
        case ("sleep", _, 2): return UInt32(w[1]).map { .sleep(milliseconds: $0) }
        default: return nil
        }
    }

    private static func button(_ word: String) -> UInt32? {
        ["left": 0x110, "right": 0x111, "middle": 0x112][word] ?? UInt32(word)
    }
}

/// A client connection holding tactile_test_input_v1.
final class InjectConnection {
    private let connection: GlobalConnection

    init(socket: String?) throws {
        connection = try GlobalConnection(socket: socket, interface: tactile_tactile_test_input_v1_interface(),
                                          missing: "start it with `tactile serve --test-input`")
    }

    /// Stamps the events that follow with script time `usec` (test input 6).
    func setTime(_ usec: UInt64) throws {
        let version = wl_proxy_get_version(connection.global)
        guard version >= 6 else {
            throw GlobalConnection.Failure(description: "this compositor's tactile_test_input_v1 is version \(version); @T times need 6 (a newer tactile serve)")
        }
        tactile_test_input_v1_set_time(connection.global, UInt32(truncatingIfNeeded: usec >> 32), UInt32(truncatingIfNeeded: usec))
    }

    /// Waits until the compositor has handled everything sent.
    func finish() throws {
        guard wl_display_roundtrip(connection.display) >= 0 else {
            throw GlobalConnection.Failure(description: "the compositor refused the script (error \(wl_display_get_error(connection.display)))")
        }
    }

    func perform(_ step: InjectStep) throws {
        let (input, display) = (connection.global, connection.display)
        switch step {
        case .touchDown(let id, let x, let y): tactile_test_input_v1_touch_down(input, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        case .touchMotion(let id, let x, let y): tactile_test_input_v1_touch_motion(input, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        case .touchUp(let id): tactile_test_input_v1_touch_up(input, id)
        case .touchCancel(let id): tactile_test_input_v1_touch_cancel(input, id)
        case .touchFrame: tactile_test_input_v1_touch_frame(input)
        case .pointerMotion(let x, let y): tactile_test_input_v1_pointer_motion(input, wl_fixed_from_double(x), wl_fixed_from_double(y))
        case .pointerButton(let button, let pressed): tactile_test_input_v1_pointer_button(input, button, pressed ? 1 : 0)
        case .pointerScroll(let dx, let dy):
            let steps = { (v: Double) -> Int32 in v == 0 ? 0 : (v > 0 ? 120 : -120) }
            tactile_test_input_v1_pointer_axis(input, wl_fixed_from_double(dx), wl_fixed_from_double(dy), steps(dx), steps(dy))
        case .key(let code, let pressed): tactile_test_input_v1_key(input, code, pressed ? 1 : 0)
        case .touchpadBegin(let kind, let fingers): tactile_test_input_v1_touchpad_gesture_begin(input, kind, fingers)
        case .touchpadUpdate(let dx, let dy, let scale, let degrees):
            tactile_test_input_v1_touchpad_gesture_update(input, wl_fixed_from_double(dx), wl_fixed_from_double(dy), wl_fixed_from_double(scale), wl_fixed_from_double(degrees))
        case .touchpadEnd(let cancelled): tactile_test_input_v1_touchpad_gesture_end(input, cancelled ? 1 : 0)
        case .penIn(let id, let x, let y): tactile_test_input_v1_pen_proximity_in(input, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
        case .penMotion(let id, let x, let y, let pressure, let tiltX, let tiltY):
            tactile_test_input_v1_pen_motion(input, id, wl_fixed_from_double(x), wl_fixed_from_double(y), wl_fixed_from_double(pressure),
                                             wl_fixed_from_double(tiltX), wl_fixed_from_double(tiltY))
        case .penTip(let id, let down): tactile_test_input_v1_pen_tip(input, id, down ? 1 : 0)
        case .penButton(let id, let button, let pressed): tactile_test_input_v1_pen_button(input, id, button, pressed ? 1 : 0)
        case .penOut(let id): tactile_test_input_v1_pen_proximity_out(input, id)
        case .penMotionAxes(let id, let x, let y, let a, let clicks):
            let fixed = wl_fixed_from_double
            tactile_test_input_v1_pen_motion_axes(input, id, fixed(x), fixed(y), fixed(a[0]), fixed(a[1]), fixed(a[2]), fixed(a[3]), fixed(a[4]), fixed(a[5]),
                                                  fixed(a[6]), clicks)
        case .penTool(let id, let type, let capabilities): tactile_test_input_v1_pen_describe(input, id, type, capabilities)
        case .padButton(let id, let button, let pressed): tactile_test_input_v1_pad_button(input, id, button, pressed ? 1 : 0)
        case .padRing(let id, let ring, let degrees): tactile_test_input_v1_pad_ring(input, id, ring, wl_fixed_from_double(degrees ?? 0), degrees == nil ? 0 : 1)
        case .padStrip(let id, let strip, let position): tactile_test_input_v1_pad_strip(input, id, strip, wl_fixed_from_double(position ?? 0), position == nil ? 0 : 1)
        case .sleep(let ms):
            guard wl_display_roundtrip(display) >= 0 else { throw GlobalConnection.Failure(description: "connection lost") }
            usleep(ms * 1000)
        case .wait:
            return  // the player waits, through the inspector
        }
        guard wl_display_roundtrip(display) >= 0 else {
            throw GlobalConnection.Failure(description: "the compositor refused \(step) (error \(wl_display_get_error(display)))")
        }
    }
}
