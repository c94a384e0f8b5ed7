import Responder

/// Which screen a touchscreen is glued to, from what the hardware says of both: libinput
/// gives a touchscreen's size in millimetres (its axes' range over their resolution), a
/// screen's EDID gives its own. Where configuration and udev say nothing, the one screen of
/// the touchscreen's size is the one it covers. A touch sensor's active area is a little
/// larger or smaller than the picture, and EDIDs round to the centimetre, hence the
/// tolerance; a panel mounted turned may report its axes swapped, hence either orientation.
enum ScreenBySize: Equatable {
    /// The one output of that size.
    case matched(String)
    /// Several have it: the size says nothing.
    case several([String])
    /// None has it, or none says its size.
    case none

    /// The outputs whose size is within `tolerance(of:)` of `touchscreen`'s on both sides.
    static func output(for touchscreen: (width: Double, height: Double), among outputs: [(name: String, size: Size)]) -> ScreenBySize {
        guard touchscreen.width > 0, touchscreen.height > 0 else { return .none }
        let touch = (long: max(touchscreen.width, touchscreen.height), short: min(touchscreen.width, touchscreen.height))
        let fitting = outputs.filter { output in
            let long = Double(max(output.size.width, output.size.height)), short = Double(min(output.size.width, output.size.height))
            guard short > 0 else { return false }
            return abs(long - touch.long) <= tolerance(of: long) && abs(short - touch.short) <= tolerance(of: short)
        }.map(\.name)
        switch fitting.count {
        case 0: return .none
        case 1: return .matched(fitting[0])
        default: return .several(fitting)
        }
    }

    /// 5 % of a side, and never less than 10 mm (an EDID's basic size is in whole centimetres).
    static func tolerance(of side: Double) -> Double {
        max(10, side * 0.05)
    }
}
