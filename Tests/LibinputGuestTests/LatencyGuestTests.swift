import Foundation
import Testing

/// Touch-to-present latency on the guest's screens, Tactile and weston 10 alternately with the
/// same client drawing on frame callbacks (latency.py, tactile-latency-probe): judged on vkms,
/// which paces like a panel, with bochs-drm and virtio-gpu beside it for reference, measured on the
/// build a kiosk runs: the release build (`TACTILE_LATENCY_BUILD` names another, such as the
/// package's), never the debug one beside this bundle. The figures are a benchmark's, written
/// by the guest to `latency-summary.md` beside the runs and compared in docs/benchmarks.md; the
/// tests ask only that each run measured what it drove (a latency for nearly every event,
/// each positive and below a second, and frames that carried them), that the summary says
/// which build it measured, and that with `touch.feedback: ripple` (a last Tactile run)
/// frames showed the finger's mark.
@Suite struct LatencyGuestTests {
    static let run = Guest.once(scenario: "latency.py", folder: "guest-latency", modules: ["vkms", "bochs", "virtio_gpu"],
                                 qemuArguments: "-device virtio-gpu-pci,id=virtio", tactile: { try build() })

    /// The tactile executable measured: `TACTILE_LATENCY_BUILD`, else the release build.
    static func build() throws -> String {
        let path = ProcessInfo.processInfo.environment["TACTILE_LATENCY_BUILD"]
            ?? Guest.package.appendingPathComponent(".build/release/tactile").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw GuestRunFailure(reason: "the latency benchmark measures the release build, and there is none at \(path): "
                + "run `swift build -c release` first, or name a tactile executable in TACTILE_LATENCY_BUILD")
        }
        return path
    }

    /// The latencies a run's probe printed, in microseconds, and how many frames carried them.
    static func measured(_ guest: Guest, _ name: String) -> (latencies: [Int], frames: Int) {
        let lines = guest.read("latency-\(name).txt").split(separator: "\n")
        let latencies = lines.compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            return fields.count == 4 && fields[0] == "latency_us" ? Int(fields[1]) : nil
        }
        return (latencies, lines.count { $0.hasPrefix("frame_us ") })
    }

    @Test(arguments: ["tactile-1", "weston-1", "tactile-2", "weston-2", "tactile-ripple-1",
                      "bochs-tactile-1", "bochs-weston-1", "virtio-gpu-tactile-1", "virtio-gpu-weston-1"])
    func everyDrivenTouchEventHasALatency(_ name: String) throws {
        let guest = try Self.run.get()
        let (values, frames) = Self.measured(guest, name)
        // 361 events driven; a few may fall after the probe was stopped.
        #expect(values.count >= 300, "\(name): \(values.count) latencies; probe: \(guest.read("probe-\(name).err"))")
        #expect(values.allSatisfy { $0 > 0 && $0 < 1_000_000 }, "\(name): each after its event, within a second")
        #expect(frames > 0 && frames <= values.count, "\(name): \(frames) frames carried the events")
    }

    /// The guest's summary names the build it measured and has, per display, a row per
    /// compositor and their ratios.
    @Test func theSummaryIsWritten() throws {
        let guest = try Self.run.get()
        let summary = guest.read("latency-summary.md")
        print(summary)
        let build = summary.split(separator: "\n").first ?? ""
        #expect(build.hasPrefix("tactile build: release") || build.hasPrefix("tactile build: package"), "\(build)")
        #expect(summary.contains("tactile frame clock: "), "what the frame clock chose")
        #expect(!summary.contains("(ms before the vblank, in order): \n"), "the frame clock saw the display's flips")
        #expect(summary.contains("(touch.feedback: ripple): ") && !summary.contains("(touch.feedback: ripple): none logged"),
                "frames that showed the ripple's mark")
        for display in ["vkms (60 Hz", "\nbochs (reference", "\nvirtio-gpu (reference"] {
            #expect(summary.contains(display), "a table for \(display): \(summary)")
        }
        #expect(summary.components(separatedBy: "\n| tactile | ").count == 4, "a Tactile row per display: \(summary)")
        #expect(summary.components(separatedBy: "\n| weston | ").count == 4, "a weston row per display: \(summary)")
        #expect(summary.contains("\n| tactile-ripple | "), "the ripple's row: \(summary)")
        #expect(summary.components(separatedBy: "\ntactile/weston: p50 ").count == 4, "the ratios per display: \(summary)")
    }
}
