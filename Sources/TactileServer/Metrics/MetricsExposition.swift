import Glibc
import Prometheus
import TactileWayland

/// What a fleet's Prometheus scrapes, or node_exporter's textfile collector reads: the
/// server's statistics, the app's restarts and the process' memory, in Prometheus' text
/// format, made by swift-prometheus' registry. The server keeps its own counts; each
/// exposition brings the registry's series up to them.
final class MetricsExposition {
    private let registry = PrometheusCollectorRegistry()
    /// Each counter with the count it was last brought to: counters only go up by a step.
    private var counters: [String: (counter: Counter, exported: Int)] = [:]
    private var gauges: [String: Gauge] = [:]
    private lazy var touchToPresent: [TouchShown: DurationHistogram] = Dictionary(uniqueKeysWithValues: TouchShown.allCases.map { shown in
        (shown, registry.makeDurationHistogram(name: "tactile_touch_to_present_seconds", labels: [("shown", shown.rawValue)], buckets: Self.latencyBuckets,
                                               help: "From a touch event to the frame that shows its answer: the app's next buffer, or touch.feedback's mark."))
    })

    /// From a frame at 120 Hz to a quarter second: where a touch feels instant, and where
    /// it feels broken.
    static let latencyBuckets: [Duration] = [8, 12, 16, 20, 25, 33, 50, 67, 100, 150, 250, 500].map { .milliseconds($0) }

    /// A touch-to-present time, into the histogram of what showed it.
    func record(_ shown: TouchShown, _ latency: Duration) {
        touchToPresent[shown]?.record(latency)
    }

    /// The exposition of `statistics` and the rest, as of now.
    func text(_ statistics: ServerStatistics, appRestarts: Int) -> [UInt8] {
        for output in statistics.outputs {
            count("tactile_frames_presented_total", ["output": output.name], output.framesPresented,
                  help: "Frames shown on the output since Tactile started.")
            if let shown = output.lastPresented {
                gauge("tactile_last_present_timestamp_seconds", ["output": output.name], shown,
                      help: "When the output last showed a frame, in seconds since the Unix epoch.")
            }
        }
        count("tactile_touch_downs_total", [:], statistics.touchDowns, help: "Fingers put on a touchscreen, whoever got the touch.")
        count("tactile_touches_cancelled_total", [:], statistics.touchesCancelled,
              help: "wl_touch.cancel sent: a client's touches taken by a system gesture that won, or ended with a stuck contact.")
        for (key, filtered) in statistics.touchesFiltered {
            count("tactile_touches_filtered_total", ["device": key.device, "filter": key.filter.rawValue], filtered,
                  help: "Touches a touchscreen's filter acted on: a bounce joined, jitter held, motion smoothed, a dead-zone touch or a ghost dropped, a stuck contact ended.")
        }
        for (device, stuck) in statistics.touchesStuck {
            count("tactile_touches_stuck_total", ["device": device], stuck, help: "Contacts a touchscreen never let go of, ended after stuck-after.")
        }
        for (accommodation, touches) in statistics.touchesAccommodated {
            count("tactile_touches_accommodated_total", ["accommodation": accommodation], touches,
                  help: "Touches a touch accommodation acted on: held until it counted or dropped, a repeat dropped, a short touch made a tap or a longer one delayed.")
        }
        for (gesture, recognized) in statistics.gesturesRecognized {
            count("tactile_gestures_recognized_total", ["gesture": gesture], recognized, help: "Configured gestures recognized, by name.")
        }
        count("tactile_session_resets_total", [:], statistics.sessionResets, help: "Sessions started over after no input for session.reset-after.")
        count("tactile_screen_cleanings_total", [:], statistics.cleanings, help: "Cleaning screens started: every touch went nowhere for their time.")
        for result in ["right", "wrong", "locked"] {
            count("tactile_staff_pin_attempts_total", ["result": result], statistics.staffPinAttempts[result] ?? 0,
                  help: "PINs tried on the staff door's pad: right, wrong, or while locked out after five wrong ones.")
        }
        gauge("tactile_clients", [:], Double(statistics.clients), help: "Wayland clients connected.")
        gauge("tactile_client_unresponsive", [:], Double(statistics.unresponsiveClients),
              help: "Clients that answered no xdg_wm_base ping for 10 s.")
        gauge("tactile_outputs_asleep", [:], Double(statistics.outputs.filter(\.asleep).count),
              help: "Outputs whose panel sleeps or is turned off.")
        for kind in InputDeviceSummary.Kind.allCases {
            gauge("tactile_input_devices", ["kind": kind.rawValue], Double(statistics.inputDevices.count { $0.kind == kind }),
                  help: "Input devices present, by kind.")
        }
        count("tactile_app_restarts_total", [:], appRestarts, help: "Times the app (serve -- APP) was started again after failing.")
        if let resident = Self.residentBytes() {
            gauge("process_resident_memory_bytes", [:], Double(resident), help: "Resident memory size in bytes.")
        }
        return registry.emitToBuffer()
    }

    /// Brings the counter to `value`. A count that went back (an output unplugged and
    /// plugged in again counts its frames afresh) starts the series again from it, which
    /// Prometheus' rate() reads as a counter reset, as after a restart.
    private func count(_ name: String, _ labels: [String: String], _ value: Int, help: String) {
        let key = Self.key(name, labels)
        let make = { [registry] in (registry.makeCounter(name: name, labels: labels.sorted { $0.key < $1.key }, help: help), 0) }
        var entry = counters[key] ?? make()
        if value < entry.exported {
            registry.unregisterCounter(entry.counter)
            entry = make()
        }
        if value > entry.exported { entry.counter.increment(by: Int64(value - entry.exported)) }
        counters[key] = (entry.counter, value)
    }

    private func gauge(_ name: String, _ labels: [String: String], _ value: Double, help: String) {
        let key = Self.key(name, labels)
        let gauge = gauges[key] ?? registry.makeGauge(name: name, labels: labels.sorted { $0.key < $1.key }, help: help)
        gauges[key] = gauge
        gauge.set(value)
    }

    private static func key(_ name: String, _ labels: [String: String]) -> String {
        labels.sorted { $0.key < $1.key }.reduce(name) { $0 + "\u{0}" + $1.key + "\u{0}" + $1.value }
    }

    /// From /proc/self/statm, whose second field is the resident pages.
    static func residentBytes() -> Int? {
        guard case .success(let statm) = TextFile.read("/proc/self/statm") else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
