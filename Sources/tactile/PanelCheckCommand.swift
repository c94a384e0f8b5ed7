import ArgumentParser
import Glibc
import GestureConfiguration
import Responder
import TactileBackends
import TactileServer

struct PanelCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "panel-check",
        abstract: "Measure a touchscreen of a running Tactile, and print the settings that repair it.",
        discussion: """
        Takes the touchscreen as tactile calibrate does (its screen turns white, the app \
        hears no touch meanwhile) and asks, one step at a time, here and on the screen: \
        hold a finger still on the cross, tap the cross ten times, draw a line from the \
        cross, and touch nothing for --quiet seconds (the screen is blank). It reports the \
        jitter of the still finger, the bounces of the taps, the panel's report rate and the \
        time between its reports while drawing, and the ghost and stuck contacts while \
        nothing touched it, from the touches as the panel reports them (not calibrated, not \
        filtered); then prints the devices: entry that repairs what it found (debounce, \
        jitter, smoothing, min-contact, dead-zones, stuck-after), and --write puts it into \
        that configuration file, the rest of the file kept as it was. Nothing is applied: \
        send Tactile SIGHUP after --write. Privileged as calibrate is \
        (privileges.touch-calibration).
        """
    )

    @Option(help: ArgumentHelp("The touchscreen: its name or udev syspath (needed when there are several).", valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp("Also write the settings into this configuration file.", valueName: "file"))
    var write: String?

    @Option(help: ArgumentHelp("How long the last step leaves the panel alone.", valueName: "seconds"))
    var quiet = 30

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    func validate() throws {
        if !(1...600).contains(quiet) { throw ValidationError("--quiet is from 1 to 600 seconds") }
    }

    func run() throws {
        let client = try CalibrateClient(socket: socket)
        try client.listCalibratable()
        let (syspath, output) = try CalibrateCommand.chosen(client.touchscreens, device: device)
        let name = CalibrateCommand.deviceName(syspath: syspath)
        say("checking \(name) (\(syspath)) on \(output): each step is asked here, and shown on its screen")
        let size = try client.take(syspath)
        // Shown before the conversion, which the protocol answers only for a surface shown.
        client.showNothing()
        let screen = try ScreenMap(client, width: Int(size.width), height: Int(size.height))
        var check = PanelCheck(quiet: .seconds(quiet))
        var asked: PanelCheck.Step?
        // The panel's clock, for the quiet step: its last event's time and when it came here.
        var panelTime: (ms: UInt32, at: Double)?
        while let step = check.step {
            if asked != step {
                asked = step
                say("step \(step.rawValue + 1) of \(PanelCheck.Step.allCases.count): \(step.request)")
                switch step {
                case .holdStill, .tapTen: client.show(crossAt: (Int(size.width) / 2, Int(size.height) / 2), refused: false)
                case .drawLine: client.show(crossAt: (Int(size.width) / 4, Int(size.height) / 2), refused: false)
                case .touchNothing: client.showNothing()
                }
            }
            let now = ClientConnection.now()
            guard let event = try client.nextEvent(before: step == .touchNothing ? now + 0.1 : nil) else {
                // The panel said nothing: its clock moved as ours did.
                let ms = panelTime.map { $0.ms &+ UInt32(max(0, (now - $0.at) * 1000)) } ?? 0
                if panelTime == nil { panelTime = (0, now) }
                _ = check.tick(Instant.milliseconds(UInt64(ms)))
                continue
            }
            switch event {
            case .down(let id, let at, let time):
                panelTime = (time, now)
                _ = check.take(.down(id: id, screen.point(at), .milliseconds(UInt64(time))))
            case .motion(let id, let at, let time):
                panelTime = (time, now)
                _ = check.take(.motion(id: id, screen.point(at), .milliseconds(UInt64(time))))
            case .up(let id, let time):
                panelTime = (time, now)
                if check.take(.up(id: id, .milliseconds(UInt64(time)))) == nil, step == .holdStill { say("held \(PanelCheck.holdTime.components.seconds) s? hold it longer, then lift") }
            case .cancelCalibration:
                throw CalibrateClient.Failure(description: "the touchscreen or its screen went during the check; nothing was changed")
            case .invalid, .cancel:
                break
            }
        }
        client.release()
        for line in check.report { say(line) }
        let fixes = check.fixes(screen: Size(width: Int(size.width), height: Int(size.height)))
        guard !fixes.isEmpty else { return say("the panel needs no repair") }
        let entries = fixes.map { DeviceEntry(device: name, key: $0.key, value: $0.value) }
        say("to repair it, the configuration file needs:\n\(DeviceEntry.section(entries))", terminator: "")
        guard let write else { return }
        // Each is written just under the device's match line: last first, so the file reads as printed.
        try DeviceEntry.write(entries.reversed().map { entry in (entry, { devices in Self.gives(devices, entry) }) }, to: write)
    }

    /// Whether the file's entries for the device (those that match it by its name), merged,
    /// give it `entry`'s setting.
    private static func gives(_ devices: [DeviceSettings], _ entry: DeviceEntry) -> Bool {
        let yaml = "devices:\n  - \(entry.key): \(entry.value)\n"
        guard let wanted = try? ConfigurationFile.parse(yaml, file: "entry").devices.first?.filters else { return false }
        let merged = devices.reduce(PanelFilterSettings()) { $0.merged(with: $1.filters) }
        // Compared as the server takes them: dead zones by their place, not where the file says them.
        let anywhere = Rect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))
        return merged.merged(with: wanted).touchFilters(on: anywhere).settings == merged.touchFilters(on: anywhere).settings
    }

    private func say(_ line: String, terminator: String = "\n") {
        Unbuffered.write(line + terminator, to: STDOUT_FILENO)
    }
}

/// Panel fractions to the screen's pixels, through the compositor's own conversion (so the
/// output's transform is taken into account): three surface points converted give the map.
private struct ScreenMap {
    let origin: Point
    let inverse: (a: Double, b: Double, c: Double, d: Double)

    init(_ client: CalibrateClient, width: Int, height: Int) throws {
        guard width > 1, height > 1 else { throw CalibrateClient.Failure(description: "the touchscreen's screen is \(width)x\(height)") }
        // The last pixel's corner is as far as the protocol converts: a point inside the surface.
        let (w, h) = (width - 1, height - 1)
        let f = try client.convert([(0, 0), (w, 0), (0, h)])
        origin = f[0]
        // fraction = origin + A · (sx, sy), with A's columns the fractions per pixel along x and y.
        let (a, c) = ((f[1].x - f[0].x) / Double(w), (f[1].y - f[0].y) / Double(w))
        let (b, d) = ((f[2].x - f[0].x) / Double(h), (f[2].y - f[0].y) / Double(h))
        let det = a * d - b * c
        guard det != 0, det.isFinite else { throw CalibrateClient.Failure(description: "the compositor's conversion of the screen is degenerate") }
        inverse = (d / det, -b / det, -c / det, a / det)
    }

    func point(_ fraction: Point) -> Point {
        let (dx, dy) = (fraction.x - origin.x, fraction.y - origin.y)
        return Point(x: inverse.a * dx + inverse.b * dy, y: inverse.c * dx + inverse.d * dy)
    }
}
