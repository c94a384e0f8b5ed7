import Foundation
import Responder
import Testing
@testable import TactileTestSupport

/// A kiosk whose screen sleeps after fifteen seconds without input and wakes by touch
/// (idle.py): the connector's DPMS state reads Off and QEMU's screendump is black while it
/// sleeps; a tap wakes it, and with `wake: swallow` weston-simple-touch never hears that
/// tap, only the next; with `wake: deliver` it hears both.
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
}
