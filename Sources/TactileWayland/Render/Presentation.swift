import CWaylandServer
import Glibc
import Responder
import WaylandProtocols

/// wp_presentation: a client learns when a commit of its reached the screen: the time of
/// the vblank that showed it (CLOCK_MONOTONIC, the clock of every time Tactile keeps), the
/// output's refresh, the display's frame counter and how precise they are. A commit's
/// feedback waits for the next frame composed on an output the surface is on, and is
/// `presented` when that frame is shown (`Outputs.presented`); content replaced before any
/// frame took it, or a surface that went, is `discarded`.
final class Presentation: ServerPart {
    static let version: Int32 = 1
    private var global: Global?

    init(display: OpaquePointer, outputs: Outputs) {
        global = Global(display: display, interface: tactile_wp_presentation_interface(), version: Self.version, context: outputs,
                        requests: Self.requests, bound: { resource, _ in
            wp_presentation_send_clock_id(resource, UInt32(CLOCK_MONOTONIC))
        })
    }

    private static let requests = RequestTable(wp_presentation_interface(
        destroy: destroyResource,
        feedback: { client, resource, surfaceResource, id in
            guard let client, let outputs = Global.context(of: resource, as: Outputs.self), let surface = Surface.from(surfaceResource) else { return }
            let feedback = PresentationFeedback(surface: surface)
            guard feedback.bind(client: client, interface: tactile_wp_presentation_feedback_interface(), version: 1, id: id, implementation: nil) else { return }
            let pending = surface.addon(PendingPresentation.self) ?? {
                let addon = PendingPresentation(outputs: outputs)
                surface.attachAddon(addon)
                return addon
            }()
            pending.feedback.append(feedback)
        }
    ))
}

/// The feedback a surface's client asked for since its last commit; applied with the
/// commit, it waits in `Outputs.presentationFeedback` for a frame.
final class PendingPresentation: SurfaceAddon {
    private unowned let outputs: Outputs
    fileprivate var feedback: [PresentationFeedback] = []

    init(outputs: Outputs) { self.outputs = outputs }

    /// The commit applied: what waited for the surface's previous content is discarded (it
    /// will never be shown), and this commit's feedback waits for a frame.
    func applied(_ surface: Surface) {
        discardWaiting(for: surface)
        outputs.presentationFeedback += feedback
        feedback.removeAll()
    }

    func surfaceDestroyed(_ surface: Surface) {
        discardWaiting(for: surface)
        for each in feedback { each.discard() }
        feedback.removeAll()
    }

    private func discardWaiting(for surface: Surface) {
        let replaced = outputs.presentationFeedback.filter { $0.surface === surface || $0.surface == nil }
        outputs.presentationFeedback.removeAll { $0.surface === surface || $0.surface == nil }
        for each in replaced { each.discard() }
    }
}

/// wp_presentation_feedback: one commit's answer, sent once.
final class PresentationFeedback: ResourceObject {
    private(set) weak var surface: Surface?

    init(surface: Surface) { self.surface = surface }

    /// Shown on `output` with the frame `frame`: sync_output for each of the client's
    /// wl_output objects of it, then presented.
    func presented(on output: Output, _ frame: PresentedFrame) {
        guard let resource, let client = wl_resource_get_client(resource) else { return }
        for wlOutput in output.resources(of: client) { wp_presentation_feedback_send_sync_output(resource, wlOutput) }
        let microseconds = frame.time.microseconds
        let seconds = microseconds / 1_000_000
        let refresh = output.placed.description.refresh
        let refreshNanoseconds = refresh > 0 ? UInt32(clamping: 1_000_000_000_000 / Int64(refresh)) : 0
        wp_presentation_feedback_send_presented(resource, UInt32(truncatingIfNeeded: seconds >> 32), UInt32(truncatingIfNeeded: seconds),
                                                UInt32((microseconds % 1_000_000) * 1000), refreshNanoseconds,
                                                UInt32(truncatingIfNeeded: frame.sequence >> 32), UInt32(truncatingIfNeeded: frame.sequence), frame.flags.rawValue)
        wl_resource_destroy(resource)
    }

    func discard() {
        guard let resource else { return }
        wp_presentation_feedback_send_discarded(resource)
        wl_resource_destroy(resource)
    }
}
