import Foundation
import Responder
import Testing
@testable import TactileTestSupport

/// A kiosk that heals itself (heal.py), watched through its metrics: a touchscreen unplugged
/// and plugged back touches again at the same place, with the health answer 503 while it is
/// gone; an output turned off and on again with wlr-randr takes touches again, counted asleep
/// meanwhile.
@Suite struct HealGuestTests {
    static let run = Guest.once(scenario: "heal.py", folder: "guest-heal", modules: ["bochs"])
    static let tap = SimpleTouchDown(id: 0, Point(x: 200, y: 150))

    static func sample(_ exposition: String, _ series: String) -> Double? {
        exposition.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func aTouchscreenPluggedBackTouchesAgainAndTheMetricsSawItGo() throws {
        let run = try Self.run.get()
        let kind = "tactile_input_devices{kind=\"touchscreen\"}"
        #expect(Self.sample(run.read("metrics-start.txt"), kind) == 1, "\(run.read("metrics-start.txt"))")
        #expect(run.read("health-start.txt") == "200\nok\n")
        #expect(Self.sample(run.read("metrics-unplugged.txt"), kind) == 0)
        #expect(run.read("health-unplugged.txt") == "503\ndevice devices[0]: no touchscreen matching 'Tactile Test Touchscreen' is present\n",
                "\(run.read("health-unplugged.txt"))")
        #expect(Self.sample(run.read("metrics-replugged.txt"), kind) == 1)
        #expect(run.read("health-replugged.txt") == "200\nok\n")
        let downs = SimpleTouchDown.all(in: run.read("tactile.log"))
        #expect(downs.prefix(2) == [Self.tap, Self.tap], "the same place before and after: \(downs)")
        #expect(Self.sample(run.read("metrics-replugged.txt"), "tactile_touch_downs_total") == 2)
    }

    @Test func anOutputTurnedOffAndOnTakesTouchesAgain() throws {
        let run = try Self.run.get()
        #expect(Self.sample(run.read("metrics-off.txt"), "tactile_outputs_asleep") == 1, "\(run.read("metrics-off.txt"))")
        #expect(Self.sample(run.read("metrics-on.txt"), "tactile_outputs_asleep") == 0)
        #expect(run.read("health-on.txt") == "200\nok\n", "\(run.read("health-on.txt"))")
        #expect(SimpleTouchDown.all(in: run.read("tactile.log")) == [Self.tap, Self.tap, Self.tap], "a third tap, after the output came back")
    }
}
