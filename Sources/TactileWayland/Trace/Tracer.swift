import Glibc
import Responder

/// Where the core's explained decisions go: `--trace` lines, `tactile inspect --watch`
/// streams, and the show-touches overlay. While none of them listens the core is not asked
/// to explain (`isOn`), so routing costs what it costs without tracing.
final class Tracer {
    /// `--trace`: each line, prefixed `trace `, to standard error (or where a test wants it).
    var output: ((String) -> Void)?
    /// Inspector streams (`tactile inspect --watch`), each sent every line until it goes.
    private var watchers: [Watcher] = []
    /// Set by the composition when show-touches is on: it reads owners and claims.
    var touchMarks: TouchMarks?

    private struct Watcher { weak var report: InspectorReport? }

    var isOn: Bool { output != nil || !watchers.isEmpty || touchMarks != nil }

    /// One write per line, so lines from the log and the trace never interleave mid-line.
    static func writeToStandardError(_ line: String) {
        var text = "trace \(line)\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    func watch(_ report: InspectorReport) {
        watchers.append(Watcher(report: report))
    }

    /// Formats what a routing step decided, in order, for everyone listening.
    func publish(_ traced: [ProtocolSink.Traced], naming: @autoclosure () -> ServerNaming) {
        if let touchMarks {
            for case .core(let event) in traced { touchMarks.traced(event) }
        }
        watchers.removeAll { $0.report?.resource == nil }
        guard output != nil || !watchers.isEmpty else { return }
        let naming = naming()
        for item in traced {
            let lines = switch item {
            case .core(let event): TraceFormatter.lines(event, naming: naming)
            case .gesture(let event): TraceFormatter.line(event, naming: naming).map { [$0] } ?? []
            }
            for line in lines {
                output?(line)
                for watcher in watchers { watcher.report?.send(line) }
            }
        }
    }
}
