import Foundation
import Testing
@testable import TactileTestSupport

/// Tactile as a kiosk on the guest's own screen: `tactile serve --backend drm --kiosk --
/// weston-simple-touch` on bochs-drm, with a uinput touchscreen (kiosk.py drives it). QEMU's
/// screendump is the oracle for what the screen shows, before, during and after Tactile.
@Suite struct KioskGuestTests {
    /// The tap: raw (1024, 1024) of the touchscreen's 0...4095 on the 1280x800 screen.
    static let tap = (x: 320, y: 200)

    @Test func theClientAppearsOnTheScreenThroughKMS() throws {
        let run = try KioskRun.shared.get()
        let before = run.before
        #expect((before.width, before.height) == (1280, 800))
        // weston-simple-touch (600x500 at the origin: it does not redraw at the kiosk size)
        // fills itself with quarter-alpha grey, 0x58 over Tactile's 0x20 background.
        #expect(before.colour(at: 10, 10) == 0x58_5858, "\(String(before.colour(at: 10, 10), radix: 16))")
        #expect(before.colour(at: 599, 499) == 0x58_5858)
        #expect(before.colour(at: 600, 499) == 0x20_2020, "Tactile's background beside it")
        #expect(run.log.contains("xdg_toplevel@10.configure(1280, 800, "), "told to fill the screen: \(run.log.suffix(2000))")
        #expect(before.colour(at: 1279, 799) == 0x20_2020)
        // Make and model from the screen's EDID (QEMU's: Red Hat's PNP id).
        #expect(run.log.contains("Virtual-1: 1280x800@75 on /dev/dri/card0, RHT QEMU Monitor"), "\(run.log)")
        #expect(run.log.contains("input devices: libseat, seat seat0"), "the card and the devices through one seat session")
    }

    @Test func aTapReachesTheClientAndItsDrawingReachesTheScreen() throws {
        let run = try KioskRun.shared.get()
        #expect(SimpleTouchDown.all(in: run.log).first == SimpleTouchDown(id: 0, Point(x: Double(Self.tap.x), y: Double(Self.tap.y))))
        for (dx, dy) in [(0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)] {
            #expect(run.after.colour(at: Self.tap.x + dx, Self.tap.y + dy) == 0xff_0000, "simple-touch's red cross at (\(Self.tap.x + dx), \(Self.tap.y + dy))")
        }
        #expect(run.before.colour(at: Self.tap.x, Self.tap.y) == 0x58_5858)
    }

    /// `tactile record` from a real device: the tap as libinput gave it, with its time and
    /// place, in the script format `tactile inject` replays.
    @Test func theTapIsRecordedAsAScriptLine() throws {
        let run = try KioskRun.shared.get()
        let lines = run.recorded.split(separator: "\n").map(String.init)
        #expect(lines.first == "# positions in global pixels; @T in microseconds since the first event", "\(lines)")
        let events = lines.dropFirst().map { $0.split(separator: " ").map(String.init) }
        try #require(events.count == 4, "down, frame, up, frame: \(lines)")
        #expect(events.map { $0.dropFirst().prefix(2).joined(separator: " ") } == ["touch down", "touch frame", "touch up", "touch frame"], "\(lines)")
        #expect(events[0].first == "@0" && events[0].dropFirst(4) == ["320", "200"], "\(lines)")
        let up = events[2].first.flatMap { UInt64($0.dropFirst()) }
        #expect(up.map { $0 > 0 && $0 < 5_000_000 } == true, "the up's time, after the down's: \(lines)")
    }

    /// A VT switch away shows the other VT's console; back, the picture returns as it was and
    /// touch works again.
    @Test func aVTSwitchAwayAndBackBringsThePictureAndTouchBack() throws {
        let run = try KioskRun.shared.get()
        #expect(run.away != run.after && run.away != run.consoleBefore, "the other VT's console shows while away")
        #expect(run.away.colour(at: 10, 10) == 0x00_0000 && run.away.colour(at: 320, 200) == 0x00_0000)
        #expect(run.back == run.after, "the same picture back")
        #expect(run.log.contains("seat disabled (VT switch?): the screens go to the other VT"))
        #expect(SimpleTouchDown.all(in: run.log).dropFirst().first == SimpleTouchDown(id: 0, Point(x: 480, y: 200)), "a tap after the switch")
    }

    /// As cage does: the kiosk app's end is Tactile's, with the app's status; the console
    /// comes back exactly as it was.
    @Test func killingTheAppEndsTactileWithItsStatusAndTheConsoleComesBack() throws {
        let run = try KioskRun.shared.get()
        #expect(run.status == "143", "128 + SIGTERM; Tactile said: \(run.log.suffix(500))")
        #expect(run.log.contains("weston-simple-touch exited with status 143: stopping"))
        #expect(run.consoleBefore.colour(at: 10, 10) != run.before.colour(at: 10, 10), "the console is not Tactile's picture")
        #expect(run.consoleAfter == run.consoleBefore, "the console's picture, text included, is back")
    }
}

