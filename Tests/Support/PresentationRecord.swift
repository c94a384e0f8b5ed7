import CWaylandClient
import WaylandProtocols

/// What one wp_presentation_feedback said: the outputs it synced to, then presented (with
/// its time in nanoseconds, refresh, sequence and flags) or discarded.
final class PresentationRecord {
    var syncOutputs: [OpaquePointer] = []
    var presented: (nanoseconds: UInt64, refresh: UInt32, sequence: UInt64, flags: UInt32)?
    var discarded = false
    var answered: Bool { presented != nil || discarded }

    /// Asks for `surface`'s next commit's feedback.
    init(_ client: TestClient, surface: OpaquePointer) {
        let feedback = wp_presentation_feedback(client.presentation, surface)
        wp_presentation_feedback_add_listener(feedback, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func of(_ data: UnsafeMutableRawPointer?) -> PresentationRecord {
        Unmanaged<PresentationRecord>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<wp_presentation_feedback_listener> = {
        let l = UnsafeMutablePointer<wp_presentation_feedback_listener>.allocate(capacity: 1)
        l.initialize(to: wp_presentation_feedback_listener(
            sync_output: { data, _, output in PresentationRecord.of(data).syncOutputs.append(output!) },
            presented: { data, feedback, secHi, secLo, nsec, refresh, seqHi, seqLo, flags in
                let seconds = UInt64(secHi) << 32 | UInt64(secLo)
                PresentationRecord.of(data).presented = (seconds * 1_000_000_000 + UInt64(nsec), refresh, UInt64(seqHi) << 32 | UInt64(seqLo), flags)
                wp_presentation_feedback_destroy(feedback)
            },
            discarded: { data, feedback in
                PresentationRecord.of(data).discarded = true
                wp_presentation_feedback_destroy(feedback)
            }
        ))
        return l
    }()
}
