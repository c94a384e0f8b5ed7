import Glibc
import Responder

/// The taps of one calibration, target by target: each tap is judged as it comes (too far
/// from its cross, or where an earlier tap landed, and it is refused and asked again), the
/// matrix is fitted on the first targets, and the last target checks it before all taps
/// are fitted together.
public struct CalibrationSession: Sendable {
    /// A cross: where it is drawn (surface pixels) and where that is in touch coordinates
    /// (fractions of the output before its transform, as the compositor converts it).
    public struct Target: Sendable, Equatable {
        public var surface: Point
        public var touch: Point

        public init(surface: Point, touch: Point) {
            self.surface = surface
            self.touch = touch
        }
    }

    public enum Verdict: Sendable, Equatable {
        case accepted
        /// Asked again, for this reason.
        case refused(String)
        case finished(Outcome)
    }

    public struct Outcome: Sendable, Equatable {
        public var fit: CalibrationFit
        /// How far the check tap landed from its cross under the fit of the others, in pixels.
        public var checkError: Double
        /// How far each tap lands from its cross under the final fit, in pixels.
        public var residuals: [Double]
    }

    /// The crosses, in order; the last is the check.
    public let targets: [Target]
    public private(set) var readings: [Point] = []
    /// Touch coordinates to surface pixels (exact: the output's transform is affine).
    private let toSurface: CalibrationFit
    /// A tap this far from its cross (in pixels) is refused: before any fit, and after one.
    public let roughLimit: Double, fineLimit: Double

    /// The five crosses `tactile calibrate` shows on a `width`×`height` surface: near the
    /// four corners (a tenth in from each edge), then the centre as the check.
    public static func crosses(width: Int, height: Int) -> [(x: Int, y: Int)] {
        let (left, right, top, bottom) = (width / 10, width - 1 - width / 10, height / 10, height - 1 - height / 10)
        return [(left, top), (right, top), (right, bottom), (left, bottom), (width / 2, height / 2)]
    }

    public init(targets: [Target]) throws(CalibrationFit.Failure) {
        guard targets.count >= 4 else { throw .degenerate }
        self.targets = targets
        toSurface = try CalibrationFit.fitting(targets.map(\.touch), to: targets.map(\.surface))
        let xs = targets.map(\.surface.x), ys = targets.map(\.surface.y)
        let span = min(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        roughLimit = span / 3
        fineLimit = max(span / 25, 8)
    }

    /// The cross the next tap is for.
    public var current: Int { readings.count }
    public var isCheck: Bool { current == targets.count - 1 }

    /// A tap's first reading (the touchscreen's, uncalibrated) for the current cross.
    public mutating func offer(_ reading: Point) -> Verdict {
        guard current < targets.count, reading.x.isFinite, reading.y.isFinite else { return .refused("no cross is waiting for a tap") }
        let target = targets[current]
        if let earlier = readings.firstIndex(where: { hypot($0.x - reading.x, $0.y - reading.y) < 0.02 }) {
            return .refused("it landed where the tap on cross \(earlier + 1) did")
        }
        let fitted = readings.count >= 3 ? try? CalibrationFit.fitting(readings, to: Array(targets.prefix(readings.count)).map(\.touch)) : nil
        let distance = self.distance(from: (fitted ?? .identity).applied(to: reading), to: target)
        let limit = fitted == nil ? roughLimit : fineLimit
        guard distance <= limit else {
            return .refused("it landed \(Int(distance.rounded())) px from the cross (at most \(Int(limit)) px is taken)")
        }
        readings.append(reading)
        guard current == targets.count else { return .accepted }
        do {
            let fit = try CalibrationFit.fitting(readings, to: targets.map(\.touch))
            return .finished(Outcome(fit: fit, checkError: distance, residuals: zip(readings, targets).map { self.distance(from: fit.applied(to: $0), to: $1) }))
        } catch {
            readings.removeLast()
            return .refused(error.description)
        }
    }

    /// In surface pixels, between a point in touch coordinates and a cross.
    private func distance(from touch: Point, to target: Target) -> Double {
        let p = toSurface.applied(to: touch)
        return hypot(p.x - target.surface.x, p.y - target.surface.y)
    }
}
