import CDRM
import CLibinput // libudev, for hotplug
import Glibc
import Logging
import Responder
import TactileWayland

/// Tactile on the machine's own screens (KMS): every connected connector of every DRM card
/// becomes an output (one plugged in later too, through udev), on its preferred mode or the
/// one the server asks for (`OutputPresenter.setMode`); composed frames are shown by page
/// flips of GBM buffers the renderer draws into (else dumb buffers), and a full-screen
/// client's dmabuf by a flip to it as it is, paced by the vblank. The cards are opened
/// through the seat session, shared with the libinput backend; a VT switch away leaves the
/// screens to the other VT, and coming back sets the modes again with the newest frames.
///
/// ```
/// host ──present(OutputFrame)──▶ DRMOutput ──damage into the back ScanoutBuffer (or the
///                                            client's ClientFramebuffer), page flip──▶ kernel
/// card fd (page-flip event) ──▶ DRMCard ──▶ DRMOutput.flipped ──▶ host.outputPresented
/// ```
public final class DRMBackend {
    private let host: any BackendHost
    private let logger: Logger
    private var cards: [DRMCard] = []
    private var hotplug: Hotplug?

    /// Opens the cards at `paths` (every /dev/dri/card* when empty) and announces their
    /// outputs; throws when none has a connected screen.
    public init(host: any BackendHost, session: Session, paths: [String] = [], logger: Logger) throws(DRMError) {
        self.host = host
        self.logger = logger
        for path in paths.isEmpty ? Self.cardPaths() : paths {
            do {
                cards.append(try DRMCard(path: path, session: session, host: host, logger: logger))
            } catch {
                logger.warning("\(error)")
            }
        }
        rescan()
        guard cards.contains(where: { !$0.outputs.isEmpty }) else { throw .noOutputs }
        // Weak: the session may outlive the backend.
        session.observe { [weak self] active in
            guard let self else { return }
            logger.info(active ? "seat enabled: setting the modes again" : "seat disabled (VT switch?): the screens go to the other VT")
            for output in cards.flatMap(\.outputs) { output.sessionChanged(active: active) }
            // Screens may have come or gone while another VT had them.
            if active { rescan() }
        }
        hotplug = Self.watchHotplug(host: host) { [unowned self] in
            if session.isActive { rescan() }
        }
    }

    /// Lights the screens that came and lets go of those that went, telling the server.
    private func rescan() {
        for card in cards {
            let (added, removed) = card.scan()
            for output in removed {
                logger.info("\(output.description.name): unplugged")
                if let id = output.id { host.removeOutput(id) }
            }
            for output in added {
                output.id = host.addOutput(output.description, presenter: output)
                let d = output.description
                logger.info("\(d.name): \(d.pixelSize.width)x\(d.pixelSize.height)@\(output.mode.vrefresh) on \(card.path), \(d.make) \(d.model)")
            }
        }
    }

    /// Calls `changed` for each udev event of the drm subsystem (a connector plugged in or
    /// out, forced on or off); nil when udev cannot be reached, and screens are then fixed.
    private static func watchHotplug(host: any BackendHost, _ changed: @escaping () -> Void) -> Hotplug? {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        guard udev_monitor_enable_receiving(monitor) == 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        let watch = host.watch(fileDescriptor: udev_monitor_get_fd(monitor)) {
            var any = false
            while let device = udev_monitor_receive_device(monitor) {
                any = true
                udev_device_unref(device)
            }
            if any { changed() }
        }
        return Hotplug(udev: udev, monitor: monitor, watch: watch)
    }

    /// The udev monitor and its watch on the server's loop.
    private final class Hotplug {
        let udev: OpaquePointer
        let monitor: OpaquePointer
        var watch: EventSource?

        init(udev: OpaquePointer, monitor: OpaquePointer, watch: EventSource) {
            (self.udev, self.monitor, self.watch) = (udev, monitor, watch)
        }

        deinit {
            watch = nil
            udev_monitor_unref(monitor)
            udev_unref(udev)
        }
    }

    /// The DRM cards present, in order (card0 first).
    private static func cardPaths() -> [String] {
        let names = directoryEntries("/dev/dri")
        return names.filter { $0.hasPrefix("card") }.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }.map { "/dev/dri/\($0)" }
    }

    /// Puts the console's modes back and closes the cards.
    public func stop() {
        hotplug = nil
        for card in cards { card.close() }
        cards = []
    }

    deinit { stop() }
}

/// The names in `directory` (none if it cannot be read), without Foundation, which
/// TactileBackends does not link.
func directoryEntries(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
