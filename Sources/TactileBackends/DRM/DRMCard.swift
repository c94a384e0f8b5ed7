import CDRM
import Glibc
import Logging
import Responder
import TactileWayland

/// One DRM device (/dev/dri/cardN), opened through the session: its connected connectors
/// become outputs, each with a CRTC of its own, and its fd brings their page-flip events.
final class DRMCard {
    let path: String
    let fd: Int32
    let session: Session
    let host: any BackendHost
    let logger: Logger
    private(set) var outputs: [DRMOutput] = []
    /// GBM on the card, where the renderer draws into GPU buffers (`scanoutBuffers`).
    let gbm: GBMDevice?
    /// The driver flips between vertical blanks when asked (DRM_CAP_ASYNC_PAGE_FLIP): torn
    /// frames for a full-screen client that asks for them (`OutputFrame.torn`).
    let flipsAsync: Bool
    private var watch: EventSource?
    /// Answers for modesets, which have no event: fired at the next turn of the loop.
    private var later: EventSource?
    private var answerLater: [DRMOutput] = []

    /// Opens `path`; `scan` then lights its screens. Throws when the device cannot be opened
    /// or is no KMS device.
    init(path: String, session: Session, host: any BackendHost, logger: Logger) throws(DRMError) {
        self.path = path
        self.session = session
        self.host = host
        self.logger = logger
        let fd = session.open(path, flags: O_RDWR)
        guard fd >= 0 else { throw .cannotOpen(path, String(cString: strerror(-fd))) }
        self.fd = fd
        guard let resources = drmModeGetResources(fd) else {
            session.close(fd)
            throw .notKMS(path)
        }
        drmModeFreeResources(resources)
        gbm = host.renderer.dmabuf != nil ? GBMDevice(fd: fd) : nil
        var async: UInt64 = 0
        flipsAsync = drmGetCap(fd, UInt64(DRM_CAP_ASYNC_PAGE_FLIP), &async) == 0 && async == 1
        watch = host.watch(fileDescriptor: fd) { [unowned self] in dispatch() }
        later = host.makeTimer { [unowned self] in
            let outputs = answerLater
            answerLater = []
            // A modeset has no event: the time is a guess, not the hardware's.
            for output in outputs { output.answer(PresentedFrame(time: host.currentTime)) }
        }
    }

