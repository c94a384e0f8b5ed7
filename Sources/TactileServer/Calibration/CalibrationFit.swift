import Responder

/// A touchscreen's calibration matrix worked out from taps on known targets, as libinput
/// applies it: `(x, y) ↦ (a·x + b·y + c, d·x + e·y + f)`, from the panel's normalized
/// reading to the normalized place on the output, both before the output's transform.
public struct CalibrationFit: Sendable, Equatable {
    /// The six numbers, row by row.
    public var matrix: [Double]

    public init(matrix: [Double]) { self.matrix = matrix }

    public static let identity = CalibrationFit(matrix: [1, 0, 0, 0, 1, 0])

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Fewer than three taps, or taps (or targets) on one line or one spot: no plane.
        case degenerate

        public var description: String {
            "the taps lie on one spot or one line: nothing can be worked out from them"
        }
    }

    /// The least-squares fit of `readings` onto `targets` (pairs by index): three pairs fit
    /// exactly, more are averaged, which is what a shaky finger needs.
    public static func fitting(_ readings: [Point], to targets: [Point]) throws(Failure) -> CalibrationFit {
        guard readings.count == targets.count, readings.count >= 3 else { throw .degenerate }
        // The normal equations, one 3×3 system per output row, sharing its matrix.
        var n = [[Double]](repeating: [0, 0, 0], count: 3)
        var bx = [0.0, 0, 0], by = [0.0, 0, 0]
        for (r, t) in zip(readings, targets) {
            let v = [r.x, r.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { n[i][j] += v[i] * v[j] }
                bx[i] += v[i] * t.x
                by[i] += v[i] * t.y
            }
        }
        guard let top = solve(n, bx), let bottom = solve(n, by) else { throw .degenerate }
        let fit = CalibrationFit(matrix: top + bottom)
        guard fit.matrix.allSatisfy(\.isFinite) else { throw .degenerate }
        return fit
    }

    public func applied(to p: Point) -> Point {
        Point(x: matrix[0] * p.x + matrix[1] * p.y + matrix[2], y: matrix[3] * p.x + matrix[4] * p.y + matrix[5])
    }

    /// Cramer's rule; nil when the points do not span a plane. The scale of the readings is
    /// 0...1, so a determinant this small means a line or a spot, not a small screen.
    private static func solve(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-9 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = b[row] }
            return det(replaced) / d
        }
    }
}
