import Foundation
import Responder
import Testing
@testable import TactileTestSupport

/// A kiosk whose screen is mounted turned: `tactile serve --backend drm --kiosk --transform T
/// -- weston-simple-touch` on bochs-drm's 1280x800 screen, with a touchscreen that has no
/// WL_OUTPUT and no setting (rotated.py drives it). QEMU's screendump shows the panel as it
/// scans out; a tap at a raw panel point must reach the client at the upright point under
/// that spot, where simple-touch then draws its red cross.
@Suite struct RotatedKioskGuestTests {
    static let run = Guest.once(scenario: "rotated.py", folder: "guest-rotated", modules: ["bochs"])
    static let grey: UInt32 = 0x58_5858, background: UInt32 = 0x20_2020, red: UInt32 = 0xff_0000

    /// For each transform, worked out by hand on the panel (1280x800, its own axes): a pixel
    /// inside simple-touch's 600x500 buffer at the layout's top-left, two just outside it, and
    /// the panel pixel showing the layout's pixel (200, 150), where simple-touch draws its
    /// cross for a touch at (200.0, 150.0). rotated.py taps that point: a corner of the pixel,
    /// which the turn moves to another corner.
    static let panels: [(transform: String, inside: Position, outside: [Position], tap: Position)] = [
        ("90", Position(x: 10, y: 790), [Position(x: 10, y: 190), Position(x: 510, y: 790)], Position(x: 150, y: 599)),
        ("180", Position(x: 1270, y: 790), [Position(x: 670, y: 790), Position(x: 1270, y: 290)], Position(x: 1079, y: 649)),
        ("270", Position(x: 1270, y: 10), [Position(x: 770, y: 10), Position(x: 1270, y: 610)], Position(x: 1129, y: 200)),
        ("flipped-90", Position(x: 10, y: 10), [Position(x: 510, y: 10), Position(x: 10, y: 610)], Position(x: 150, y: 200)),
    ]

    @Test(arguments: panels)
    func theScreenShowsTheClientTurnedAndATapLandsUnderTheFinger(_ panel: (transform: String, inside: Position, outside: [Position], tap: Position)) throws {
        let run = try RotatedKioskGuestTests.run.get()
        let log = run.read("tactile-\(panel.transform).log")
        let before = try run.dump("\(panel.transform)-before"), after = try run.dump("\(panel.transform)-after")
        #expect((before.width, before.height) == (1280, 800), "the panel's own frame")
        #expect(log.contains("transform \(panel.transform)"), "the log names the transform: \(log.suffix(1500))")
        #expect(before.colour(at: panel.inside.x, panel.inside.y) == Self.grey, "simple-touch where the transform puts the layout's top-left")
        for p in panel.outside { #expect(before.colour(at: p.x, p.y) == Self.background, "background at \(p)") }
        #expect(log.contains(panel.transform == "180" ? "configure(1280, 800, " : "configure(800, 1280, "),
                "the kiosk window told the upright size")
        #expect(SimpleTouchDown.all(in: log) == [SimpleTouchDown(id: 0, Point(x: 200, y: 150))], "the tap at the client's upright (200, 150)")
        for (dx, dy) in [(0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)] {
            #expect(after.colour(at: panel.tap.x + dx, panel.tap.y + dy) == Self.red, "the red cross under the finger, (\(panel.tap.x + dx), \(panel.tap.y + dy))")
        }
    }
}

