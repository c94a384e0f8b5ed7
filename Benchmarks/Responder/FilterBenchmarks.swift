import Benchmark
import BenchmarkScenes
import Responder

/// The touch filters: what a motion costs through a touchscreen's filters on its way to the
/// router (time and mallocs per event, beside "route touch motion (flat-100)" without them),
/// and what the 1€ filter trades, printed by its setup: the lag it adds to a 1,000 px/s stroke
/// (in ms, which at that speed is its lag in px) against the jitter it leaves of a still
/// finger's ±3 px noise (px). Those figures are arithmetic on the stage the server runs, the
/// same on every machine.
func filterBenchmarks() {
    Benchmark(
        "route touch motion through filters: jitter, 1€, debounce, stuck (flat-100)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, setup: { printSmoothingFigures() })
    ) { benchmark in
        let (router, sink) = routerOverFlat100()
        var output = Routing(router: router, sink: sink)
        var filters = TouchFilters()
        let panel = InputDeviceID(1)
        filters.setFilters(TouchFilterSettings(debounce: .milliseconds(50), jitter: 4, smoothing: OneEuroSettings(), stuckAfter: .seconds(30)), for: panel)
        filters.filter(.touchDown(id: 1, global: Point(x: 100, y: 100), time: .zero), from: panel, into: &output)
        filters.filter(.touchFrame, from: panel, into: &output)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let x = 110 + Double(i % 500)
            filters.filter(.touchMotion(id: 1, global: Point(x: x, y: 100), time: .milliseconds(UInt64(i + 1))), from: panel, into: &output)
            filters.filter(.touchFrame, from: panel, into: &output)
        }
        benchmark.stopMeasurement()
        precondition(output.sink.count > 0, "no motion reached the router")
        blackHole(output.sink.count)
    }
}

/// What comes out of the filters, routed at once, as the server and libtactile do.
private struct Routing: TouchFilterOutput {
    var router: InputRouter
    var sink: CountingSink
    mutating func pass(_ event: InputEvent) { router.handle(event, sink: &sink) }
    mutating func report(_ report: TouchFilterReport) {}
}

/// The 1€ filter's lag on a stroke and the jitter it leaves at rest, for a few betas at 60
/// and 120 Hz, one line each.
func printSmoothingFigures() {
    print("smoothing: 1€ filter, min-cutoff \(OneEuroSettings.defaultMinimumCutoff) Hz; a still finger with ±3 px of noise"
          + " (raw: \(format(rest(OneEuroSettings(), hz: 60, smoothed: false).rms)) px RMS), a 1,000 px/s stroke of 300 ms")
    for beta in [0.007, 0.01, OneEuroSettings.defaultBeta, 0.05] {
        for hz in [60.0, 120.0] {
            let settings = OneEuroSettings(beta: beta)
            let still = rest(settings, hz: hz, smoothed: true)
            let lag = strokeLag(settings, hz: hz)
            print("  beta \(beta)\(beta == OneEuroSettings.defaultBeta ? " (default)" : ""), \(Int(hz)) Hz: lag \(format(lag)) ms;"
                  + " jitter left \(format(still.rms)) px RMS, \(format(still.peak)) px at most")
        }
    }
}

private func format(_ v: Double) -> String { String(Double(Int((v * 100).rounded())) / 100) }

/// One touch's motions through a device with `smoothing`, as (raw, smoothed) x pairs.
private func smoothed(_ settings: OneEuroSettings?, hz: Double, samples: Int, x: (Int) -> Double) -> [(Double, Double)] {
    var filters = TouchFilters()
    let panel = InputDeviceID(1)
    filters.setFilters(TouchFilterSettings(smoothing: settings), for: panel)
    var output = RecordingFilterOutput()
    let step = UInt64(1_000_000 / hz)
    filters.filter(.touchDown(id: 0, global: Point(x: x(0), y: 0), time: .zero), from: panel, into: &output)
    var pairs: [(Double, Double)] = []
    for k in 1...samples {
        output.events.removeAll()
        filters.filter(.touchMotion(id: 0, global: Point(x: x(k), y: 0), time: Instant(microseconds: UInt64(k) * step)), from: panel, into: &output)
        if case .touchMotion(_, let p, _)? = output.events.first { pairs.append((x(k), p.x)) }
    }
    return pairs
}

/// A finger at x = 500 for two seconds with uniform noise of -3...3 px: how far the output
/// strays from 500 after the first half second (RMS and at most).
private func rest(_ settings: OneEuroSettings, hz: Double, smoothed smoothing: Bool) -> (rms: Double, peak: Double) {
    var random = SplitMix64(state: 61)
    let noise = (0...Int(2 * hz)).map { _ in Double(random.draw(7) - 3) }
    let settled = smoothed(smoothing ? settings : nil, hz: hz, samples: noise.count - 1) { 500 + noise[$0] }.dropFirst(Int(hz / 2))
    let errors = settled.map { abs($0.1 - 500) }
    return ((errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot(), errors.max() ?? 0)
}

/// How far behind the finger the output is at the end of 300 ms at 1,000 px/s, in px (= ms).
private func strokeLag(_ settings: OneEuroSettings, hz: Double) -> Double {
    let samples = Int(0.3 * hz)
    let last = smoothed(settings, hz: hz, samples: samples) { 100 + Double($0) * 1000 / hz }.last!
    return last.0 - last.1
}
