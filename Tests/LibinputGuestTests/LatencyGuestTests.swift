import Foundation
import Testing

/// Touch-to-present latency on the guest's screen, Tactile and weston 10 alternately with the
/// same client (latency.py, tactile-latency-probe). The figures are a benchmark's, written to
/// `latency-summary.txt` beside the runs and compared in docs/benchmarks.md; the test asks
/// only that each run measured what it drove: a latency for nearly every event, each one
/// positive and below a second.
@Suite struct LatencyGuestTests {
    static let run = Guest.once(scenario: "latency.py", folder: "guest-latency", modules: ["bochs"])

    /// The latencies a run's probe printed, in microseconds.
    static func latencies(_ guest: Guest, _ name: String) -> [Int] {
        guest.read("latency-\(name).txt").split(separator: "\n").compactMap { line in
            line.hasPrefix("latency_us ") ? Int(line.dropFirst("latency_us ".count)) : nil
        }
    }

    static func percentile(_ sorted: [Int], _ fraction: Double) -> Int {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    @Test(arguments: ["tactile-1", "weston-1", "tactile-2", "weston-2"])
    func everyDrivenTouchEventHasALatency(_ name: String) throws {
        let guest = try Self.run.get()
        let values = Self.latencies(guest, name)
        // 361 events driven; a few may fall after the probe was stopped.
        #expect(values.count >= 300, "\(name): \(values.count) latencies; probe: \(guest.read("probe-\(name).err"))")
        #expect(values.allSatisfy { $0 > 0 && $0 < 1_000_000 }, "\(name): each after its event, within a second")
    }

    /// p50 and p99 per compositor over its runs, for the benchmark figures.
    @Test func theSummaryIsWritten() throws {
        let guest = try Self.run.get()
        var lines: [String] = []
        for compositor in ["tactile", "weston"] {
            let all = (1...2).flatMap { Self.latencies(guest, "\(compositor)-\($0)") }.sorted()
            lines.append("\(compositor) events=\(all.count) p50_us=\(Self.percentile(all, 0.5)) p99_us=\(Self.percentile(all, 0.99))")
            #expect(!all.isEmpty, "\(compositor) measured nothing")
        }
        // What the frame scheduler chose on the DRM screen: a deadline before each vblank
        // (logged when it moves by 1 ms), or, on a display without vblanks (bochs), none.
        let logs = (1...2).map { guest.read("tactile-\($0).log") }
        let budgets = logs.flatMap { log in
            log.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: "frames composed ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        let withoutVblanks = logs.allSatisfy { $0.contains("shows frames without vblanks") }
        lines.append("tactile frame scheduling: " + (withoutVblanks ? "no vblanks, frames composed at once, frame callbacks at the refresh"
            : "repaint budgets (ms before the vblank, in order): \(budgets.map(String.init).joined(separator: " "))"))
        #expect(withoutVblanks || !budgets.isEmpty, "the frame scheduler saw the display's flips")
        try (lines.joined(separator: "\n") + "\n").write(toFile: "\(guest.directory)/latency-summary.txt", atomically: true, encoding: .utf8)
        print(lines.joined(separator: "\n"))
    }
}
