import Foundation
import Testing
@testable import TactileTestSupport

/// The libinput backend with real kernel devices: a QEMU guest (scripts/guest/run) where
/// python3-evdev makes a uinput touchscreen, mouse and keyboard, `tactile serve --backend
/// libinput` reads them through udev and libseat, and wev and weston-simple-touch print what
/// they receive (scenario.py drives it). The guest runs once; each test checks one part of
/// what the clients printed.
@Suite struct LibinputGuestTests {
    // The scene scenario.py builds: a 1280x800 output; weston-simple-touch (the first
    // toplevel) at the origin; wev (the second) at (32, 32), above it.
    static let output = (width: 1280.0, height: 800.0)
    static let wevOrigin = (x: 32.0, y: 32.0)
    /// The touchscreens' X and Y axes both range over 0...4095.
    static let axis = (minimum: 0.0, maximum: 4095.0)

    /// Where libinput puts a raw axis value on the output: the axis range scaled onto the
    /// output's pixels (a range of max - min + 1 device units). The absolute pointer's axes
    /// range over 0...32767.
    static func global(_ raw: Double, onto size: Double, maximum: Double = axis.maximum) -> Double {
        (raw - axis.minimum) * size / (maximum - axis.minimum + 1)
    }

    /// wev's surface-local coordinates for raw touchscreen values.
    static func wevLocal(_ x: Double, _ y: Double) -> Point {
        Point(x: global(x, onto: output.width) - wevOrigin.x, y: global(y, onto: output.height) - wevOrigin.y)
    }

