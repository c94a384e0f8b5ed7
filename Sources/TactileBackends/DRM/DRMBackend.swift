import CDRM
import Glibc
import Logging
import Responder
import TactileWayland

/// Tactile on the machine's own screens (KMS): every connected connector of every DRM card
/// becomes an output on its preferred mode, composed frames shown by page flips into dumb
/// buffers, paced by the vblank. The cards are opened through the seat session, shared with
/// the libinput backend; a VT switch away leaves the screens to the other VT, and coming
/// back sets the modes again with the newest frames.
///
/// ```
/// host ──present(OutputFrame)──▶ DRMOutput ──damage into the back DumbBuffer, page flip──▶ kernel
/// card fd (page-flip event) ──▶ DRMCard ──▶ DRMOutput.flipped ──▶ host.outputPresented
/// ```
public final class DRMBackend {
    private let host: any BackendHost
    private let logger: Logger
    private var cards: [DRMCard] = []

    /// Opens the cards at `paths` (every /dev/dri/card* when empty) and announces their
    /// outputs, as `settings` ask; throws when none has a connected screen.
    public init(host: any BackendHost, session: Session, paths: [String] = [], outputs settings: [OutputSettings] = [], logger: Logger) throws(DRMError) {
        self.host = host
        self.logger = logger
        for path in paths.isEmpty ? Self.cardPaths() : paths {
            do {
                let card = try DRMCard(path: path, session: session, settings: settings, host: host, logger: logger)
                if card.outputs.isEmpty {
                    logger.info("\(path): no connected screen")
                    card.close()
                    continue
                }
                cards.append(card)
            } catch {
                logger.warning("\(error)")
            }
        }
        let outputs = cards.flatMap(\.outputs)
        guard !outputs.isEmpty else { throw .noOutputs }
        for output in outputs {
            output.id = host.addOutput(output.description, presenter: output)
            let d = output.description
            logger.info("\(d.name): \(d.pixelSize.width)x\(d.pixelSize.height)@\(output.mode.vrefresh) on \(output.card.path), \(d.make) \(d.model)")
        }
        // Weak: the session may outlive the backend.
        session.observe { [weak self] active in
            guard let self else { return }
            logger.info(active ? "seat enabled: setting the modes again" : "seat disabled (VT switch?): the screens go to the other VT")
            for output in cards.flatMap(\.outputs) { output.sessionChanged(active: active) }
        }
    }

    /// The DRM cards present, in order (card0 first).
    private static func cardPaths() -> [String] {
        let names = (try? FileManagerless.contents(of: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }.map { "/dev/dri/\($0)" }
    }

    /// Puts the console's modes back and closes the cards.
    public func stop() {
        for card in cards { card.close() }
        cards = []
    }

    deinit { stop() }
}

/// Directory listing without Foundation (TactileBackends does not link it).
enum FileManagerless {
    static func contents(of directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
