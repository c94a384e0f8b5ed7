import CWaylandServer
import Responder
import WaylandProtocols

/// tactile_inspector_report_v1: one answer, as trace-format lines.
final class InspectorReport: ResourceObject {
    /// Lines longer than this are cut: libwayland refuses a message over 4 KiB, and a line
    /// is built from client-chosen labels that are already bounded (`printableLabel`).
    private static let maximumLine = 2000

    /// A report at the version of the inspector it was asked on (`question`).
    static func make(_ client: OpaquePointer?, _ question: OpaquePointer?, _ id: UInt32) -> InspectorReport? {
        guard let client, let question else { return nil }
        let report = InspectorReport()
        guard report.bind(client: client, interface: tactile_tactile_inspector_report_v1_interface(), version: wl_resource_get_version(question), id: id,
                          implementation: requests) else { return nil }
        return report
    }

    func send(_ line: String) {
        guard let resource else { return }
        tactile_inspector_report_v1_send_line(resource, String(line.utf8.prefix(Self.maximumLine)) ?? "")
    }

    func finish() {
        guard let resource else { return }
        tactile_inspector_report_v1_send_done(resource)
    }

    static let requests = RequestTable(tactile_inspector_report_v1_interface(destroy: destroyResource))
}

/// tactile_inspector_v1 (`--inspect`, `--test-input`): the scene, the health answer, the hit
/// test explained at a point, and the trace as it happens, for `tactile inspect`; the input as it comes, for
/// `tactile record`. It reads the server only through
/// `Inspectable`.
final class Inspector: ServerPart {
    private unowned(unsafe) let subject: any Inspectable
    private var global: Global?

    init(display: OpaquePointer, subject: any Inspectable) {
        self.subject = subject
        global = Global(display: display, interface: tactile_tactile_inspector_v1_interface(), version: 3, context: self, requests: Self.requests,
                        privilege: .inspector)
    }

    private static let requests = RequestTable(tactile_inspector_v1_interface(
        destroy: destroyResource,
        describe_scene: { client, resource, id in
            guard let part = Global.context(of: resource, as: Inspector.self), let report = InspectorReport.make(client, resource, id) else { return }
            for line in part.subject.sceneDescription() { report.send(line) }
            report.finish()
        },
        explain_point: { client, resource, id, x, y in
            guard let part = Global.context(of: resource, as: Inspector.self), let report = InspectorReport.make(client, resource, id) else { return }
            let point = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            for line in part.subject.explain(point) { report.send(line) }
            report.finish()
        },
        watch: { client, resource, id in
            guard let part = Global.context(of: resource, as: Inspector.self), let report = InspectorReport.make(client, resource, id) else { return }
            part.subject.watch(report)
        },
        record: { client, resource, id in
            guard let part = Global.context(of: resource, as: Inspector.self), let report = InspectorReport.make(client, resource, id) else { return }
            part.subject.record(report)
        },
        describe_health: { client, resource, id in
            guard let part = Global.context(of: resource, as: Inspector.self), let report = InspectorReport.make(client, resource, id) else { return }
            for line in part.subject.healthDescription() { report.send(line) }
            report.finish()
        }
    ))
}

/// What the inspector reads: the scene described line by line, the health answer, a point's
/// hit test explained, the trace, which a report may watch, and the input, which a report may
/// record.
protocol Inspectable: AnyObject {
    func sceneDescription() -> [String]
    /// `ok`, or a line per `HealthProblem`; pings start with the first question.
    func healthDescription() -> [String]
    func explain(_ point: Point) -> [String]
    func watch(_ report: InspectorReport)
    func record(_ report: InspectorReport)
}

extension Region {

    var inspected: String {
        if self == .infinite { return "all" }
        if isEmpty { return "none" }
        let rects = self.rects
        let shown = rects.prefix(8).map { "\($0.x),\($0.y),\($0.width)x\($0.height)" }.joined(separator: ";")
        return rects.count > 8 ? "\(shown);+\(rects.count - 8)-more" : shown
    }
}
