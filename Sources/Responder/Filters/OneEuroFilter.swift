/// The 1€ filter on one axis (Casiez, Roussel and Vogel, "1€ Filter: A Simple Speed-based
/// Low-pass Filter for Noisy Input in Interactive Systems", CHI 2012): an exponential
/// smoothing whose cutoff frequency rises with the smoothed speed, so jitter at rest is
/// smoothed away while a fast stroke keeps up. Android's input resampling uses the same.
struct OneEuroFilter {
    let settings: OneEuroSettings
    /// The last filtered value, and the filtered speed (units per second).
    private(set) var value: Double
    private var speed = 0.0

    /// Starts at `value`, at rest.
    init(_ settings: OneEuroSettings, at value: Double) {
        self.settings = settings
        self.value = value
    }

    /// Takes the next raw value, `seconds` after the last one; returns the filtered value.
    mutating func filter(_ raw: Double, after seconds: Double) -> Double {
        let rawSpeed = (raw - value) / seconds
        speed += Self.alpha(cutoff: settings.derivativeCutoff, seconds) * (rawSpeed - speed)
        let cutoff = settings.minimumCutoff + settings.beta * abs(speed)
        value += Self.alpha(cutoff: cutoff, seconds) * (raw - value)
        return value
    }

    /// The smoothing factor of a first-order low-pass filter with this cutoff (Hz), for a
    /// sample `seconds` after the last: r / (1 + r), r = 2π·cutoff·seconds.
    static func alpha(cutoff: Double, _ seconds: Double) -> Double {
        let r = 2 * Double.pi * cutoff * seconds
        return r / (1 + r)
    }
}

/// `smoothing: one-euro`: every motion of a touch goes through a 1€ filter per axis, started
/// afresh at its down. The down and the up are not moved: a tap lands where it landed.
struct Smoothing: TouchStage {
    let settings: OneEuroSettings
    /// Samples closer than this (the same frame, a replay's equal times) are taken as this
    /// far apart, so the speed stays finite.
    static let shortestInterval = 0.001

    private var touches: [(id: Int32, x: OneEuroFilter, y: OneEuroFilter, time: Instant, noted: Bool)] = []

    init(settings: OneEuroSettings) {
        self.settings = settings
        touches.reserveCapacity(8)
    }

    mutating func process(_ event: InputEvent, _ notes: inout TouchStageNotes) -> StageResult {
        switch event {
        case .touchDown(let id, let global, let time):
            touches.removeAll { $0.id == id }
            touches.append((id, OneEuroFilter(settings, at: global.x), OneEuroFilter(settings, at: global.y), time, false))
        case .touchMotion(let id, let global, let time):
            guard let k = touches.firstIndex(where: { $0.id == id }) else { break }
            let seconds = max(Self.shortestInterval, Double(time.since(touches[k].time).microseconds) / 1e6)
            touches[k].time = max(time, touches[k].time)
            let smoothed = Point(x: touches[k].x.filter(global.x, after: seconds), y: touches[k].y.filter(global.y, after: seconds))
            if !touches[k].noted {
                touches[k].noted = true
                notes.note(id, .smoothed, at: global, time: time)
            }
            return .pass(.touchMotion(id: id, global: smoothed, time: time))
        case .touchUp(let id, _), .touchCancel(let id, _):
            if let k = touches.firstIndex(where: { $0.id == id }) { touches.remove(at: k) }
        default:
            break
        }
        return .pass(event)
    }
}