extension KioskGuestTests {
    /// bochs-drm has no cursor plane: the pointer's arrow is drawn into the frames, tip on
    /// the pointer, where the absolute pointer put it.
    @Test func withoutACursorPlaneTheArrowIsInTheFrame() throws {
        let run = try KioskRun.shared.get()
        #expect(run.log.contains("Virtual-1: no cursor plane: the cursor is drawn into the frames"), "\(run.log)")
        #expect(run.cursor.colour(at: 960, 400) == 0x00_0000 && run.cursor.colour(at: 961, 403) == 0xff_ffff, "the arrow at (960, 400)")
        #expect(run.cursor.colour(at: 958, 403) == 0x20_2020)
    }

    /// A uinput pen (a screen tablet's stylus) is a tablet to libinput, and wev, which knows
    /// nothing of tablets, gets it as the pointer where the pen hovers, its tip as the left
    /// button, and the stroke's motion while the tip is down.
    @Test func aPenReachesAClientWithoutTabletSupportAsThePointer() throws {
        let run = try KioskRun.shared.get()
        #expect(run.log.contains("device added: Tactile Test Pen (a tablet: its pens are tablet tools, or the pointer)"), "\(run.log.suffix(3000))")
        // wev maps under the absolute pointer left at (960, 400); the pen then takes it.
        let positions = run.wev.components(separatedBy: "\n").filter { $0.contains("wl_pointer]") }.compactMap { line -> Point? in
            let numbers = line.components(separatedBy: "x, y: ").dropFirst().first?.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return numbers.flatMap { $0.count == 2 ? Point(x: $0[0], y: $0[1]) : nil }
        }
        func near(_ x: Double, _ y: Double) -> Bool { positions.contains { abs($0.x - x) <= 1 && abs($0.y - y) <= 1 } }
        #expect(near(320, 200), "the pointer at raw (1024, 1024) under the pen: \(run.wev)")
        #expect(run.wev.contains("button: 272 (left), state: 1 (pressed)") && run.wev.contains("button: 272 (left), state: 0 (released)"), "\(run.wev)")
        #expect(near(480, 200), "the stroke moved to raw (1536, 1024): \(run.wev)")
    }

