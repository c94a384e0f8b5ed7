import Foundation
import Testing
@testable import TactileTestSupport

/// Two screens on two cards (QEMU's VGA and secondary-vga, both bochs-drm), one kiosk app on
/// each, and touchscreens mapped to the second by the configuration file, by udev's
/// WL_OUTPUT and by their size, or to the first by default, then by touching each screen
/// (two_screens.py drives it).
@Suite struct TwoScreensGuestTests {
    @Test func eachCardsScreenBecomesAnOutputSideBySide() throws {
        let log = try TwoScreensRun.shared.get().log
        #expect(log.contains("output Virtual-1: 1280x800 at 0,0"), "\(log)")
        // The second at the mode the configuration file's outputs section asks for.
        #expect(log.contains("output Virtual-2: 1024x768 at 1280,0"))
        #expect(log.contains("Virtual-1: 1280x800@75 on /dev/dri/card0") && log.contains("Virtual-2: 1024x768@"))
    }

    @Test func touchscreensMappedToTheSecondScreenReachItsApp() throws {
        let run = try TwoScreensRun.shared.get()
        // The log says which rule mapped each touchscreen.
        #expect(run.log.contains("device added: Tactile Configured Touchscreen (touch); mapped to Virtual-2 (configuration)"), "\(run.log)")
        #expect(run.log.contains("device added: Tactile Udev Touchscreen (touch); mapped to Virtual-2 (udev WL_OUTPUT)"))
        #expect(run.log.contains("device added: Tactile Sized Touchscreen (touch); mapped to Virtual-2 by its size (410x293 mm; Virtual-2 is 400x300 mm)"), "\(run.log)")
        #expect(run.log.contains("device added: Tactile Plain Touchscreen (touch); mapped to the first output, Virtual-1 (its size is unknown"))
        // Raw (1024, 1024), (512, 2048) and (2048, 2048) scaled onto the second, 1024x768
        // screen, where its simple-touch sits at the origin.
        #expect(Array(SimpleTouchDown.all(in: run.second).prefix(3)) == [SimpleTouchDown(id: 0, Point(x: 256, y: 192)), SimpleTouchDown(id: 0, Point(x: 128, y: 384)),
                                                                       SimpleTouchDown(id: 0, Point(x: 512, y: 384))])
        // The unmapped touchscreen is on the first screen.
        #expect(SimpleTouchDown.all(in: run.first) == [SimpleTouchDown(id: 0, Point(x: 320, y: 400))])
    }

    @Test func eachHeadShowsItsAppAndTheCrossesDrawnThere() throws {
        let run = try TwoScreensRun.shared.get()
        #expect((run.firstBefore.width, run.firstBefore.height) == (1280, 800))
        #expect((run.secondBefore.width, run.secondBefore.height) == (1024, 768), "the second head at its configured mode")
        for shot in [run.firstBefore, run.secondBefore] {
            #expect(shot.colour(at: 10, 10) == 0x58_5858 && shot.colour(at: 700, 600) == 0x20_2020, "an app at each screen's origin")
        }
        #expect(run.secondAfter.colour(at: 256, 192) == 0xff_0000 && run.secondAfter.colour(at: 128, 384) == 0xff_0000)
        #expect(run.secondAfter.colour(at: 512, 384) == 0xff_0000, "the touchscreen mapped by its size")
        #expect(run.secondAfter.colour(at: 320, 400) == 0x58_5858)
        #expect(run.firstAfter.colour(at: 320, 400) == 0xff_0000)
        #expect(run.firstAfter.colour(at: 320, 200) == 0x58_5858 && run.firstAfter.colour(at: 160, 400) == 0x58_5858)
    }
}