    @Test func aTapAndADragReachWevAtSurfaceLocalCoordinatesFromTheAxisRanges() throws {
        let touches = try GuestRun.shared.get().wev.touches
        try #require(touches.count >= 8, "wev printed \(touches.count) touch events: \(touches)")
        // The tap: raw (1024, 1024) is (320, 200) on the output, (288, 168) in wev.
        #expect(touches[0] == .down(id: 0, Self.wevLocal(1024, 1024)))
        #expect(touches[1] == .up(id: 0))
        // The drag keeps going to wev after it leaves wev's 640x480 window.
        #expect(Array(touches[2...5]) == [
            .down(id: 0, Self.wevLocal(2048, 2048)), .motion(id: 0, Self.wevLocal(3072, 2048)),
            .motion(id: 0, Self.wevLocal(3584, 3584)), .up(id: 0),
        ])
        #expect(Self.wevLocal(3584, 3584).x > 640, "the drag should end outside wev's window")
    }

    @Test func twoFingersAreTwoTouchIDsAtOnce() throws {
        let touches = try GuestRun.shared.get().wev.touches
        try #require(touches.count >= 12, "wev printed \(touches.count) touch events: \(touches)")
        #expect(Array(touches[6...11]) == [
            .down(id: 0, Self.wevLocal(1024, 1536)), .down(id: 1, Self.wevLocal(2048, 1536)),
            .motion(id: 0, Self.wevLocal(1024, 2048)), .motion(id: 1, Self.wevLocal(2048, 2048)),
            .up(id: 0), .up(id: 1),
        ])
    }

    @Test func eachClientHearsOnlyOfTheFingerOnItsOwnSurface() throws {
        let run = try GuestRun.shared.get()
        // One finger on simple-touch's uncovered strip at raw (64, 1024), one on wev.
        #expect(Array(run.wev.touches.dropFirst(12).prefix(2)) == [.down(id: 1, Self.wevLocal(2048, 1024)), .up(id: 1)])
        let simple = run.simpleTouchDowns
        #expect(simple.count == 1, "weston-simple-touch received \(simple)")
        // At the origin, its surface-local coordinates are the output's.
        #expect(simple.first == SimpleTouchDown(id: 0, Point(x: Self.global(64, onto: Self.output.width), y: Self.global(1024, onto: Self.output.height))))
    }

    @Test func wevHearsEveryTouchOnItsOwnSurface() throws {
        let wev = try GuestRun.shared.get().wev
        let surfaces = Set(wev.touchDownSurfaces)
        #expect(surfaces.count == 1 && surfaces == [wev.keyboardEnterSurface], "downs on \(surfaces), wev's window is \(String(describing: wev.keyboardEnterSurface))")
    }

    @Test func everyClientHearsTheCapabilitiesChangeAsTheTouchscreensComeAndGo() throws {
        // weston-simple-touch binds wl_seat version 1: 3 is pointer and keyboard, 7 adds touch.
        let capabilities = try GuestRun.shared.get().simpleTouchLog.split(separator: "\n")
            .filter { $0.contains(".capabilities(") }.map { $0.split(separator: ".capabilities").last! }
        // Plugged in, unplugged, another plugged in; then away to another VT and back, each
        // batch of devices one event.
        #expect(capabilities == ["(3)", "(7)", "(3)", "(7)", "(0)", "(7)"])
    }

    @Test func unpluggingTheTouchscreenMidTouchCancelsAndDropsTheCapability() throws {
        let wev = try GuestRun.shared.get().wev
        let touches = wev.touches
        try #require(touches.count >= 16, "wev printed \(touches.count) touch events: \(touches)")
        #expect(Array(touches[14...15]) == [.down(id: 0, Self.wevLocal(1024, 2048)), .cancel])
        // Plugged in after the clients started, unplugged, and a second one plugged in (the
        // VT switch at the end takes every device away and brings them back).
        #expect(wev.capabilities.prefix(4) == ["pointer keyboard", "pointer keyboard touch", "pointer keyboard", "pointer keyboard touch"])
    }

    @Test func theCalibrationMatrixFromTheConfigurationFileMirrorsTheSecondTouchscreen() throws {
        let touches = try GuestRun.shared.get().wev.touches
        try #require(touches.count >= 18, "wev printed \(touches.count) touch events: \(touches)")
        // [-1 0 1; 0 1 0] mirrors x: raw x 3072 lands where 4096 - 3072 = 1024 would.
        #expect(Array(touches[16...17]) == [.down(id: 0, Self.wevLocal(1024, 1024)), .up(id: 0)])
    }

    /// With libseat's built-in seat manager (root, in the guest), switching to another VT
    /// suspends libinput: every device goes, the touch still down is cancelled. Switching back
    /// brings the devices back in one capabilities event, and touch works again.
    @Test func aVTSwitchAwayMidTouchCancelsItAndInputReturnsWithTheVT() throws {
        let wev = try GuestRun.shared.get().wev
        let touches = wev.touches
        try #require(touches.count >= 22, "wev printed \(touches.count) touch events: \(touches)")
        // The calibrated touchscreen mirrors x: raw 3072 is wev's x 288, as above.
        #expect(Array(touches[18...21]) == [.down(id: 0, Self.wevLocal(1024, 2048)), .cancel, .down(id: 0, Self.wevLocal(1024, 2560)), .up(id: 0)])
        #expect(Array(wev.capabilities.suffix(2)) == ["none", "pointer keyboard touch"])
    }

    @Test func theMouseAndAnAbsolutePointerMoveClickAndScroll() throws {
        let wev = try GuestRun.shared.get().wev
        // The cursor starts at the output's centre; flat acceleration at speed 0 moves it by
        // exactly the device's (-100, -50), into wev, which hears it as an enter.
        #expect(wev.pointerEnters.first == Point(x: 640 - 100 - Self.wevOrigin.x, y: 400 - 50 - Self.wevOrigin.y))
        // The absolute pointer's (16384, 8192) of 32768 is the output's (640, 200).
        #expect(wev.pointerMotions.first == Point(
            x: Self.global(16384, onto: Self.output.width, maximum: 32767) - Self.wevOrigin.x,
            y: Self.global(8192, onto: Self.output.height, maximum: 32767) - Self.wevOrigin.y
        ))
        #expect(wev.text.contains("button: 272 (left), state: 1 (pressed)"))
        #expect(wev.text.contains("button: 272 (left), state: 0 (released)"))
        // One notch down: wev binds wl_seat version 6, so it hears axis_discrete, not value120.
        // (wev prints axis_discrete under the name "axis_stop".)
        #expect(wev.text.contains("axis_source: 0 (wheel)"))
        #expect(wev.text.contains("axis: 0 (vertical), discrete: 1"))
        #expect(wev.text.contains("axis: 0 (vertical), value: 15.000000"))
    }

    @Test func devicesOpenThroughLibseatOrDirectlyAsRootWithoutASeatManager() throws {
        let run = try GuestRun.shared.get()
        #expect(run.tactileLog.contains("input devices: libseat, seat seat0"))
        #expect(run.directLog.contains("input devices: direct open as root (no seat manager)"), "\(run.directLog)")
        // Only the device named with --input-device, not the seat's others.
        #expect(run.directLog.contains("device added: Tactile Test Keyboard (keyboard)"))
        #expect(!run.directLog.contains("Tactile Test Mouse"))
    }

    @Test func aTouchpadTapsToClickAndScrollsNaturallyAsTheConfigurationFileSays() throws {
        let pointer = try GuestRun.shared.get().wev.firstObjectLines("wl_pointer")
        // The mouse's click, then the touchpad's tap (libinput leaves tapping off by default).
        #expect(pointer.filter { $0.contains("button: 272 (left), state: 1 (pressed)") }.count == 2, "\(pointer.joined(separator: "\n"))")
        let finger = pointer.drop { !$0.contains("axis_source: 1 (finger)") }
        try #require(!finger.isEmpty, "no finger scroll: \(pointer.joined(separator: "\n"))")
        // Fingers moving up scroll down (positive) with natural scrolling.
        let values = finger.filter { $0.contains("axis: time:") && $0.contains("axis: 0 (vertical)") }.compactMap {
            $0.components(separatedBy: "value: ").last.flatMap { Double($0) }
        }
        #expect(!values.isEmpty && values.allSatisfy { $0 > 0 }, "vertical values: \(values)")
        // It ends with axis_stop on the axis it ran along (libinput stops both axes of a
        // two-finger scroll), after the last value.
        let axisEvents = finger.filter { $0.contains("axis: time:") || $0.contains("axis_stop: time:") }
        #expect(axisEvents.last?.contains("axis_stop: time:") == true)
        #expect(axisEvents.contains { $0.contains("axis_stop: time:") && $0.contains("axis: 0 (vertical)") }, "\(axisEvents.suffix(3))")
    }

    /// libinput's 3-finger touchpad swipe is a system gesture when the configuration file says
    /// so: it goes to wev, under the pointer, until the kiosk's swipe wins and ends it cancelled.
    @Test func aThreeFingerTouchpadSwipeIsTheKiosksAndCancelsTheClientsSwipe() throws {
        let log = try GuestRun.shared.get().tactileLog.split(separator: "\n")
        let gesture = log.filter { $0.contains("gesture 'touchpad-left'") && !$0.contains("changed") }
        #expect(gesture.count == 2 && gesture.first?.contains("began") == true && gesture.last?.contains("ended") == true,
                "\(gesture.joined(separator: "\n"))")
        #expect(gesture.first.map { $0.contains("count 3") } == true)
        let claimed = log.filter { $0.contains("touchpad gesture claimed") }
        #expect(claimed.count == 1 && claimed.first?.contains("gesture=touchpad-left cancelled") == true && claimed.first?.contains("wev") == true,
                "\(claimed.joined(separator: "\n"))")
    }

    @Test func theConfigurationFilesGermanLayoutTurnsTheYKeyIntoZ() throws {
        let wev = try GuestRun.shared.get().wev
        // KEY_Y (21) is XKB keycode 29; on a German layout it types z.
        let keysym = wev.keysymLine(pressing: 29)
        #expect(keysym?.contains("sym: z") == true, "\(keysym ?? "no press of keycode 29")")
    }

    /// How a kiosk runs it: as a user who may not open /dev/input, with seatd granting the
    /// seat and opening the devices.
    @Test func anUnprivilegedUserGetsTheDevicesThroughSeatd() throws {
        let run = try GuestRun.shared.get()
        #expect(run.seatdLog.contains("New client connected") && run.seatdLog.contains("uid: 65534"), "\(run.seatdLog)")
        #expect(run.seatdServerLog.contains("input devices: libseat, seat seat0"), "\(run.seatdServerLog)")
        #expect(run.seatdServerLog.contains("device added: Tactile Calibrated Touchscreen (touch)"))
        #expect(run.seatdServerLog.contains("device added: Tactile Test Keyboard (keyboard)"))
    }

    @Test func shiftAGivesWevTheKeysymCapitalAWithShiftDepressed() throws {
        let wev = try GuestRun.shared.get().wev
        // wev prints XKB keycodes, evdev's plus 8: KEY_A (30) is 38.
        #expect(wev.text.contains("key: 38; state: 1 (pressed)"))
        #expect(wev.keysymLine(pressing: 38)?.contains("sym: A") == true, "\(wev.keysymLine(pressing: 38) ?? "no press of keycode 38")")
        #expect(wev.text.contains("depressed: 00000001: Shift"), "Shift should be a depressed modifier")
    }
}

