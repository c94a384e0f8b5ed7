import Foundation
import Responder
import Testing
@testable import TactileTestSupport

/// A kiosk whose screen sleeps after fifteen seconds without input and wakes by touch
/// (idle.py): the connector's DPMS state reads Off and QEMU's screendump is black while it
/// sleeps; a tap wakes it, and with `wake: swallow` weston-simple-touch never hears that
/// tap, only the next; with `wake: deliver` it hears both. Then a kiosk's day in the same
/// boot: the reset warning shades the app, the tap that dismisses it reaches nothing, and the
/// session starts simple-touch over when nobody comes back.
@Suite struct IdleGuestTests {
    static let grey: UInt32 = 0x58_5858, red: UInt32 = 0xff_0000
    static let run = Guest.once(scenario: "idle.py", folder: "guest-idle", modules: ["bochs"])

    @Test func theScreenSleepsAndTheTouchThatWakesItGoesNowhere() throws {
        let run = try IdleGuestTests.run.get()
        #expect(run.read("dpms-swallow.txt") == "awake On\nasleep Off\nwoken On\n", "\(run.read("dpms-swallow.txt"))")
        let awake = try run.dump("swallow-awake"), asleep = try run.dump("swallow-asleep")
        let woken = try run.dump("swallow-woken"), tapped = try run.dump("swallow-tapped")
        #expect(awake.colour(at: 10, 10) == Self.grey, "simple-touch shown before the sleep")
        #expect(asleep.colours() == [0], "black while asleep: \(asleep.colours().prefix(3))")
        #expect(woken.colour(at: 10, 10) == Self.grey, "shown again once woken")
        #expect(woken.colour(at: 200, 150) != Self.red, "no cross: the waking tap went nowhere")
        let log = run.read("tactile-swallow.log")
        #expect(log.contains("idle: woken by a touch; it goes no further"))
        #expect(SimpleTouchDown.all(in: log) == [SimpleTouchDown(id: 0, Point(x: 200, y: 150))], "only the second tap reached the app")
        #expect(tapped.colour(at: 200, 150) == Self.red, "the second tap's cross")
    }

    @Test func withWakeDeliverTheWakingTouchReachesTheApp() throws {
        let run = try IdleGuestTests.run.get()
        #expect(run.read("dpms-deliver.txt") == "awake On\nasleep Off\nwoken On\n", "\(run.read("dpms-deliver.txt"))")
        #expect(try run.dump("deliver-asleep").colours() == [0])
        let log = run.read("tactile-deliver.log")
        #expect(SimpleTouchDown.all(in: log).count == 2, "the waking tap and the next")
        #expect(try run.dump("deliver-woken").colour(at: 200, 150) == Self.red, "the waking tap's cross")
    }

    @Test func theResetWarningShowsItsDismissingTapGoesNowhereAndTheAppStartsOver() throws {
        let run = try IdleGuestTests.run.get()
        #expect(try run.dump("day-before").colour(at: 10, 10) == Self.grey)
        let warning = try run.dump("day-warning")
        #expect(warning.colour(at: 10, 10) & 0xff < 0x30, "the app shaded under the warning: \(String(warning.colour(at: 10, 10), radix: 16))")
        #expect(warning.colours(every: 3).contains(0xff_ffff), "the warning's white words")
        #expect(try run.dump("day-dismissed").colour(at: 10, 10) == Self.grey, "the warning went")
        let log = run.read("tactile-day.log")
        #expect(log.contains("session: a touch dismissed the warning"), "\(log.suffix(2000))")
        #expect(log.contains("without input (reset 1)"), "\(log.suffix(2000))")
        #expect(log.contains("started weston-simple-touch again (pid "))
        #expect(SimpleTouchDown.all(in: log).count == 1, "only the first tap reached simple-touch; the dismissing one went nowhere")
        #expect(try run.dump("day-reset").colour(at: 200, 150) != Self.red, "the new simple-touch shows no cross")
    }
}