extension TwoScreensGuestTests {
    /// `touch.map: ask` starts `tactile calibrate --map --if-guessed`: the first screen asks
    /// (white, a ring in its middle) and the plain touchscreen touches it; the second asks and
    /// the wandering one (on the first by default) touches it, is mapped there, and its later
    /// tap reaches the second app. The touches that answered reach no app. The file gets both
    /// outputs, the rest kept.
    @Test func touchingEachScreenMapsTheTouchscreenThatTouchedIt() throws {
        let run = try TwoScreensRun.shared.get()
        #expect(run.map.contains("touch.map: ask: started /"), "\(run.map)")
        #expect(run.map.contains("guessed: Tactile Plain Touchscreen on Virtual-1 (by default), Tactile Wandering Touchscreen on Virtual-1 (by default), Tactile Sized Touchscreen on Virtual-2 (by its size)"))
        #expect(run.map.contains("mapping 5 touchscreens by touch"))
        #expect(run.map.contains("screen Virtual-1: Tactile Plain Touchscreen (/sys/") && run.map.contains(") mapped to it, as it was"))
        #expect(run.map.contains("screen Virtual-2: Tactile Wandering Touchscreen (/sys/") && run.map.contains(") mapped to it, not Virtual-1"))
        #expect(run.map.contains("Tactile Sized Touchscreen touched no screen: it stays on Virtual-2"))
        #expect(run.map.contains("devices:\n  - match: \"Tactile Plain Touchscreen\"\n    output: \"Virtual-1\"\n  - match: \"Tactile Wandering Touchscreen\"\n    output: \"Virtual-2\"\n"))
        #expect(run.log.contains("device added: Tactile Wandering Touchscreen (touch); mapped to the first output, Virtual-1"))
        #expect(run.log.contains("device Tactile Wandering Touchscreen: mapped to Virtual-2 (by touch)"), "\(run.log)")
        for shot in [run.asking.0, run.asking.1] {
            let (w, h) = (shot.width, shot.height)
            #expect(shot.colour(at: 0, 0) == 0xff_ffff && shot.colour(at: w - 1, h - 1) == 0xff_ffff && shot.colour(at: w / 2, h / 2) == 0xff_ffff)
            #expect(shot.colour(at: w / 2 + min(w, h) / 8, h / 2) == 0x00_0000, "the ring")
        }
        #expect(SimpleTouchDown.all(in: run.second).last == SimpleTouchDown(id: 0, Point(x: 550, y: 96)))
        #expect(SimpleTouchDown.all(in: run.first).count == 1, "the answering touch reached no app")
        #expect(run.file.hasPrefix("touch:\n  map: ask\ndevices:\n  - match: Tactile Configured Touchscreen\n    output: Virtual-2\n"), "\(run.file)")
        #expect(run.file.contains("  - match: \"Tactile Wandering Touchscreen\"\n    output: \"Virtual-2\"\n") && run.file.contains("outputs:\n  - name: Virtual-2\n    mode: 1024x768\n"))
    }

    /// The second screen unplugged: its output goes, its app moves to the first screen (its
    /// crosses now drawn there, over the first app); plugged back: the output returns.
    @Test func anUnpluggedScreensAppMovesToTheOtherAndTheScreenComesBack() throws {
        let run = try TwoScreensRun.shared.get()
        #expect(run.log.contains("Virtual-2: unplugged") && run.log.contains("output Virtual-2 removed"), "\(run.log)")
        #expect(run.unplugged.colour(at: 256, 192) == 0xff_0000 && run.unplugged.colour(at: 128, 384) == 0xff_0000, "the second app's crosses on the first screen")
        #expect(run.unplugged.colour(at: 10, 10) == 0x82_8282, "over the first app")
        #expect(run.log.components(separatedBy: "output Virtual-2: 1024x768 at 1280,0").count == 3, "announced again")
        #expect((run.composedBack.width, run.composedBack.height) == (1024, 768))
        #expect(run.composedBack.colour(at: 10, 10) == 0x20_2020, "composed again, empty: its app stayed on the first screen")
    }
}

/// One boot of the guest for the suite.
struct TwoScreensRun {
    let log: String
    /// Each weston-simple-touch's WAYLAND_DEBUG log: the first (first screen) and the second.
    let first: String, second: String
    let firstBefore: Screenshot, secondBefore: Screenshot, firstAfter: Screenshot, secondAfter: Screenshot
    /// The first head once the second was unplugged, and grim's capture of the second output once back.
    let unplugged: Screenshot, composedBack: Screenshot
    /// `tactile calibrate --map`'s transcript (in Tactile's log), each head while it asked, and the file it wrote.
    let map: String, asking: (Screenshot, Screenshot), file: String

    static let shared: Result<TwoScreensRun, GuestRunFailure> = Result { try TwoScreensRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        let guest = try Guest.run(scenario: "two_screens.py", folder: "guest-two", modules: ["bochs"], qemuArguments: "-device secondary-vga,id=second,xres=1600,yres=1200")
        log = guest.read("tactile.log")
        (first, second) = (guest.read("first.log"), guest.read("second.log"))
        (firstBefore, secondBefore) = (try guest.dump("first-before"), try guest.dump("second-before"))
        (firstAfter, secondAfter) = (try guest.dump("first-after"), try guest.dump("second-after"))
        (unplugged, composedBack) = (try guest.dump("first-unplugged"), try guest.dump("grim-second-back"))
        (map, asking, file) = (log, (try guest.dump("map-first"), try guest.dump("map-second")), guest.read("tactile.yaml"))
    }
}