struct Point: Equatable, CustomStringConvertible {
    var x: Double
    var y: Double
    var description: String { "(\(x), \(y))" }
}

enum TouchEvent: Equatable {
    case down(id: Int, Point)
    case motion(id: Int, Point)
    case up(id: Int)
    case cancel

    /// Every wl_touch event in a client's `WAYLAND_DEBUG=client` log, in order:
    /// `wl_touch@14.down(7, 123, wl_surface@3, 0, 20.000000, 200.000000)`, `.motion(124, 0,
    /// 21.0, 200.0)`, `.up(8, 125, 0)`, `.cancel()`.
    static func all(inWaylandDebug log: String) -> [TouchEvent] {
        log.split(separator: "\n").compactMap { line in
            guard line.contains("wl_touch@"), let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            let arguments = line[line.index(after: open)..<close].components(separatedBy: ", ")
            func point(_ at: Int) -> Point? { Double(arguments[at]).flatMap { x in Double(arguments[at + 1]).map { Point(x: x, y: $0) } } }
            if line.contains(".down("), arguments.count == 6, let id = Int(arguments[3]), let p = point(4) { return .down(id: id, p) }
            if line.contains(".motion("), arguments.count == 4, let id = Int(arguments[1]), let p = point(2) { return .motion(id: id, p) }
            if line.contains(".up("), arguments.count == 3, let id = Int(arguments[2]) { return .up(id: id) }
            if line.contains(".cancel(") { return .cancel }
            return nil
        }
    }
}