    /// Lights every connected connector not lit yet, on its preferred mode (the server then
    /// asks for the one its settings name), and lets go of lit ones that were unplugged (at start-up, and at
    /// each udev hotplug event). Returns what changed; the backend tells the server.
    func scan() -> (added: [DRMOutput], removed: [DRMOutput]) {
        guard let resources = drmModeGetResources(fd) else { return ([], []) }
        defer { drmModeFreeResources(resources) }
        let crtcs = Array(UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.count_crtcs)))
        var connected: Set<UInt32> = []
        var added: [DRMOutput] = []
        for connectorID in UnsafeBufferPointer(start: resources.pointee.connectors, count: Int(resources.pointee.count_connectors)) {
            guard let connector = drmModeGetConnector(fd, connectorID) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            connected.insert(connectorID)
            guard !outputs.contains(where: { $0.connector == connectorID }), let output = light(c, crtcs: crtcs) else { continue }
            outputs.append(output)
            added.append(output)
        }
        let removed = outputs.filter { !connected.contains($0.connector) }
        outputs.removeAll { !connected.contains($0.connector) }
        for output in removed { output.turnOff() }
        return (added, removed)
    }

    /// An output for the connected connector `c`, unless no CRTC or memory is left for it.
    private func light(_ c: drmModeConnector, crtcs: [UInt32]) -> DRMOutput? {
        let name = Self.name(c)
        let edid = Self.edid(of: c.connector_id, fd: fd)
        guard let crtc = Self.crtc(for: c, fd: fd, crtcs: crtcs, used: Set(outputs.map(\.crtc))) else {
            logger.warning("\(path): no free CRTC for \(name); it stays dark")
            return nil
        }
        let modes = Array(UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)))
        let mode = modes.first { $0.type & tactile_drm_mode_type_preferred != 0 } ?? modes[0]
        var description = OutputDescription(
            name: name, description: "\(name) (\(path))", make: edid?.make ?? "Unknown", model: edid?.model ?? "Unknown",
            pixelSize: Size(width: Int(mode.hdisplay), height: Int(mode.vdisplay)), refresh: Int32(mode.vrefresh) * 1000,
            physicalSize: Size(width: Int(c.mmWidth), height: Int(c.mmHeight)))
        var offered: [OutputMode] = []
        for m in modes {
            let mode = OutputMode(size: Size(width: Int(m.hdisplay), height: Int(m.vdisplay)), refresh: Int32(m.vrefresh) * 1000,
                                  preferred: m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
            if !offered.contains(where: { $0.size == mode.size && $0.refresh == mode.refresh }) { offered.append(mode) }
        }
        description.modes = offered
        description.serial = edid?.serial ?? ""
        guard let output = DRMOutput(card: self, connector: c.connector_id, crtc: crtc, mode: mode, modes: modes, description: description) else {
            logger.error("\(name): no framebuffer of \(mode.hdisplay)x\(mode.vdisplay): \(String(cString: strerror(errno)))")
            return nil
        }
        return output
    }

    /// `Virtual-1`, `HDMI-A-2`: the connector type's name and its number, as the kernel and
    /// other compositors name it.
    private static func name(_ connector: drmModeConnector) -> String {
        let type = drmModeGetConnectorTypeName(connector.connector_type).map { String(cString: $0) } ?? "Unknown"
        return "\(type)-\(connector.connector_type_id)"
    }

    /// The connector's EDID, when the screen gave a readable one.
    private static func edid(of connector: UInt32, fd: Int32) -> EDID? {
        guard let property = property("EDID", of: connector, fd: fd), let blob = drmModeGetPropertyBlob(fd, UInt32(truncatingIfNeeded: property.value))
        else { return nil }
        defer { drmModeFreePropertyBlob(blob) }
        guard let data = blob.pointee.data else { return nil }
        return EDID(Array(UnsafeRawBufferPointer(start: data, count: Int(blob.pointee.length))))
    }

    /// The connector's property `name` (`EDID`, `DPMS`): its id and current value.
    static func property(_ name: String, of connector: UInt32, fd: Int32) -> (id: UInt32, value: UInt64)? {
        guard let properties = drmModeObjectGetProperties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return nil }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let found = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if found == name { return (property.pointee.prop_id, properties.pointee.prop_values[index]) }
        }
        return nil
    }

    /// A CRTC that can drive the connector (through one of its encoders) and is not taken.
    private static func crtc(for connector: drmModeConnector, fd: Int32, crtcs: [UInt32], used: Set<UInt32>) -> UInt32? {
        for encoderID in UnsafeBufferPointer(start: connector.encoders, count: Int(connector.count_encoders)) {
            guard let encoder = drmModeGetEncoder(fd, encoderID) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for (index, crtc) in crtcs.enumerated() where encoder.pointee.possible_crtcs & (1 << index) != 0 && !used.contains(crtc) {
                return crtc
            }
        }
        return nil
    }

    /// Answers `output`'s frame at the next turn of the loop (a modeset has no event).
    func presentLater(_ output: DRMOutput) {
        answerLater.append(output)
        later?.arm(milliseconds: 1)
    }

    /// The card whose events `drmHandleEvent` is reading (its C handler has no context but the
    /// flip's user data). The server's loop is single-threaded.
    nonisolated(unsafe) private static var dispatching: DRMCard?

    /// Page-flip events: each names the output (its user data) whose flip completed.
    private func dispatch() {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, sequence, seconds, microseconds, data in
            guard let data, let card = DRMCard.dispatching else { return }
            // The output may have been unplugged since it asked: only a live one is reached.
            guard let output = card.outputs.first(where: { Unmanaged.passUnretained($0).toOpaque() == data }) else { return }
            // A driver without vblanks (bochs, simpledrm) completes a flip when it is made and
            // counts nothing: the time is when the event was sent, not a vblank's.
            let flags: PresentedFrame.Flags = sequence == 0 ? [.hardwareCompletion] : [.vsync, .hardwareClock, .hardwareCompletion]
            output.flipped(PresentedFrame(time: Instant(microseconds: UInt64(seconds) * 1_000_000 + UInt64(microseconds)), sequence: UInt64(sequence),
                                          flags: flags))
        }
        DRMCard.dispatching = self
        defer { DRMCard.dispatching = nil }
        if drmHandleEvent(fd, &context) != 0 { logger.error("\(path): reading DRM events failed: \(String(cString: strerror(errno)))") }
    }

    /// Leaves the screens as Tactile found them, then closes the device.
    func close() {
        for output in outputs { output.restore() }
        outputs = []
        watch = nil
        later = nil
        session.close(fd)
    }
}

public enum DRMError: Error, CustomStringConvertible {
    case cannotOpen(String, String)
    case notKMS(String)
    case noOutputs

    public var description: String {
        switch self {
        case .cannotOpen(let path, let why): "cannot open \(path): \(why)"
        case .notKMS(let path): "\(path) is no KMS device (no mode-setting resources)"
        case .noOutputs: "no DRM card has a connected screen (is a KMS driver loaded? /dev/dri/card*)"
        }
    }
}
