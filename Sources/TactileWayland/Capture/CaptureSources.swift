import CWaylandServer
import WaylandProtocols

/// What a capture session copies: an output, or one window (named by its
/// ext_foreign_toplevel_handle_v1). Either may go while sessions on it live; they then stop.
struct CaptureTarget {
    weak var output: Output?
    weak var window: ListedWindow?
    /// Whether it named a window (so a window gone is not mistaken for a lost output).
    let isWindow: Bool
    /// The pointer's cursor over the output or window, not its pixels (a cursor session's).
    var isCursor = false

    static func output(_ output: Output?) -> CaptureTarget { CaptureTarget(output: output, window: nil, isWindow: false) }
    static func window(_ window: ListedWindow?) -> CaptureTarget { CaptureTarget(output: nil, window: window, isWindow: true) }

    /// The same source's cursor.
    var cursor: CaptureTarget {
        var target = self
        target.isCursor = true
        return target
    }

    var isGone: Bool { isWindow ? window?.windowSurface?.node == nil : output == nil }
}

/// ext_image_capture_source_v1: a target, as a client holds it.
final class CaptureSource: ResourceObject {
    let target: CaptureTarget

    init(target: CaptureTarget) { self.target = target }

    static let requests = RequestTable(ext_image_capture_source_v1_interface(destroy: destroyResource))
}

/// ext_output_image_capture_source_manager_v1 and
/// ext_foreign_toplevel_image_capture_source_manager_v1: sources of outputs and of windows, for
/// ext_image_copy_capture. Privileged as screencopy is (screen capture).
final class CaptureSources: ServerPart {
    static let version: Int32 = 1
    private let outputs: Outputs
    private var globals: [Global] = []

    init(display: OpaquePointer, outputs: Outputs) {
        self.outputs = outputs
        globals = [
            Global(display: display, interface: tactile_ext_output_image_capture_source_manager_v1_interface(), version: Self.version,
                   context: self, requests: Self.outputRequests, privilege: .screenCapture),
            Global(display: display, interface: tactile_ext_foreign_toplevel_image_capture_source_manager_v1_interface(), version: Self.version,
                   context: self, requests: Self.windowRequests, privilege: .screenCapture),
        ]
    }

    private static func make(_ client: OpaquePointer?, _ manager: OpaquePointer?, _ id: UInt32, _ target: CaptureTarget) {
        guard let client, let manager else { return }
        CaptureSource(target: target).bind(client: client, interface: tactile_ext_image_capture_source_v1_interface(),
                                           version: wl_resource_get_version(manager), id: id, implementation: CaptureSource.requests)
    }

    private static let outputRequests = RequestTable(ext_output_image_capture_source_manager_v1_interface(
        create_source: { client, manager, id, outputResource in
            guard let part = Global.context(of: manager, as: CaptureSources.self) else { return }
            // An output that went (its wl_output inert) makes a source whose sessions stop at once.
            let output = Global.context(of: outputResource, as: Output.self).flatMap { candidate in part.outputs.live.first { $0 === candidate } }
            make(client, manager, id, .output(output))
        },
        destroy: destroyResource
    ))

    private static let windowRequests = RequestTable(ext_foreign_toplevel_image_capture_source_manager_v1_interface(
        create_source: { client, manager, id, handle in
            make(client, manager, id, .window(ExtToplevelHandle.from(handle)?.window))
        },
        destroy: destroyResource
    ))
}