    /// The same uinput pen to a client with a tablet seat (tactile-tablet-probe): the tablet
    /// is the one libinput opened, named and with its device path; the pen is a tool sensing
    /// pressure and tilt; its stroke comes as proximity, down, motion with pressure and tilt,
    /// up and proximity_out, and the client's pointer hears no button; hovering, the barrel
    /// button reaches it; the eraser end is a second tool whose pressure rises as the raw
    /// pressure does; unplugged, both tools and the tablet are removed.
    @Test func aPenReachesATabletClientAsATool() throws {
        let run = try KioskRun.shared.get()
        let lines = run.tabletProbe.split(separator: "\n").map(String.init)
        #expect(lines.contains("tablet name Tactile Test Pen"), "\(run.tabletProbe)")
        #expect(lines.contains { $0.hasPrefix("tablet path /dev/input/event") }, "\(run.tabletProbe)")
        #expect(lines.contains("tool type 320") && lines.contains("tool capability 1") && lines.contains("tool capability 2"), "\(run.tabletProbe)")
        let stroke = lines.filter { ["down", "up", "proximity_out"].contains($0) || $0.hasPrefix("proximity_in") || $0.hasPrefix("button ") }
        #expect(stroke == ["proximity_in 320", "down", "up", "proximity_out", "proximity_in 320", "button 331 1", "button 331 0", "proximity_out",
                           "proximity_in 321", "down", "up", "proximity_out", "proximity_in 320", "proximity_out"],
                "a stroke, a hover with the barrel button (BTN_STYLUS) pressed and released, the eraser, then the desk tablet's pen: \(run.tabletProbe)")
        #expect(lines.contains("tool type 321"), "the eraser end, a second tool: \(run.tabletProbe)")
        // The eraser pressed at raw 800, 1600 and 3200 of 4095 (its pressure is 0 before the
        // tip is down and again as it lifts).
        let erasing = lines.drop { $0 != "proximity_in 321" }.prefix { $0 != "up" }
        let erasingPressures = erasing.compactMap { $0.hasPrefix("pressure ") ? Int($0.dropFirst(9)) : nil }.filter { $0 > 0 }
        #expect(erasingPressures.count >= 3 && erasingPressures == erasingPressures.sorted() && erasingPressures.last! > erasingPressures.first! * 2,
                "the eraser's pressure rose with the raw pressure: \(erasingPressures)")
        let pressures = lines.compactMap { $0.hasPrefix("pressure ") ? Int($0.dropFirst(9)) : nil }
        #expect(pressures.contains { $0 > 0 && $0 < 65535 }, "a pressure while the tip was down: \(pressures)")
        #expect(lines.contains { $0.hasPrefix("tilt ") && $0 != "tilt 0.00 0.00" }, "the pen leaned: \(run.tabletProbe)")
        // The hover came in leaning (-25, 15 in the device's units, the other way from the
        // stroke's): its proximity's own frame has that tilt, not 0,0 nor the last stroke's.
        let hoverArrival = lines.split(separator: "proximity_in 320", omittingEmptySubsequences: false).dropFirst(2).first?.prefix { $0 != "frame" }
        let firstTilt = hoverArrival?.first { $0.hasPrefix("tilt ") }?.split(separator: " ").dropFirst().compactMap { Double($0) }
        #expect(firstTilt.map { $0.count == 2 && $0[0] < -10 && $0[1] > 5 } == true, "the tilt it came with: \(hoverArrival.map(Array.init) ?? [])")
        let motions = lines.compactMap { line -> (Double, Double)? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "motion", let x = Double(parts[1]), let y = Double(parts[2]) else { return nil }
            return (x, y)
        }
        #expect(motions.contains { abs($0.0 - 480) <= 1 && abs($0.1 - 200) <= 1 }, "the stroke moved to raw (1536, 1024): \(run.tabletProbe)")
        #expect(!lines.contains { $0.hasPrefix("pointer button") }, "no pointer button: \(run.tabletProbe)")
        // Unplugged, the tablet goes from clients with both ends of its pen (and later the
        // pad's, with the pad).
        #expect(Array(lines.drop { $0 != "proximity_out" }.filter { $0.hasSuffix("removed") })
                == ["tool removed", "tool removed", "tablet removed", "pad removed", "tablet removed", "tool removed", "tablet removed"],
                "\(run.tabletProbe)")
    }

    /// A desk tablet (no INPUT_PROP_DIRECT) whose settings give it a region of the screen
    /// (`region: [640, 400, 320, 200]`): its pen at the middle of the tablet is at the middle
    /// of the region, (800, 500), not of the screen.
    @Test func aDeskTabletMapsToItsRegion() throws {
        let run = try KioskRun.shared.get()
        #expect(run.log.contains("device added: Tactile Desk Tablet (a tablet: its pens are tablet tools, or the pointer); pens mapped to 640,400 320x200 of the output"),
                "\(run.log.suffix(3000))")
        let lines = Array(run.tabletProbe.split(separator: "\n").map(String.init).drop { $0 != "tablet name Tactile Desk Tablet" })
        let first = lines.first { $0.hasPrefix("motion ") }?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(first.count == 2 && abs(first[0] - 800) <= 1 && abs(first[1] - 500) <= 1, "\(lines)")
    }

    /// A uinput pad (4 buttons, a ring, a strip) is a tablet pad to libinput; its button,
    /// ring and strip reach the client with the keyboard focus (the probe, alone on the
    /// screen), the ring's angle turning as the raw value does and the strip's position
    /// rising along it; unplugged, the pad is removed.
    @Test func aPadReachesTheFocusedClient() throws {
        let run = try KioskRun.shared.get()
        #expect(run.log.contains("device added: Tactile Test Pad (a tablet pad: its buttons, rings and strips go to the keyboard focus)"), "\(run.log.suffix(3000))")
        let lines = Array(run.tabletProbe.split(separator: "\n").map(String.init).drop { $0 != "pad" })
        #expect(lines.contains("pad buttons 4") && lines.contains("group ring") && lines.contains("group strip") && lines.contains("group modes 1"), "\(lines)")
        let used = lines.filter { $0.hasPrefix("pad button ") || $0 == "pad enter" || $0.hasSuffix(" stop") || $0 == "pad removed" }
        #expect(used == ["pad enter", "pad button 1 1", "pad button 1 0", "ring stop", "strip stop", "pad removed"], "\(lines)")
        // Raw 18 and 36 of 0...71: a quarter turn apart.
        let angles = lines.compactMap { $0.hasPrefix("ring angle ") ? Double($0.dropFirst(11)) : nil }
        #expect(angles.count == 2 && abs((angles[1] - angles[0] + 360).truncatingRemainder(dividingBy: 360) - 90) < 1, "\(angles)")
        // Raw 1, 64 and 4096 (bit 0, 6 and 12): the start, the middle and the end.
        let positions = lines.compactMap { $0.hasPrefix("strip position ") ? Int($0.dropFirst(15)) : nil }
        #expect(positions.count == 3 && positions[0] < 1000 && abs(positions[1] - 32768) < 1000 && positions[2] > 64535, "\(positions)")
    }

    /// As examples/tactile-kiosk.service runs it: as a user who may open neither the card nor
    /// the input devices, seatd opening both; the app's status is still Tactile's.
    @Test func anUnprivilegedUserGetsTheScreenThroughSeatd() throws {
        let run = try KioskRun.shared.get()
        #expect(run.seatdLog.contains("New client connected") && run.seatdLog.contains("uid: 65534"), "\(run.seatdLog)")
        #expect(run.seatdServerLog.contains("input devices: libseat, seat seat0"), "\(run.seatdServerLog)")
        #expect(run.seatdServerLog.contains("Virtual-1: 1280x800@75 on /dev/dri/card0"))
        #expect(run.seatdStatus == "5", "the app's status: \(run.seatdServerLog.suffix(500))")
    }
}