struct SimpleTouchDown: Equatable {
    var id: Int
    var point: Point
    init(id: Int, _ point: Point) {
        self.id = id
        self.point = point
    }

    /// Every down in weston-simple-touch's `WAYLAND_DEBUG=client` log:
    /// `wl_touch@14.down(7, 123, wl_surface@3, 0, 20.000000, 200.000000)`.
    static func all(in log: String) -> [SimpleTouchDown] {
        TouchEvent.all(inWaylandDebug: log).compactMap { event in
            if case .down(let id, let point) = event { SimpleTouchDown(id: id, point) } else { nil }
        }
    }
}

/// What wev printed, and what it means.
struct WevLog {
    let text: String

    func lines(containing needle: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(needle) }
    }

    /// `[17:        wl_touch] down: serial: 6; time: 1; surface: 3; id: 1; x, y: 5.000000, 100.000000`
    ///
    /// wev asks for another wl_touch (and pointer, and keyboard) at every wl_seat.capabilities
    /// without releasing the one it has, and each of them gets every event: only the first
    /// wl_touch object's events count.
    var touches: [TouchEvent] {
        firstObjectLines("wl_touch").compactMap { line in
            let fields = Self.fields(line)
            let id = fields["id"].flatMap { Int($0) }
            let point = fields["x, y"].flatMap(Self.point)
            if line.contains("] down:"), let id, let point { return .down(id: id, point) }
            if line.contains("] motion:"), let id, let point { return .motion(id: id, point) }
            if line.contains("] up:"), let id { return .up(id: id) }
            if line.contains("] cancel") { return .cancel }
            return nil
        }
    }

    /// The line wev prints under the first press of XKB keycode `code` on its first keyboard:
    /// `sym: z (122), utf8: 'z'`.
    func keysymLine(pressing code: Int) -> String? {
        let all = text.split(separator: "\n")
        guard let keyboard = firstObjectLines("wl_keyboard").first.map(Self.objectID),
              let k = all.firstIndex(where: { Self.objectID($0) == keyboard && $0.contains("key: \(code); state: 1 (pressed)") }),
              k + 1 < all.count else { return nil }
        return String(all[k + 1])
    }

    /// The lines of the first object of `interface` wev printed events for.
    func firstObjectLines(_ interface: String) -> [Substring] {
        let lines = lines(containing: "\(interface)]")
        guard let first = lines.first.map(Self.objectID) else { return [] }
        return lines.filter { Self.objectID($0) == first }
    }

    private static func objectID(_ line: Substring) -> Substring {
        line.dropFirst().prefix { $0 != ":" }
    }

    var touchDownSurfaces: [String] {
        lines(containing: "wl_touch] down:").compactMap { Self.fields($0)["surface"] }
    }

    var keyboardEnterSurface: String? {
        lines(containing: "wl_keyboard] enter:").first.flatMap { Self.fields($0)["surface"] }
    }

    var pointerMotions: [Point] {
        lines(containing: "wl_pointer] motion:").compactMap { line in
            line.components(separatedBy: "x, y: ").last.flatMap(Self.point)
        }
    }

    /// `[13:      wl_pointer] enter: serial: 21; surface: 3, x, y: 508.000000, 318.000000`
    var pointerEnters: [Point] {
        lines(containing: "wl_pointer] enter:").compactMap { line in
            line.components(separatedBy: "x, y: ").last.flatMap(Self.point)
        }
    }

    /// Each wl_seat.capabilities, as wev names them ("pointer keyboard touch").
    var capabilities: [String] {
        lines(containing: "wl_seat] capabilities:").map {
            $0.split(separator: "capabilities:", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The `key: value` pairs after the event name, split on "; ".
    private static func fields(_ line: Substring) -> [String: String] {
        guard let body = line.split(separator: "] ", maxSplits: 1).last?.split(separator: ": ", maxSplits: 1).last else { return [:] }
        var fields: [String: String] = [:]
        for pair in body.components(separatedBy: "; ") {
            let parts = pair.components(separatedBy: ": ")
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    private static func point(_ text: String) -> Point? {
        let numbers = text.components(separatedBy: ", ").compactMap { Double($0) }
        return numbers.count == 2 ? Point(x: numbers[0], y: numbers[1]) : nil
    }
}

/// One boot of the guest, shared by every test of the suite (it takes tens of seconds).
struct GuestRun {
    let wev: WevLog
    /// weston-simple-touch's `WAYLAND_DEBUG=client` log.
    let simpleTouchLog: String
    let tactileLog: String
    /// The second server's, which had no seat manager.
    let directLog: String
    /// The third server's, run as `nobody` through seatd, and seatd's own.
    let seatdServerLog: String
    let seatdLog: String

    var simpleTouchDowns: [SimpleTouchDown] { SimpleTouchDown.all(in: simpleTouchLog) }

    static let shared: Result<GuestRun, GuestRunFailure> = Result { try GuestRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        let guest = try Guest.run(scenario: "scenario.py", folder: "guest-run")
        let read = guest.read
        wev = WevLog(text: read("wev.log"))
        simpleTouchLog = read("weston-simple-touch.log")
        tactileLog = read("tactile.log")
        directLog = read("tactile-direct.log")
        seatdServerLog = read("tactile-seatd.log")
        seatdLog = read("seatd.log")
    }
}

struct GuestRunFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// One boot of the QEMU guest running a scenario script from this folder.
struct Guest {
    /// Where the scenario left its logs and the guest its console and screendumps.
    let directory: String

    /// Boots the guest with `/usr/bin/python3 SCENARIO OUTDIR TACTILE`, OUTDIR being `folder`
    /// beside the build (the guest sees the host's /tmp as its own empty tmpfs), and fails
    /// with the harness's and the scenario's last words unless it ends with status 0.
    /// `tactile`: the executable the scenario runs; nil: the one built beside this test bundle.
    static func run(scenario: String, folder: String, modules: [String] = [], qemuArguments: String = "", tactile: String? = nil) throws -> Guest {
        // Two guests at once would share the machine's cores under software emulation.
        booting.lock()
        defer { booting.unlock() }
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tactile = tactile ?? products.appendingPathComponent("tactile").path
        guard FileManager.default.isExecutableFile(atPath: tactile) else { throw GuestRunFailure(reason: "no tactile executable at \(tactile)") }
        let guest = Guest(directory: products.appendingPathComponent(folder).path)
        try? FileManager.default.removeItem(atPath: guest.directory)
        try FileManager.default.createDirectory(atPath: guest.directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = package.appendingPathComponent("scripts/guest/run")
        process.arguments = [guest.directory, "/usr/bin/python3", package.appendingPathComponent("Tests/LibinputGuestTests/\(scenario)").path, guest.directory, tactile]
        process.currentDirectoryURL = package
        var environment = ProcessInfo.processInfo.environment
        environment["GUEST_MODULES"] = modules.joined(separator: " ")
        environment["GUEST_QEMU_ARGS"] = qemuArguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GuestRunFailure(reason: """
                the guest run failed (status \(process.terminationStatus)):
                \(output.suffix(3000))
                --- scenario (command.log):
                \(guest.read("command.log").suffix(2000))
                --- driver.log:
                \(guest.read("driver.log").suffix(2000))
                --- tactile.log:
                \(guest.read("tactile.log").suffix(3000))
                """)
        }
        return guest
    }

    private static let booting = NSLock()

    /// The repository this test bundle was built from.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file the scenario wrote, or "" when it wrote none. Bytes that are not UTF-8 (a
    /// fuzzer's hostile strings, logged as sent) read as U+FFFD, not as no file at all.
    func read(_ name: String) -> String {
        (FileManager.default.contents(atPath: "\(directory)/\(name)")).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The QEMU screendump the scenario took as `name`.
    func dump(_ name: String) throws -> Screenshot {
        try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).ppm")))
    }

    /// One boot of `scenario` for a whole suite, its failure kept to fail each test with.
    static func once(scenario: String, folder: String, modules: [String] = [], qemuArguments: String = "",
                     tactile: @escaping () throws -> String? = { nil }) -> Result<Guest, GuestRunFailure> {
        Result { try run(scenario: scenario, folder: folder, modules: modules, qemuArguments: qemuArguments, tactile: tactile()) }
            .mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }
    }
}
