import Foundation
import Testing
@testable import TactileTestSupport

/// A touchscreen whose readings are skewed, scaled and offset from its panel (calibrate.py's
/// SKEW), calibrated by touching crosses: with `tactile calibrate` in an upright kiosk and a
/// portrait desktop, and with weston-touch-calibrator; taps then land where they should on
/// weston-simple-touch. Hostile taps and an unplugged touchscreen change nothing.
@Suite struct CalibrationGuestTests {
    /// The layout points calibrate.py taps after each step (TAPS, PORTRAIT_TAPS).
    static let taps = [Point(x: 300, y: 200), Point(x: 520, y: 90), Point(x: 150, y: 420)]
    static let portraitTaps = [Point(x: 200, y: 300), Point(x: 90, y: 440), Point(x: 420, y: 150)]

    @Test func tapsLandWithinAPixelOnceTactileCalibrateRan() throws {
        let run = try CalibrationRun.shared.get()
        let downs = SimpleTouchDown.all(in: run.guest.read("touch-upright.log")).map(\.point)
        try #require(downs.count == 10, "three taps before, three after tactile calibrate, one after the unplugging, three after weston's: \(downs)")
        let before = zip(downs[0..<3], Self.taps).map(Self.distance)
        #expect(before.allSatisfy { $0 > 25 }, "uncalibrated, the skewed panel is far off: \(before)")
        let after = zip(downs[3..<6], Self.taps).map(Self.distance)
        #expect(after.allSatisfy { $0 <= 1 }, "calibrated by tactile calibrate: \(after) px off")
        #expect(Self.distance(downs[6], Self.taps[0]) <= 1, "still calibrated after another touchscreen's calibration was cut short")
        let afterWeston = zip(downs[7..<10], Self.taps).map(Self.distance)
        #expect(afterWeston.allSatisfy { $0 <= 1 }, "calibrated by weston-touch-calibrator: \(afterWeston) px off")
        print("calibration: upright kiosk, px off before \(before), after tactile calibrate \(after), after weston-touch-calibrator \(afterWeston)")
    }

    @Test func theTranscriptSaysWhatWasRefusedAndPrintsTheEntry() throws {
        let run = try CalibrationRun.shared.get()
        let transcript = run.guest.read("calibrate-upright.txt")
        #expect(transcript.contains("calibrating Tactile Skewed Touchscreen (/sys/"), "\(transcript)")
        #expect(transcript.contains("cross 2: tap refused, it landed where the tap on cross 1 did; touch it again"))
        #expect(transcript.contains("cross 2: tap refused, it landed ") && transcript.contains(" px from the cross (at most "))
        #expect(transcript.contains("cross 2: tap refused, use one finger, on this touchscreen's screen; touch it again"))
        #expect(transcript.contains("cross 5 of 5 (the check)"))
        #expect(transcript.contains("residual: 0.") && transcript.contains("px on average"))
        #expect(transcript.contains("devices:\n  - match: \"Tactile Skewed Touchscreen\"\n    calibration: ["))
        print("tactile calibrate transcript:\n\(transcript)")
    }

    @Test func writeKeepsTheRestOfTheFile() throws {
        let run = try CalibrationRun.shared.get()
        let file = run.guest.read("tactile.yaml")
        let matrix = try #require(Self.matrix(in: run.guest.read("calibrate-upright.txt"), after: "calibration: "))
        #expect(file.hasPrefix("# the installer's file\nidle:\n  timeout: 600\ntouch:\n  map: ask\ndevices:\n  - match: Tactile Other Touchscreen\n    tap-to-click: true\n"), "\(file)")
        #expect(file.contains("  - match: \"Tactile Skewed Touchscreen\"\n    calibration: ["))
        #expect(Self.matrix(in: file, after: "calibration: ") == matrix)
    }

