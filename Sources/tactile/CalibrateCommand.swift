import ArgumentParser
import Glibc
import Responder
import TactileBackends
import TactileServer

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a touchscreen of a running Tactile by touching crosses on it.",
        discussion: """
        Shows five crosses, one at a time, over everything on the touchscreen's screen (the \
        app keeps its state and hears no touch meanwhile): touch each where its lines meet. \
        A touch far from its cross, or where an earlier one landed, turns the cross red and \
        is asked again. The first four fit libinput's calibration matrix by least squares; \
        the fifth checks it. The matrix applies at once and is printed as a devices: entry \
        of the configuration file; --write puts it into that file, the rest of the file \
        kept as it was. With --map, each screen in turn turns white and asks to be touched \
        instead: the touchscreen that touches it is mapped to it at once and printed (and \
        written) as a devices: entry's output; a screen no touchscreen touches within \
        --wait seconds is skipped. Tactile offers both to the clients it started, its own \
        executable and weston-touch-calibrator (privileges.touch-calibration).
        """
    )

    @Flag(help: "Map touchscreens to screens by touching each screen, instead of calibrating.")
    var map = false

    @Option(help: ArgumentHelp("With --map: how long each screen waits to be touched before it is skipped.", valueName: "seconds"))
    var wait = 30

    @Flag(help: "With --map: ask only with two or more screens and a touchscreen whose screen was guessed (by size, or the first); `touch.map: ask` runs this at start.")
    var ifGuessed = false

    @Option(help: ArgumentHelp("The touchscreen: its name or udev syspath (needed when there are several).", valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp("Also write the calibration into this configuration file.", valueName: "file"))
    var write: String?

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    func validate() throws {
        if map, device != nil { throw ValidationError("--map asks every touchscreen; it takes no --device") }
        if ifGuessed, !map { throw ValidationError("--if-guessed goes with --map") }
        if !(1...3600).contains(wait) { throw ValidationError("--wait is from 1 to 3600 seconds") }
    }

    func run() throws {
        let client = try CalibrateClient(socket: socket)
        if map { return try mapByTouch(client) }
        try client.listCalibratable()
        let (syspath, output) = try Self.chosen(client.touchscreens, device: device)
        let name = Self.deviceName(syspath: syspath)
        say("calibrating \(name) (\(syspath)) on \(output): touch each cross where its lines meet")
        let size = try client.take(syspath)
        let crosses = CalibrationSession.crosses(width: Int(size.width), height: Int(size.height))
        client.show(crossAt: crosses[0], refused: false)
        let touch = try client.convert(crosses)
        var session = try CalibrationSession(targets: zip(crosses, touch).map {
            CalibrationSession.Target(surface: Point(x: Double($0.x), y: Double($0.y)), touch: $1)
        })
        var outcome: CalibrationSession.Outcome?
        while outcome == nil {
            let k = session.current
            say("cross \(k + 1) of \(crosses.count)\(session.isCheck ? " (the check)" : "") at \(crosses[k].x),\(crosses[k].y)")
            let reading = try tap(client)
            switch reading.map({ session.offer($0) }) ?? .refused("use one finger, on this touchscreen's screen") {
            case .accepted:
                client.show(crossAt: crosses[session.current], refused: false)
            case .refused(let reason):
                say("cross \(k + 1): tap refused, \(reason); touch it again")
                client.show(crossAt: crosses[k], refused: true)
            case .finished(let result):
                outcome = result
            }
        }
        guard let outcome else { return }
        let matrix = outcome.fit.matrix.map { Float($0) }
        try client.save(matrix, for: syspath)
        let residuals = outcome.residuals
        say("check: \(Self.pixels(outcome.checkError)) px from its cross before it was fitted too")
        say("residual: \(Self.pixels(residuals.reduce(0, +) / Double(residuals.count))) px on average, \(Self.pixels(residuals.max() ?? 0)) px at most, over \(residuals.count) taps")
        let entry = DeviceEntry.calibration(device: name, matrix: matrix)
        say("applied; to keep it, the configuration file needs:\n\(entry.section)", terminator: "")
        if let write {
            try DeviceEntry.write([(entry, { entries in
                entries.last { $0.calibration != nil }?.calibration.map { zip($0, matrix).allSatisfy { abs($0 - $1) < 1e-5 } } ?? false
            })], to: write)
        }
    }

    /// Each screen in turn asks to be touched; the touchscreen that does maps to it. Ends
    /// when every touchscreen has answered or every screen has asked.
    private func mapByTouch(_ client: CalibrateClient) throws {
        try client.listMappable()
        let touchscreens = client.mappable
        guard !touchscreens.isEmpty else { throw CalibrateClient.Failure(description: "the compositor has no touchscreen") }
        if ifGuessed {
            let guessed = touchscreens.filter { $0.rule == "size" || $0.rule == "first" }
            guard client.outputs.count >= 2, !guessed.isEmpty else {
                return say("no touchscreen's screen was guessed among \(client.outputs.count) screen\(client.outputs.count == 1 ? "" : "s"): nothing to ask")
            }
            say("guessed: " + guessed.map { "\($0.name) on \($0.output) (by \($0.rule == "size" ? "its size" : "default"))" }.joined(separator: ", "))
        }
        say("mapping \(touchscreens.count) touchscreen\(touchscreens.count == 1 ? "" : "s") by touch: touch each screen when it turns white (within \(wait) s, or it is skipped)")
        var mapped: [(touchscreen: String, output: String)] = []
        for (proxy, name) in client.outputs where mapped.count < touchscreens.count {
            let output = name ?? "?"
            var answered = false
            while !answered {
                say("screen \(output): touch it")
                switch try client.ask(proxy, seconds: wait) {
                case .touched(let syspath):
                    guard let touchscreen = touchscreens.first(where: { $0.syspath == syspath }) else { continue }
                    if let earlier = mapped.first(where: { $0.touchscreen == touchscreen.name }) {
                        say("screen \(output): touched by \(touchscreen.name), which touched \(earlier.output) already; touch it again")
                        continue
                    }
                    client.map(syspath, to: proxy)
                    mapped.append((touchscreen.name, output))
                    say("screen \(output): \(touchscreen.name) (\(syspath)) mapped to it\(touchscreen.output == output ? ", as it was" : ", not \(touchscreen.output)")")
                case .cancelled:
                    say("screen \(output): it went; skipped")
                case .timedOut:
                    say("screen \(output): not touched within \(wait) s; skipped")
                }
                answered = true
            }
        }
        let unanswered = touchscreens.filter { t in !mapped.contains { $0.touchscreen == t.name } }
        for touchscreen in unanswered { say("\(touchscreen.name) touched no screen: it stays on \(touchscreen.output)") }
        guard !mapped.isEmpty else { throw CalibrateClient.Failure(description: "no screen was touched; nothing was changed") }
        let entries = mapped.map { DeviceEntry.output(device: $0.touchscreen, output: $0.output) }
        say("applied; to keep it, the configuration file needs:\n\(DeviceEntry.section(entries))", terminator: "")
        if let write {
            try DeviceEntry.write(zip(entries, mapped).map { entry, pair in (entry, { $0.last { $0.output != nil }?.output == pair.output }) }, to: write)
        }
    }

    /// The first touch of the next tap, once every finger has lifted; nil for a tap of
    /// several fingers, one on another touchscreen, or one void.
    private func tap(_ client: CalibrateClient) throws -> Point? {
        var first: Point?, down: Set<Int32> = [], spoiled = false
        while true {
            switch try client.nextEvent() {
            case .down(let id, let at, _)?:
                if first == nil, down.isEmpty { first = at } else { spoiled = true }
                down.insert(id)
            case .up(let id, _)?:
                down.remove(id)
                if down.isEmpty, first != nil || spoiled { return spoiled ? nil : first }
            case .invalid?:
                spoiled = true
                if down.isEmpty { return nil }
            case .cancel?:
                first = nil
                down = []
                spoiled = false
            case .cancelCalibration?:
                throw CalibrateClient.Failure(description: "the touchscreen or its screen went during calibration; nothing was changed")
            case .motion?, nil:
                break
            }
        }
    }

    /// The touchscreen named (by name or syspath), or the only one.
    static func chosen(_ touchscreens: [(syspath: String, output: String)], device: String?) throws -> (String, String) {
        let listed = touchscreens.map { "  \(deviceName(syspath: $0.syspath)) (\($0.syspath)) on \($0.output)" }.joined(separator: "\n")
        guard !touchscreens.isEmpty else { throw CalibrateClient.Failure(description: "the compositor has no touchscreen that can be calibrated") }
        if let device {
            guard let found = touchscreens.first(where: { $0.syspath == device || deviceName(syspath: $0.syspath) == device }) else {
                throw CalibrateClient.Failure(description: "no touchscreen \(device); the touchscreens:\n\(listed)")
            }
            return found
        }
        guard touchscreens.count == 1 else { throw CalibrateClient.Failure(description: "several touchscreens: name one with --device\n\(listed)") }
        return touchscreens[0]
    }

    /// The kernel's name for the input device at `syspath` (/sys/…/eventN), as
    /// `devices[].match` matches it; the syspath itself if /sys does not say.
    static func deviceName(syspath: String) -> String {
        switch TextFile.read(syspath + "/device/name") {
        case .success(let name) where !name.isEmpty: String(name.split(separator: "\n").first ?? Substring(syspath))
        default: syspath
        }
    }

    private static func pixels(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func say(_ line: String, terminator: String = "\n") {
        Unbuffered.write(line + terminator, to: STDOUT_FILENO)
    }
}
