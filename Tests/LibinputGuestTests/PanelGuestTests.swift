import Foundation
import Testing
@testable import TactileTestSupport

/// Touch panels that misbehave (panels.py): a uinput touchscreen scripted to bounce, jitter,
/// ghost, fire in a dead corner and stick, each played with the panel's filters off and
/// then on (the file rewritten, SIGHUP), as weston-simple-touch's WAYLAND_DEBUG transcript
/// shows it.
@Suite struct PanelGuestTests {
    /// On the release build, as a kiosk runs it: costs.txt's figures are that build's.
    static let run = Guest.once(scenario: "panels.py", folder: "guest-panels", modules: ["bochs"], tactile: { try LatencyGuestTests.build() })

    static func touches(_ fault: String, _ play: String) throws -> [TouchEvent] {
        TouchEvent.all(inWaylandDebug: try run.get().read("\(fault)-\(play).txt"))
    }

    static func downs(_ events: [TouchEvent]) -> [Point] {
        events.compactMap { if case .down(_, let p) = $0 { p } else { nil } }
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    static func ups(_ events: [TouchEvent]) -> Int {
        events.filter { if case .up = $0 { true } else { false } }.count
    }

    /// Without debounce the bounced tap is two taps; with it one, and so it stays after a
    /// reload of a file with a mistake, which the log names by line and column, and in a
    /// Tactile that is no kiosk.
    @Test func aBouncingPanelTapsOnceWithDebounce() throws {
        let without = try Self.touches("bounce", "without"), with = try Self.touches("bounce", "with")
        #expect(Self.downs(without).count == 2 && Self.ups(without) == 2, "\(without)")
        #expect(Self.downs(with).count == 1 && Self.ups(with) == 1, "\(with)")
        let after = try Self.touches("bounce", "after-bad-reload")
        #expect(Self.downs(after).count == 1 && Self.ups(after) == 1, "\(after)")
        let desktop = try Self.touches("bounce", "desktop")
        #expect(Self.downs(desktop).count == 1 && Self.ups(desktop) == 1, "not a kiosk: \(desktop)")
        let log = try Self.run.get().read("tactile.log")
        #expect(log.contains("reload: "), "\(log.suffix(2000))")
        #expect(log.contains("panels.yaml:3:15: devices[0].debounce: expected a whole number of milliseconds from 0 to 500, got '-5'; the settings in use stay"))
    }

    /// Without a jitter threshold a finger held still sends motion; with `jitter: 8` the
    /// first motion the app hears is the drag's, at least 8 px from the down.
    @Test func aJitteringPanelHoldsStillWithAThreshold() throws {
        let without = try Self.touches("jitter", "without"), with = try Self.touches("jitter", "with")
        func motions(_ events: [TouchEvent]) -> [Point] { events.compactMap { if case .motion(_, let p) = $0 { p } else { nil } } }
        let down = try #require(Self.downs(with).first)
        let noise = motions(without).filter { Self.distance($0, Point(x: 200, y: 300)) <= 4 }
        #expect(!noise.isEmpty, "the noise reached the app: \(without)")
        let moved = motions(with)
        #expect(!moved.isEmpty && moved.allSatisfy { Self.distance($0, down) >= 8 }, "\(with)")
        #expect(Self.ups(with) == 1)
    }

    /// One-frame contacts in a corner reach the app without min-contact, and only the real
    /// taps between them do with it.
    @Test func aGhostingPanelIsQuietWithMinContact() throws {
        let without = try Self.touches("ghost", "without"), with = try Self.touches("ghost", "with")
        #expect(Self.downs(without).count == 6, "\(without)")
        #expect(Self.downs(with) == Array(repeating: Point(x: 400, y: 250), count: 3), "\(with)")
    }

    /// What the holds cost, as simple-touch heard it (costs.txt): the figures are a
    /// benchmark's, printed here for docs/benchmarks.md and asked only to be there. They are
    /// timings, not behaviour (the transcripts above are): a hold counts from the event's own
    /// time, so the time the event took to reach Tactile is inside it, and under CI's load
    /// that was once 13 ms of an 80 ms debounce.
    @Test func whatTheHoldsCostIsMeasured() throws {
        let costs = try Self.run.get().read("costs.txt")
        print(costs)
        for prefix in ["debounce 80 ms, each lift: ", "min-contact 30 ms, each down: "] {
            let figure = costs.split(separator: "\n").first { $0.hasPrefix(prefix) }?.dropFirst(prefix.count).split(separator: " ").first
            #expect(figure.flatMap { Double($0) } != nil, "\(prefix): \(costs)")
        }
    }

    /// tactile panel-check against the kiosk, the panel misbehaving at each step: its report
    /// names what the script did, and the file it wrote repairs it, the kiosk's own entry kept.
    @Test func panelCheckMeasuresAMisbehavingPanelAndWritesItsRepairs() throws {
        let run = try Self.run.get()
        let report = run.read("panel-check.txt")
        print(report)
        for line in ["step 4 of 4: touch nothing", "taps: 10; bounces seen: 3 (", "ghost contacts while nothing touched it for 8 s: 3 (",
                     "stuck contacts: 1 (100,700, down ", "report rate: ", "jitter at rest: 3.", "written to "] {
            #expect(report.contains(line), "\(line): \(report)")
        }
        // On its screen, over the app: a black cross on white where a step asks for one, and
        // white alone while nothing may touch it.
        let cross = try run.dump("panel-check-cross"), blank = try run.dump("panel-check-blank")
        #expect(cross.colour(at: 639, 399) == 0x00_0000 && cross.colour(at: 620, 399) == 0x00_0000 && cross.colour(at: 100, 100) == 0xFF_FFFF)
        #expect(blank.colours() == [0xFF_FFFF], "\(blank.colours())")
        let written = run.read("checked.yaml")
        #expect(written.hasPrefix("# the kiosk's own file\ndevices:\n  - match: Other Panel\n    jitter: 2\n  - match: \"Tactile Faulty Panel\"\n"), "\(written)")
        for setting in ["jitter: 5", "smoothing: one-euro", "debounce: ", "min-contact: 10", "dead-zones: [[1200, 720, 80, 80]]", "stuck-after: 30"] {
            #expect(written.contains("    \(setting)"), "\(setting): \(written)")
        }
    }

    /// A tap in a dead zone goes nowhere; the one beside it arrives.
    @Test func aDeadCornerTakesNoTouch() throws {
        let without = try Self.touches("dead-zone", "without"), with = try Self.touches("dead-zone", "with")
        #expect(Self.downs(without) == [Point(x: 550, y: 450), Point(x: 450, y: 450)], "\(without)")
        #expect(Self.downs(with) == [Point(x: 450, y: 450)], "\(with)")
    }

    /// A contact that never lifts holds the app's touch for as long as it stays without
    /// stuck-after; with it the app gets wl_touch.cancel after 2 s, the health answer and the
    /// metrics name the panel, and its next tap arrives.
    @Test func aStuckContactIsEndedWithStuckAfter() throws {
        let run = try Self.run.get()
        let without = try Self.touches("stick", "without"), with = try Self.touches("stick", "with")
        #expect(!without.contains(.cancel) && Self.downs(without).count == 2 && Self.ups(without) == 2, "\(without)")
        #expect(with.filter { $0 == .cancel }.count == 1 && Self.downs(with).count == 2 && Self.ups(with) == 1, "\(with)")
        #expect(run.read("health-stuck.txt") == "503\ntouchscreen 'Tactile Faulty Panel': a stuck contact was ended in the last minute (its panel may need a reset)\n",
                "\(run.read("health-stuck.txt"))")
        #expect(run.read("metrics-stuck.txt").contains("tactile_touches_stuck_total{device=\"Tactile Faulty Panel\"} 1"), "\(run.read("metrics-stuck.txt").suffix(1500))")
        #expect(run.read("tactile.log").contains("touchscreen 'Tactile Faulty Panel': a contact at (100, 100) has not moved for 2 s"))
    }
}
