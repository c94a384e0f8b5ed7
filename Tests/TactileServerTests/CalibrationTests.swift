import Responder
import Testing
@testable import TactileServer

/// The arithmetic and bookkeeping of `tactile calibrate`: the fit, the judging of taps, and
/// the entries written into a configuration file. The guest (CalibrationGuestTests) runs it
/// against a real touchscreen.
@Suite struct CalibrationTests {
    /// A panel glued askew: the reading at panel fraction p is skew(p).
    static let skew = CalibrationFit(matrix: [0.92, 0.05, 0.03, -0.04, 0.87, 0.07])
    /// Its inverse, worked out by hand: what calibration must find.
    static let inverse = [1.084247, -0.062313, -0.028166, 0.049850, 1.146560, -0.081757]

    static func targets(width: Int = 1280, height: Int = 800) -> [CalibrationSession.Target] {
        CalibrationSession.crosses(width: width, height: height).map {
            CalibrationSession.Target(surface: Point(x: Double($0.x), y: Double($0.y)),
                                      touch: Point(x: Double($0.x) / Double(width), y: Double($0.y) / Double(height)))
        }
    }

    @Test func threeExactTapsGiveTheInverseOfTheSkew() throws {
        let targets = [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.2), Point(x: 0.3, y: 0.8)]
        let fit = try CalibrationFit.fitting(targets.map(Self.skew.applied), to: targets)
        #expect(zip(fit.matrix, Self.inverse).allSatisfy { abs($0 - $1) < 1e-5 }, "\(fit.matrix)")
    }

    @Test func tapsOnOneLineOrOneSpotAreDegenerate() {
        let line = [Point(x: 0.1, y: 0.1), Point(x: 0.5, y: 0.5), Point(x: 0.9, y: 0.9), Point(x: 0.3, y: 0.3)]
        #expect(throws: CalibrationFit.Failure.degenerate) { try CalibrationFit.fitting(line, to: Self.targets().prefix(4).map(\.touch)) }
        let spot = Array(repeating: Point(x: 0.4, y: 0.4), count: 4)
        #expect(throws: CalibrationFit.Failure.degenerate) { try CalibrationFit.fitting(spot, to: Self.targets().prefix(4).map(\.touch)) }
        #expect(throws: CalibrationFit.Failure.degenerate) { try CalibrationFit.fitting([Point(x: 0, y: 0)], to: [Point(x: 0, y: 0)]) }
    }

    @Test func aSessionOfFiveGoodTapsFinishesWithTheInverseAndNoResidual() throws {
        var session = try CalibrationSession(targets: Self.targets())
        var outcome: CalibrationSession.Outcome?
        for target in session.targets {
            switch session.offer(Self.skew.applied(to: target.touch)) {
            case .accepted: continue
            case .finished(let result): outcome = result
            case .refused(let reason): Issue.record("refused: \(reason)")
            }
        }
        let result = try #require(outcome)
        #expect(zip(result.fit.matrix, Self.inverse).allSatisfy { abs($0 - $1) < 1e-5 }, "\(result.fit.matrix)")
        #expect(result.checkError < 0.01 && result.residuals.allSatisfy { $0 < 0.01 })
    }

    @Test func aShakyFingerIsAveragedAndItsResidualReported() throws {
        var session = try CalibrationSession(targets: Self.targets())
        // Each tap 1.5 px off its cross, in a different direction (1.5 px is 0.0012 of 1280).
        let shakes = [(1.5, 0.0), (0.0, 1.5), (-1.5, 0.0), (0.0, -1.5), (1.0, 1.0)]
        var outcome: CalibrationSession.Outcome?
        for (target, shake) in zip(session.targets, shakes) {
            let off = Point(x: target.touch.x + shake.0 / 1280, y: target.touch.y + shake.1 / 800)
            if case .finished(let result) = session.offer(Self.skew.applied(to: off)) { outcome = result }
        }
        let result = try #require(outcome)
        #expect(result.residuals.count == 5)
        #expect(result.residuals.allSatisfy { $0 > 0.1 && $0 < 2 }, "\(result.residuals)")
    }

    @Test func aFarTapAndARepeatedTapAreRefusedAndTheCrossAskedAgain() throws {
        var session = try CalibrationSession(targets: Self.targets())
        let first = Self.skew.applied(to: session.targets[0].touch)
        #expect(session.offer(first) == .accepted)
        #expect(session.offer(first) == .refused("it landed where the tap on cross 1 did"))
        // The second cross is top right; a tap at the bottom left is hundreds of pixels off.
        guard case .refused(let reason) = session.offer(Self.skew.applied(to: Point(x: 0.1, y: 0.9))) else {
            Issue.record("a far tap was taken")
            return
        }
        #expect(reason.hasPrefix("it landed ") && reason.hasSuffix(" px from the cross (at most 213 px is taken)"), "\(reason)")
        #expect(session.current == 1, "still the second cross")
        #expect(session.offer(Point(x: .nan, y: 0.5)) == .refused("no cross is waiting for a tap"))
        // Once three taps fit, the limit tightens: 40 px off the fourth cross is refused.
        #expect(session.offer(Self.skew.applied(to: session.targets[1].touch)) == .accepted)
        #expect(session.offer(Self.skew.applied(to: session.targets[2].touch)) == .accepted)
        let fourth = session.targets[3].touch
        guard case .refused = session.offer(Self.skew.applied(to: Point(x: fourth.x + 40.0 / 1280, y: fourth.y))) else {
            Issue.record("a tap 40 px off was taken after the fit")
            return
        }
    }

    @Test func theEntryIsWrittenIntoAFileWithTheRestKept() throws {
        let matrix: [Float] = [1.0843233, -0.0622932, -0.0281693, 0.0498816, 1.1467056, -0.0818869]
        let entry = DeviceEntry.calibration(device: "Acme \"Glass\" Panel", matrix: matrix)
        #expect(entry.value == "[1.084323, -0.062293, -0.028169, 0.049882, 1.146706, -0.081887]")
        let check: (String) throws -> Bool = { text in
            let read = try ConfigurationFile.parse(text, file: "test.yaml").devices.last { $0.match == entry.device }?.calibration
            return read.map { zip($0, matrix).allSatisfy { abs($0 - $1) < 1e-5 } } ?? false
        }
        // No devices section: one is added at the end.
        let plain = "# kiosk\nidle:\n  timeout: 600\n"
        #expect(try entry.written(into: plain, check: check) == plain + "\n" + entry.section)
        // An entry for another device: a new entry after it, the comment kept.
        let other = "devices:\n  # the mouse\n  - match: Mouse\n    accel-speed: 0.5\nidle:\n  timeout: 600\n"
        #expect(try entry.written(into: other, check: check) ==
            "devices:\n  # the mouse\n  - match: Mouse\n    accel-speed: 0.5\n  - match: \"Acme \\\"Glass\\\" Panel\"\n    calibration: \(entry.value)\nidle:\n  timeout: 600\n")
        // The device's own entry: its calibration replaced, or added after its match.
        let own = "devices:\n  - match: 'Acme \"Glass\" Panel'\n    calibration: [1, 0, 0, 0, 1, 0]  # by hand\n    output: HDMI-A-1\n"
        #expect(try entry.written(into: own, check: check) ==
            "devices:\n  - match: 'Acme \"Glass\" Panel'\n    calibration: \(entry.value)\n    output: HDMI-A-1\n")
        let withoutCalibration = "devices:\n  - output: DP-1\n    match: \"Acme \\\"Glass\\\" Panel\"\n"
        #expect(try entry.written(into: withoutCalibration, check: check) ==
            "devices:\n  - output: DP-1\n    match: \"Acme \\\"Glass\\\" Panel\"\n    calibration: \(entry.value)\n")
        #expect(try entry.written(into: "", check: check) == entry.section)
    }

    /// `--map`'s entries: one item per device with its output, and written the same way.
    @Test func anOutputEntryJoinsItsDevicesOtherSettings() throws {
        let output = DeviceEntry.output(device: "Panel", output: "HDMI-A-2")
        let calibration = DeviceEntry.calibration(device: "Panel", matrix: [1, 0, 0, 0, 1, 0])
        #expect(DeviceEntry.section([output, calibration, .output(device: "Pen", output: "DP-1")]) ==
            "devices:\n  - match: \"Panel\"\n    output: \"HDMI-A-2\"\n    calibration: [1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000]\n  - match: \"Pen\"\n    output: \"DP-1\"\n")
        let file = "devices:\n  - match: Panel\n    calibration: [2, 0, 0, 0, 2, 0]\n"
        let written = try output.written(into: file) { text in
            try ConfigurationFile.parse(text, file: "test.yaml").devices.last { $0.match == "Panel" }?.output == "HDMI-A-2"
        }
        #expect(written == "devices:\n  - match: Panel\n    output: \"HDMI-A-2\"\n    calibration: [2, 0, 0, 0, 2, 0]\n")
    }

    @Test func aFileItCannotEditSafelyIsLeftAlone() {
        let entry = DeviceEntry.calibration(device: "Panel", matrix: [1, 0, 0, 0, 1, 0])
        let check: (String) throws -> Bool = { text in
            try ConfigurationFile.parse(text, file: "test.yaml").devices.last { $0.match == entry.device }?.calibration == [1, 0, 0, 0, 1, 0]
        }
        #expect(throws: DeviceEntry.Failure.self) { try entry.written(into: "devices: []\n", check: check) }
        // A later catch-all entry would override it: refused rather than written in vain.
        let overridden = "devices:\n  - match: Panel\n    calibration: [2, 0, 0, 0, 2, 0]\n  - match: Panel\n    calibration: [3, 0, 0, 0, 3, 0]\n"
        #expect(throws: DeviceEntry.Failure.self) { try entry.written(into: overridden, check: check) }
        // A file that is not valid to begin with is not made worse.
        #expect(throws: (any Error).self) { try entry.written(into: "devices:\n  - match: Panel\n    colour: blue\n", check: check) }
    }
}
