import CWaylandServer
import Responder
import TactileRender
import WaylandProtocols

/// zwlr_screencopy_manager_v1 (version 3): screenshots and recordings of an output, copied
/// from the output's composed frame into a client's shm buffer, with or without the cursor.
/// Frames wait for the next repaint of their output: a plain copy takes the frame as it is
/// then, a copy with damage waits for a repaint that changed something and reports what.
final class Screencopy: ServerPart, FrameReader {
    static let version: Int32 = 3
    /// Frames whose client sent copy, waiting for their output's repaint.
    private var waiting: [ScreencopyFrame] = []
    /// What changed on each output since each client's last copy with damage there; a client
    /// without an entry has seen nothing yet, so everything is new to it.
    private var unseen: [DamageKey: [Rect]] = [:]

    struct DamageKey: Hashable {
        let client: ClientID
        let output: ObjectIdentifier
    }

    private let outputs: Outputs
    /// Asks for a repaint, which fulfils the frames waiting (composition follows it).
    private let repaint: Signal<Void>
    private var global: Global?

    init(display: OpaquePointer, outputs: Outputs, repaint: Signal<Void>) {
        self.outputs = outputs
        self.repaint = repaint
        global = Global(display: display, interface: tactile_zwlr_screencopy_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .screenCapture)
    }

    func wait(_ frame: ScreencopyFrame) {
        waiting.append(frame)
        repaint.send()
    }

    /// `output` was repainted (`damage` in canvas pixels, empty when nothing changed): the
    /// frames waiting for it are copied, except copies with damage while nothing changed.
    func repainted(_ output: Output, canvas: any Canvas, damage: [Rect], cursor: DrawItem?, time: Instant) {
        for key in unseen.keys where key.output == ObjectIdentifier(output) {
            unseen[key]! += damage
            // Past a few dozen rectangles, the whole output says it as well.
            if unseen[key]!.count > 32 { unseen[key] = [Rect(size: canvas.size)] }
        }
        guard !waiting.isEmpty else { return }
        waiting.removeAll { $0.resource == nil }
        var due: [(ScreencopyFrame, [Rect])] = []
        waiting.removeAll { frame in
            guard frame.output === output else { return false }
            guard frame.withDamage else {
                due.append((frame, []))
                return true
            }
            let key = DamageKey(client: frame.owner, output: ObjectIdentifier(output))
            let changed = unseen[key] ?? [Rect(size: canvas.size)]
            guard !changed.isEmpty else { return false }
            unseen[key] = []
            due.append((frame, changed))
            return true
        }
        for (frame, changed) in due { frame.fulfil(canvas: canvas, damage: changed, cursor: cursor, time: time) }
    }

    /// A client went: what it had not seen is forgotten.
    func clientDisconnected(_ client: ClientID) {
        unseen = unseen.filter { $0.key.client != client }
    }

    /// The output went: its waiting frames fail.
    func outputWithdrawn(_ output: Output) {
        unseen = unseen.filter { $0.key.output != ObjectIdentifier(output) }
        let lost = waiting.filter { $0.output === output }
        waiting.removeAll { $0.output === output }
        for frame in lost { frame.fail() }
    }
}

extension Screencopy {
    fileprivate static let requests = RequestTable(zwlr_screencopy_manager_v1_interface(
        capture_output: { client, resource, id, cursor, output in
            Global.context(of: resource, as: Screencopy.self)?.capture(client: client, manager: resource, id: id, cursor: cursor, output: output, region: nil)
        },
        capture_output_region: { client, resource, id, cursor, output, x, y, width, height in
            let region = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
            Global.context(of: resource, as: Screencopy.self)?.capture(client: client, manager: resource, id: id, cursor: cursor, output: output, region: region)
        },
        destroy: destroyResource
    ))

    /// A new frame of `output` (a logical `region` of it, or all of it), described to the
    /// client at once; it fails at once for an output that is gone or a region outside it.
    private func capture(client: OpaquePointer?, manager: OpaquePointer?, id: UInt32, cursor: Int32, output resource: OpaquePointer?, region: Rect?) {
        guard let client, let manager else { return }
        let output = Global.context(of: resource, as: Output.self)
        let live = output.flatMap { candidate in outputs.live.first { $0 === candidate } }
        let pixels = live.flatMap { output in output.canvasRect(of: (region ?? Rect(size: output.placed.rect.size)).offset(by: output.placed.rect.origin)) }
        guard let owner = ClientState.of(client) else { return }
        let frame = ScreencopyFrame(screencopy: self, owner: owner.id, output: live, rect: pixels ?? .empty, overlaysCursor: cursor != 0)
        guard frame.bind(client: client, interface: tactile_zwlr_screencopy_frame_v1_interface(), version: wl_resource_get_version(manager),
                         id: id, implementation: ScreencopyFrame.requests) else { return }
        frame.describe()
    }
}

extension Rect {
    var origin: Position { Position(x: x, y: y) }
    var size: Size { Size(width: width, height: height) }
}
