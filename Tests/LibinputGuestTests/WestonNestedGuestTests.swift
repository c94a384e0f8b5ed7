import Foundation
import Testing
@testable import TactileTestSupport

/// Tactile nested in real weston, on a real (emulated) screen: the QEMU guest runs weston's DRM
/// backend on bochs-drm with a uinput touchscreen, `tactile serve --backend wayland
/// --fullscreen` as weston's client, and two weston-simple-touch windows inside Tactile
/// (weston_nested.py drives it). A touch travels kernel → libinput → weston → Tactile → client;
/// QEMU's screendump shows what reached the screen the other way.
@Suite struct WestonNestedGuestTests {
    // weston's screen is bochs-drm's preferred 1280x800; Tactile's fullscreen window covers it,
    // so Tactile's output coordinates are weston's. Tactile cascades the two 600x500
    // simple-touch windows: the first at (0, 0), the second at (32, 32), above it.
    static let second = (x: 32, y: 32)
    /// The tap: raw (1024, 1024) of the touchscreen's 0...4095 is weston's (320, 200).
    static let tap = (x: 320, y: 200)

    /// weston-simple-touch fills its buffer with the byte 64: ARGB 0x40404040, a premultiplied
    /// grey at a quarter alpha. Over Tactile's background (0x20) it is 0x40 + 0x20 × 191/255;
    /// over another simple-touch, 0x40 + that × 191/255.
    static let background: UInt32 = 0x20
    static let overBackground: UInt32 = 0x58
    static let overTheOther: UInt32 = 0x82

    @Test func aTapOnWestonsScreenReachesTheClientInsideTactileAtSurfaceLocalCoordinates() throws {
        let run = try WestonNestedRun.shared.get()
        #expect(run.tactileLog.contains("backend: wayland"), "\(run.tactileLog)")
        #expect(run.secondDowns == [SimpleTouchDown(id: 0, Point(x: Double(Self.tap.x - Self.second.x), y: Double(Self.tap.y - Self.second.y)))])
        #expect(run.secondLog.contains(".up("), "the tap's up should follow its down")
        #expect(run.firstDowns.isEmpty, "the covered simple-touch received \(run.firstDowns)")
    }

    @Test func theScreenShowsBothClientsWhereTactilePlacedThemOverTactilesBackground() throws {
        let before = try WestonNestedRun.shared.get().before
        #expect(before.width == 1280 && before.height == 800)
        func grey(_ x: Int, _ y: Int) -> UInt32? {
            let c = before.colour(at: x, y)
            return c >> 16 == c >> 8 & 0xff && c >> 16 == c & 0xff ? c & 0xff : nil
        }
        func near(_ value: UInt32?, _ expected: UInt32) -> Bool { value.map { $0 + 2 >= expected && $0 <= expected + 2 } ?? false }
        // The first window alone (its top-left strip), both windows, the second alone (below
        // the first's 500 rows), and Tactile's background beyond them: the fullscreen window
        // fills weston's screen.
        #expect(near(grey(10, 10), Self.overBackground), "\(String(before.colour(at: 10, 10), radix: 16))")
        #expect(near(grey(100, 100), Self.overTheOther), "\(String(before.colour(at: 100, 100), radix: 16))")
        #expect(near(grey(620, 520), Self.overBackground), "\(String(before.colour(at: 620, 520), radix: 16))")
        #expect(grey(700, 600) == Self.background && grey(1279, 799) == Self.background, "\(String(before.colour(at: 700, 600), radix: 16))")
    }

    @Test func theTouchedClientsRedCrossReachesTheScreenUnderTheFinger() throws {
        let run = try WestonNestedRun.shared.get()
        let (x, y) = Self.tap
        // simple-touch paints a 5-pixel cross in red (finger 0) centred on the touch.
        for (dx, dy) in [(0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)] {
            #expect(run.after.colour(at: x + dx, y + dy) == 0xff0000, "at (\(x + dx), \(y + dy)): \(String(run.after.colour(at: x + dx, y + dy), radix: 16))")
            #expect(run.before.colour(at: x + dx, y + dy) != 0xff0000)
        }
        #expect(run.after.colour(at: x - 2, y - 2) == run.before.colour(at: x - 2, y - 2), "outside the cross nothing changes")
    }
}

/// One boot of the guest for the suite.
struct WestonNestedRun {
    let tactileLog: String
    let firstDowns: [SimpleTouchDown]
    let secondLog: String
    var secondDowns: [SimpleTouchDown] { SimpleTouchDown.all(in: secondLog) }
    /// QEMU's screendumps before and after the tap.
    let before: Screenshot
    let after: Screenshot

    static let shared: Result<WestonNestedRun, GuestRunFailure> = Result { try WestonNestedRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        // bochs-drm gives weston a DRM device; the guest loads no driver by itself.
        let guest = try Guest.run(scenario: "weston_nested.py", folder: "guest-weston", modules: ["bochs"])
        tactileLog = guest.read("tactile.log")
        firstDowns = SimpleTouchDown.all(in: guest.read("simple-touch-first.log"))
        secondLog = guest.read("simple-touch-second.log")
        before = try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: "\(guest.directory)/before.ppm")))
        after = try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: "\(guest.directory)/after.ppm")))
    }
}
