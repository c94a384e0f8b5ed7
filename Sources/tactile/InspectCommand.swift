import ArgumentParser
import CWaylandClient
import Foundation
import WaylandProtocols

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Ask a running `tactile serve --inspect` (or --test-input) how it routes input.",
        discussion: """
        Without options: the outputs and the scene, topmost first, a node per line (surface, \
        role, app_id, title, pid, place, size, input region). With --at X,Y: the hit test a touch \
        there would run, every surface looked at with its verdict, and who would own the touch. \
        With --watch: every routing decision as it happens, in the format of `serve --trace`, \
        until interrupted.
        """
    )

    @Option(help: "The compositor's socket (default: $WAYLAND_DISPLAY).")
    var socket: String?

    @Option(help: "Explain the hit test at this global point, X,Y.")
    var at: String?

    @Flag(help: "Stream the routing trace live.")
    var watch = false

    func validate() throws {
        if at != nil, watch { throw ValidationError("--at and --watch are separate questions; ask one") }
        if let at, Self.point(at) == nil { throw ValidationError("--at \(at): expected X,Y, e.g. 320,200") }
    }

    static func point(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    func run() throws {
        let connection = try InspectorConnection(socket: socket)
        if let at, let (x, y) = Self.point(at) {
            try connection.ask { tactile_inspector_v1_explain_point($0, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
        } else if watch {
            try connection.ask { tactile_inspector_v1_watch($0) }
        } else {
            try connection.ask { tactile_inspector_v1_describe_scene($0) }
        }
    }
}

/// A connection to the compositor's tactile_inspector_v1; each question's lines go to
/// standard output as they arrive.
final class InspectorConnection {
    private let connection: GlobalConnection
    fileprivate var done = false

    init(socket: String?) throws {
        connection = try GlobalConnection(socket: socket, interface: tactile_tactile_inspector_v1_interface(),
                                          missing: "start it with `tactile serve --inspect`")
    }

    /// Sends a question (`make` creates the report) and prints its lines until it is done;
    /// a watch is never done, and ends with the connection.
    func ask(_ make: (OpaquePointer?) -> OpaquePointer?) throws {
        guard let report = make(connection.global) else { throw GlobalConnection.Failure(description: "out of memory") }
        tactile_inspector_report_v1_add_listener(report, inspectorReportListener, Unmanaged.passUnretained(self).toOpaque())
        while !done {
            guard wl_display_dispatch(connection.display) >= 0 else {
                throw GlobalConnection.Failure(description: "the compositor went away (error \(wl_display_get_error(connection.display)))")
            }
        }
    }
}

nonisolated(unsafe) private let inspectorReportListener: UnsafeMutablePointer<tactile_inspector_report_v1_listener> = {
    let listener = UnsafeMutablePointer<tactile_inspector_report_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: tactile_inspector_report_v1_listener(
        line: { _, _, text in
            guard let text else { return }
            // Unbuffered, so a watch piped into grep shows each line as it happens.
            var line = String(cString: text) + "\n"
            line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
        },
        done: { data, _ in
            Unmanaged<InspectorConnection>.fromOpaque(data!).takeUnretainedValue().done = true
        }
    ))
    return listener
}()
