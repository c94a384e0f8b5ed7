import Foundation
import Testing
@testable import TactileTestSupport

/// Touch for every hand (accessibility.py): a uinput touchscreen under the touch
/// accommodations, each turned on by rewriting the file and sending SIGHUP while
/// weston-simple-touch keeps running, as its WAYLAND_DEBUG transcript shows it; then a
/// desktop Tactile (no --kiosk) with a hold duration; then xev under Xwayland with the
/// secondary click.
@Suite struct AccessibilityGuestTests {
    static let run = Guest.once(scenario: "accessibility.py", folder: "guest-accessibility", modules: ["bochs"])

    static func touches(_ name: String) throws -> [TouchEvent] {
        TouchEvent.all(inWaylandDebug: try run.get().read("\(name).txt"))
    }

    static func downs(_ events: [TouchEvent]) -> [Point] {
        events.compactMap { if case .down(_, let p) = $0 { p } else { nil } }
    }

    static func ups(_ events: [TouchEvent]) -> Int { events.filter { if case .up = $0 { true } else { false } }.count }

    /// The event times (ms, the device's clock) of each wl_touch down and up line of NAME.txt.
    static func times(_ name: String) throws -> [(kind: String, ms: Int)] {
        try run.get().read("\(name).txt").split(separator: "\n").compactMap { line in
            guard let open = line.firstIndex(of: "("), let kind = ["down", "up"].first(where: { line.contains(".\($0)(") }) else { return nil }
            let arguments = line[line.index(after: open)...].split(separator: ",")
            return arguments.count > 1 ? Int(arguments[1].trimmingCharacters(in: .whitespaces)).map { (kind, $0) } : nil
        }
    }

    /// hold-duration: 300: the 100 ms tap reaches nobody; the 500 ms press arrives as one
    /// touch whose down is stamped 300 ms after the finger's (its up 200 ms after its down),
    /// in a kiosk and on a desktop.
    @Test(arguments: ["hold", "hold-desktop"])
    func aShortTapGoesNowhereAndAHeldPressArrivesWhenItCounts(play: String) throws {
        let events = try Self.touches(play)
        #expect(Self.downs(events) == [Point(x: 300, y: 200)] && Self.ups(events) == 1, "\(events)")
        let times = try Self.times(play)
        #expect(times.count == 2 && times[0].kind == "down" && times[1].kind == "up", "\(times)")
        if times.count == 2 {
            let held = times[1].ms - times[0].ms
            #expect((160...260).contains(held), "the press's down came \(500 - held) ms after the finger's, not 300")
        }
    }

    /// While a hold counts, the server draws its ring under the finger, over the app: white
    /// at its centre and at its top, where the fill starts; nothing there before.
    @Test func theRingShowsUnderAFingerWhoseHoldCounts() throws {
        let run = try Self.run.get()
        let before = try run.dump("ring-before"), ring = try run.dump("ring")
        #expect(ring.colour(at: 500, 300) == 0xFF_FFFF && ring.colour(at: 500, 274) == 0xFF_FFFF, "\(ring.colour(at: 500, 300)), \(ring.colour(at: 500, 274))")
        #expect(before.colour(at: 500, 274) != 0xFF_FFFF)
    }

    /// ignore-repeat: 500: a tremor's three taps in 200 ms are one tap, the first; so they
    /// stay after a file with a mistake was refused, with its line and column in the log.
    @Test func aTremorsThreeTapsArriveAsOne() throws {
        for play in ["repeat", "repeat-after-bad-reload"] {
            let events = try Self.touches(play)
            #expect(Self.downs(events) == [Point(x: 300, y: 200)] && Self.ups(events) == 1, "\(play): \(events)")
        }
        let log = try Self.run.get().read("tactile.log")
        #expect(log.contains("access.yaml:3:19: accessibility.tap-assistance: expected one of off, initial, final, got 'sideways'; the settings in use stay"),
                "\(log.suffix(2000))")
        #expect(log.contains("touch accommodations: ignore-repeat 500 ms (within 48 px)"))
    }

    /// tap-assistance: a tap that slid 40 px lands where it came down with `initial`, where
    /// it lifted with `final`, with no motion between.
    @Test func aSlidingTapLandsAtItsInitialOrFinalPlace() throws {
        #expect(try Self.touches("initial") == [.down(id: 0, Point(x: 300, y: 200)), .up(id: 0)])
        // 210 is 209.96 after the panel's 4096 steps and back.
        let final = try Self.touches("final")
        guard case .down(0, let place)? = final.first else {
            Issue.record("\(final)")
            return
        }
        #expect(abs(place.x - 340) < 0.1 && abs(place.y - 210) < 0.1 && final.dropFirst() == [.up(id: 0)], "\(final)")
    }

    /// accessibility.zoom, in a kiosk and on a desktop: a three-finger double tap magnifies 2x
    /// around the fingers: QEMU's
    /// screendump shows at the screen's (700, 300) what was at (500, 275), the app's window,
    /// where the desktop showed before; a tap there reaches weston-simple-touch at its own
    /// (500, 275); the second double tap restores the screen. The fingers the app had of the
    /// zoom's taps were cancelled, and none lifted.
    @Test(arguments: ["", "-desktop"])
    func aThreeFingerDoubleTapZoomsATapLandsAtTheAppsOwnPlaceAndASecondRestores(suffix: String) throws {
        let run = try Self.run.get()
        let before = try run.dump("zoom-before\(suffix)"), zoomed = try run.dump("zoom-in\(suffix)"), restored = try run.dump("zoom-out\(suffix)")
        #expect(before.colour(at: 700, 300) != before.colour(at: 500, 275), "the desktop beside the window, and the window")
        #expect(zoomed.colour(at: 700, 300) == before.colour(at: 500, 275), "magnified: \(zoomed.colour(at: 700, 300))")
        #expect(restored.colour(at: 700, 300) == before.colour(at: 700, 300), "restored: \(restored.colour(at: 700, 300))")
        let events = try Self.touches("zoom\(suffix)")
        #expect(Self.downs(events).contains(Point(x: 500, y: 275)) && Self.ups(events) == 1 && events.filter { $0 == .cancel }.count == 4, "\(events)")
        #expect(run.read("tactile.log").contains("zoom: Virtual-1 shows 150,125 640x400 at 2.0x"))
    }

    /// touch.secondary-click: 600 on an X11 app (xev under Xwayland, which binds wl_touch):
    /// the finger held still 1 s is button 3 pressed and released, and no button 1; the quick
    /// tap after it is button 1.
    @Test func aLongPressOnAnX11AppIsButton3AndNoButton1() throws {
        let run = try Self.run.get()
        let transcript = run.read("xev.txt"), start = Int(run.read("xev-start.txt")) ?? 0
        let lines = transcript.dropFirst(min(start, transcript.count)).split(separator: "\n")
        let buttons = lines.compactMap { line -> Int? in
            guard let range = line.range(of: ", button ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        let events = lines.filter { $0.hasPrefix("ButtonPress") || $0.hasPrefix("ButtonRelease") }.map { String($0.prefix { $0 != " " }) }
        print(lines.filter { $0.contains("button") || $0.hasPrefix("Button") }.joined(separator: "\n"))
        #expect(buttons == [3, 3, 1, 1] && events == ["ButtonPress", "ButtonRelease", "ButtonPress", "ButtonRelease"],
                "\(buttons) \(events):\n\(transcript.suffix(3000))")
    }
}