    @Test func aPortraitDesktopIsCalibratedByTheFileAndCalibratesTheSame() throws {
        let run = try CalibrationRun.shared.get()
        let downs = SimpleTouchDown.all(in: run.guest.read("touch-portrait.log")).map(\.point)
        try #require(downs.count == 6, "\(downs)")
        let fromFile = zip(downs[0..<3], Self.portraitTaps).map(Self.distance)
        #expect(fromFile.allSatisfy { $0 <= 1 }, "the written file's calibration, on a portrait desktop: \(fromFile) px off")
        // The file's touch.map: ask had nothing to ask of one screen.
        #expect(run.guest.read("tactile-portrait.log").contains("no touchscreen's screen was guessed among 1 screen: nothing to ask"))
        let again = zip(downs[3..<6], Self.portraitTaps).map(Self.distance)
        #expect(again.allSatisfy { $0 <= 1 }, "calibrated again while turned: \(again) px off")
        // The matrix is in the device's own axes, before the output's transform: the same.
        let upright = try #require(Self.matrix(in: run.guest.read("calibrate-upright.txt"), after: "calibration: "))
        let portrait = try #require(Self.matrix(in: run.guest.read("calibrate-portrait.txt"), after: "calibration: "))
        #expect(zip(upright, portrait).allSatisfy { abs($0 - $1) < 0.001 }, "\(upright) upright, \(portrait) portrait")
        print("calibration: portrait desktop, px off from the file \(fromFile), calibrated again \(again); matrices \(upright) and \(portrait)")
    }

    @Test func westonTouchCalibratorRunsAndFindsTheSameMatrix() throws {
        let run = try CalibrationRun.shared.get()
        let list = run.guest.read("weston-list.txt")
        #expect(list.components(separatedBy: "device \"/sys/").count == 3, "the two touchscreens left: \(list)")
        let transcript = run.guest.read("weston-calibrate.txt")
        #expect(transcript.hasSuffix("exit 0\n"), "\(transcript)")
        let log = run.guest.read("tactile-upright.log")
        let saved = log.split(separator: "\n").filter { $0.contains("touch calibration: Tactile Skewed Touchscreen (/sys/") && $0.contains("calibrated with") }
        try #require(saved.count == 2, "tactile calibrate's save, then weston-touch-calibrator's: \(saved)")
        let ours = try #require(Self.matrix(in: String(saved[0]), after: "calibrated with "))
        let westons = try #require(Self.matrix(in: String(saved[1]), after: "calibrated with "))
        #expect(zip(ours, westons).allSatisfy { abs($0 - $1) < 0.003 }, "\(ours) by tactile calibrate, \(westons) by weston-touch-calibrator")
        print("matrices: tactile calibrate \(ours), weston-touch-calibrator \(westons)\nweston-touch-calibrator:\n\(list)\(transcript)")
    }

    @Test func withoutADeviceAmongSeveralOrWithOneUnpluggedNothingChanges() throws {
        let run = try CalibrationRun.shared.get()
        let several = run.guest.read("calibrate-several.txt")
        #expect(several.contains("several touchscreens: name one with --device") && several.contains("Tactile Other Touchscreen (/sys/"), "\(several)")
        #expect(several.hasSuffix("exit 1\n"))
        let unplugged = run.guest.read("calibrate-unplugged.txt")
        #expect(unplugged.contains("the touchscreen or its screen went during calibration; nothing was changed"), "\(unplugged)")
        #expect(unplugged.hasSuffix("exit 1\n"))
        #expect(run.guest.read("tactile-upright.log").contains("touch calibration cancelled: the touchscreen /sys/"))
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// The six numbers in `[a, b, c, d, e, f]` after the last `marker` in `text`.
    static func matrix(in text: String, after marker: String) -> [Double]? {
        guard let start = text.range(of: marker, options: .backwards) else { return nil }
        let rest = text[start.upperBound...]
        guard rest.first == "[", let end = rest.firstIndex(of: "]") else { return nil }
        let numbers = rest[rest.index(after: rest.startIndex)..<end].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 6 ? numbers : nil
    }
}

/// One boot of the guest for the suite.
struct CalibrationRun {
    let guest: Guest

    static let shared: Result<CalibrationRun, GuestRunFailure> = Result { try CalibrationRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        guest = try Guest.run(scenario: "calibrate.py", folder: "guest-calibrate", modules: ["bochs"])
    }
}
