import Responder
@testable import TactileBackends
import Testing

/// A touchscreen without a mapping goes to the screen of its size (issue 52): a 10.1-inch
/// sensor to the 10.1-inch panel beside a 21.5-inch one, whatever order they came in.
@Suite struct ScreenBySizeTests {
    let outputs: [(name: String, size: Size)] = [("HDMI-A-1", Size(width: 476, height: 268)), ("DSI-1", Size(width: 223, height: 125))]

    @Test func theScreenOfItsSizeWithinAFewMillimetres() {
        #expect(ScreenBySize.output(for: (226.4, 128.0), among: outputs) == .matched("DSI-1"))
        #expect(ScreenBySize.output(for: (470.0, 265.0), among: outputs) == .matched("HDMI-A-1"))
        #expect(ScreenBySize.output(for: (226.4, 128.0), among: outputs.reversed()) == .matched("DSI-1"), "the order outputs came in says nothing")
    }

    @Test func aSensorWithItsAxesSwappedStillFindsItsScreen() {
        #expect(ScreenBySize.output(for: (128.0, 226.4), among: outputs) == .matched("DSI-1"))
    }

    @Test func noSizeOrNoneOfItsSizeOrSeveralSayNothing() {
        #expect(ScreenBySize.output(for: (0, 0), among: outputs) == .none, "a touchscreen without resolution has no size")
        #expect(ScreenBySize.output(for: (300, 200), among: outputs) == .none)
        #expect(ScreenBySize.output(for: (226, 128), among: [("A", Size(width: 0, height: 0))]) == .none, "a screen without an EDID size")
        let twins = [("Virtual-1", Size(width: 260, height: 195)), ("Virtual-2", Size(width: 260, height: 195))]
        #expect(ScreenBySize.output(for: (260, 195), among: twins) == .several(["Virtual-1", "Virtual-2"]))
        #expect(ScreenBySize.output(for: (.nan, 195), among: twins) == .none, "nonsense from a broken device")
    }
}
