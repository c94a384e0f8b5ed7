import Glibc
import Logging
import TactileWayland

/// A fleet's view of one kiosk (`metrics` in the configuration file): the exposition served
/// at `metrics.listen` and written to `metrics.textfile`. Made by `tactile serve` once the
/// server listens; everything runs on the server's loop.
public final class Metrics {
    private let server: WaylandServer
    private let session: SessionCommand?
    private let logger: Logger
    private let exposition = MetricsExposition()
    private var endpoint: MetricsEndpoint?
    private var textfile: (path: String, timer: EventSource)?
    /// The last textfile error logged, so a full disk is said once, not every few seconds.
    private var textfileProblem: String?
    /// What the last health answer was about, to log only when that changes.
    private var lastSubjects: [String] = []

    /// How often the textfile is written: node_exporter reads it at each scrape, and fleets
    /// scrape every 15 to 60 s.
    static let textfilePeriod: Int32 = 5000

    /// Starts what `settings` asks for. A listener that cannot be had (the port is taken) is
    /// logged as an error, and the kiosk runs on without it.
    public init(_ settings: MetricsSettings, server: WaylandServer, session: SessionCommand?, logger: Logger) {
        self.server = server
        self.session = session
        self.logger = logger
        server.startPinging()
        server.onTouchShown = { [unowned self] shown, latency in exposition.record(shown, latency) }
        if let address = settings.listen {
            do {
                let endpoint = try MetricsEndpoint(listening: address, port: server.port, logger: logger) { [unowned self] request in
                    respond(to: request)
                }
                self.endpoint = endpoint
                logger.info("metrics: serving http://\(endpoint.address)/metrics and /healthz\(address.isLoopback ? "" : " (not only loopback)")")
            } catch {
                logger.error("metrics.listen \(error): no metrics served")
            }
        }
        if let path = settings.textfile {
            let timer = server.port.makeTimer { [unowned self] in writeTextfile() }
            textfile = (path, timer)
            writeTextfile()
            logger.info("metrics: writing \(path) every \(Self.textfilePeriod / 1000) s")
        }
    }

    private func currentExposition() -> [UInt8] {
        exposition.text(server.statistics, appRestarts: session?.restarts ?? 0)
    }

    private func respond(to request: MetricsEndpoint.Request) -> MetricsEndpoint.Response {
        switch request.path {
        case "/metrics":
            MetricsEndpoint.Response(status: 200, reason: "OK", contentType: "text/plain; version=0.0.4; charset=utf-8", body: currentExposition())
        case "/healthz":
            health()
        default:
            MetricsEndpoint.plain(404, "Not Found", "not found: Tactile serves /metrics and /healthz\n")
        }
    }

    /// 200 and `ok`, or 503 and why, a line each. A change of what is wrong is logged, so the
    /// log says when a kiosk fell ill and when it recovered.
    private func health() -> MetricsEndpoint.Response {
        let problems = server.healthProblems
        let subjects = problems.map(\.subject)
        if subjects != lastSubjects {
            if problems.isEmpty { logger.notice("health: ok again") } else { logger.warning("health: \(problems.map(\.description).joined(separator: "; "))") }
            lastSubjects = subjects
        }
        guard !problems.isEmpty else { return MetricsEndpoint.plain(200, "OK", "ok\n") }
        return MetricsEndpoint.plain(503, "Service Unavailable", problems.map { $0.description + "\n" }.joined())
    }

    /// Writes the exposition beside the file and renames it over the file, so the collector
    /// reads the whole of one exposition or the whole of the last.
    private func writeTextfile() {
        guard let (path, timer) = textfile else { return }
        timer.arm(milliseconds: Self.textfilePeriod)
        let temporary = path + ".tmp"
        let bytes = currentExposition()
        let problem: String? = {
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    unlink(temporary)
                    return "cannot write \(temporary): \(reason)"
                }
                written += count
            }
            close(fd)
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                return "cannot rename \(temporary) to \(path): \(reason)"
            }
            return nil
        }()
        if problem != textfileProblem {
            if let problem { logger.error("metrics.textfile: \(problem)") } else if textfileProblem != nil { logger.info("metrics.textfile: \(path) written again") }
            textfileProblem = problem
        }
    }
}