/// One boot of the guest for the suite.
struct KioskRun {
    /// Tactile's log with weston-simple-touch's WAYLAND_DEBUG lines (it inherits the output).
    let log: String
    /// What wev printed of the pen.
    let wev: String
    /// What tactile-tablet-probe heard of the pen.
    let tabletProbe: String
    /// What `tactile record` wrote of the first tap.
    let recorded: String
    let status: String
    /// The unprivileged run through seatd: its log, status, and seatd's log.
    let seatdServerLog: String, seatdStatus: String, seatdLog: String
    let consoleBefore: Screenshot, before: Screenshot, after: Screenshot, away: Screenshot, back: Screenshot, cursor: Screenshot, consoleAfter: Screenshot

    static let shared: Result<KioskRun, GuestRunFailure> = Result { try KioskRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        let guest = try Guest.run(scenario: "kiosk.py", folder: "guest-kiosk", modules: ["bochs"])
        log = guest.read("tactile.log")
        wev = guest.read("wev.log")
        tabletProbe = guest.read("tablet-probe.log")
        recorded = guest.read("recorded.txt")
        status = guest.read("tactile.status").trimmingCharacters(in: .whitespacesAndNewlines)
        seatdServerLog = guest.read("tactile-seatd.log")
        seatdStatus = guest.read("tactile-seatd.status").trimmingCharacters(in: .whitespacesAndNewlines)
        seatdLog = guest.read("seatd.log")
        (consoleBefore, before, after, consoleAfter) = (try guest.dump("console-before"), try guest.dump("kiosk-before"), try guest.dump("kiosk-after"), try guest.dump("console-after"))
        (away, back, cursor) = (try guest.dump("vt-away"), try guest.dump("vt-back"), try guest.dump("cursor"))
    }
}

/// The same kiosk on vkms, the kernel's virtual KMS driver, whose vblanks come from a 60 Hz
/// timer as a panel's do (kiosk_vkms.py). QEMU cannot show vkms's screen, so Tactile's own
/// capture is the oracle: the app, the tap's cross, the picture after a VT switch.
@Suite struct KioskOnVkmsGuestTests {
    static let run = Guest.once(scenario: "kiosk_vkms.py", folder: "guest-kiosk-vkms", modules: ["vkms"])

    @Test func theAppAndItsAnswerToATapAreComposedOnVkmsVblanks() throws {
        let guest = try Self.run.get()
        let log = guest.read("tactile.log")
        #expect(log.contains("Virtual-1: 1024x768@60"), "vkms's screen: \(log.prefix(3000))")
        #expect(log.contains("frames composed ") && log.contains(" ms before the vblank"), "the frame clock keeps to vkms's vblanks")
        #expect(!log.contains("shows frames without vblanks"))
        let before = try guest.dump("vkms-before"), after = try guest.dump("vkms-after")
        #expect((before.width, before.height) == (1024, 768))
        #expect(before.colour(at: 10, 10) == 0x58_5858 && before.colour(at: 599, 499) == 0x58_5858, "weston-simple-touch's grey")
        #expect(before.colour(at: 1023, 767) == 0x20_2020, "Tactile's background beside it")
        #expect(SimpleTouchDown.all(in: log).first == SimpleTouchDown(id: 0, Point(x: 256, y: 192)))
        #expect(after.colour(at: 256, 192) == 0xff_0000, "simple-touch's red cross where the finger was")
        #expect(before.colour(at: 256, 192) == 0x58_5858)
    }

    @Test func aVTSwitchAwayAndBackBringsThePictureAndTouchBack() throws {
        let guest = try Self.run.get()
        let log = guest.read("tactile.log")
        #expect(try guest.dump("vkms-back") == guest.dump("vkms-after"), "the same picture back")
        #expect(SimpleTouchDown.all(in: log).dropFirst().first == SimpleTouchDown(id: 0, Point(x: 384, y: 192)), "a tap after the switch")
        #expect(guest.read("tactile.status").trimmingCharacters(in: .whitespacesAndNewlines) == "143", "the app's end is Tactile's")
    }
}