extension RotatedKioskGuestTests {
    /// `wlr-randr --output Virtual-1 --transform 90` on a running kiosk: the app is told the
    /// portrait size and the next tap lands under the finger; unplugged and plugged back, the
    /// screen comes back turned, and taps still land.
    @Test func wlrRandrTurnsTheKioskAndAReconnectKeepsTheTurn() throws {
        let run = try RotatedKioskGuestTests.run.get()
        let log = run.read("tactile-runtime.log")
        #expect(run.read("randr-before.txt").contains("Transform: normal"), "\(run.read("randr-before.txt"))")
        #expect(run.read("randr-set.txt").contains("status 0"), "\(run.read("randr-set.txt"))")
        #expect(log.contains("output Virtual-1 now 1280x800 at 0,0, scale 1, transform 90"), "\(log.suffix(2000))")
        #expect(log.contains("configure(800, 1280, "), "reconfigured to the portrait size")
        #expect(SimpleTouchDown.all(in: log).prefix(2) == [SimpleTouchDown(id: 0, Point(x: 200, y: 150)), SimpleTouchDown(id: 0, Point(x: 200, y: 150))])
        let tap = Self.panels[0].tap
        let after = try run.dump("runtime-after"), reconnected = try run.dump("runtime-reconnected")
        #expect(after.colour(at: tap.x, tap.y) == Self.red && after.colour(at: tap.x, tap.y - 2) == Self.red, "the cross under the finger")
        #expect(log.contains("output Virtual-1 removed"))
        #expect(log.contains("no output left: Tactile and its clients keep running"), "the last screen gone, the log says what happens")
        #expect(log.contains("output Virtual-1: 1280x800 at 0,0, scale 1, transform 90"), "back, turned")
        #expect(run.read("randr-reconnected.txt").contains("Transform: 90"), "\(run.read("randr-reconnected.txt"))")
        #expect(reconnected.colour(at: tap.x, tap.y) == Self.red, "the second tap's cross, on the turned screen")
        #expect(reconnected.colour(at: Self.panels[0].inside.x, Self.panels[0].inside.y) == Self.grey)
    }

    /// `wlr-randr --mode 1024x768` on the turned kiosk: the screen takes the mode, the app is
    /// told the new portrait size, and the same raw reading lands at the upright point it now
    /// is: (192, 120), panel pixel (120, 575). `--off` turns its CRTC off (QEMU shows black)
    /// and lists it disabled;
    /// `--on` lights it again, in the preferred mode, and taps land as before.
    @Test func wlrRandrSwitchesTheModeAndTurnsTheScreenOffAndOn() throws {
        let run = try RotatedKioskGuestTests.run.get()
        let log = run.read("tactile-runtime.log")
        #expect(run.read("randr-mode.txt").contains("status 0"), "\(run.read("randr-mode.txt"))")
        #expect(log.contains("Virtual-1: switching to 1024x768@"), "\(log.suffix(2000))")
        #expect(log.contains("output Virtual-1 now 1024x768 at 0,0, scale 1, transform 90"))
        #expect(log.contains("configure(768, 1024, "))
        let downs = SimpleTouchDown.all(in: log)
        #expect(downs.count == 4 && downs[2] == SimpleTouchDown(id: 0, Point(x: 192, y: 120)), "\(downs)")
        let switched = try run.dump("runtime-mode")
        #expect((switched.width, switched.height) == (1024, 768), "the panel in its new mode")
        for (dx, dy) in [(0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)] {
            #expect(switched.colour(at: 120 + dx, 575 + dy) == Self.red, "the cross under the finger, (\(120 + dx), \(575 + dy))")
        }

        #expect(run.read("randr-off.txt").contains("status 0"), "\(run.read("randr-off.txt"))")
        #expect(log.contains("output Virtual-1 disabled: its screen is dark"))
        let off = try run.dump("runtime-off")
        #expect(off.colours() == [0], "the CRTC off, the screen is black: \(off.colours().prefix(3))")
        #expect(run.read("randr-disabled.txt").contains("Enabled: no"), "\(run.read("randr-disabled.txt"))")
        #expect(run.read("randr-on.txt").contains("status 0"), "\(run.read("randr-on.txt"))")
        #expect(log.contains("output Virtual-1 enabled: 1280x800 at 0,0, scale 1, transform 90"), "\(log.suffix(2000))")
        #expect(downs.count == 4 && downs[3] == SimpleTouchDown(id: 0, Point(x: 200, y: 150)), "\(downs)")
        let on = try run.dump("runtime-on")
        let tap = Self.panels[0].tap
        #expect((on.width, on.height) == (1280, 800))
        #expect(on.colour(at: tap.x, tap.y) == Self.red && on.colour(at: Self.panels[0].inside.x, Self.panels[0].inside.y) == Self.grey,
                "lit again, the app turned and the cross under the finger")
    }
}
