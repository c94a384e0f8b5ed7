import CWaylandServer
import Glibc
import Logging
import TactileRender
import WaylandProtocols

/// zwp_linux_dmabuf_v1, version 4: clients' GPU buffers (a browser's, a video player's) as
/// wl_buffers the renderer samples where they lie, never copied. Offered only where the
/// renderer imports dmabufs (`Renderer.dmabuf`: GLES on a device EGL names), with the formats
/// and modifiers EGL's import queries list, as a format table and one tranche on that device
/// (default and per-surface feedback alike), or as format and modifier events to older clients.
///
/// Every parameter is checked as the protocol says before the import (planes, offsets,
/// strides, sizes against the file, the format and modifier): a mistake is its protocol error;
/// a buffer the GPU then refuses is `failed` (or, for create_immed, invalid_wl_buffer).
final class LinuxDmabuf: ServerPart {
    static let version: Int32 = 4
    private var global: Global?
    let renderer: any Renderer
    let support: DmabufSupport
    /// The formats and modifiers as the table v4 clients map: 16 bytes each, read-only.
    private let table: (fd: Int32, size: Int)
    let logger: Logger

    /// Nil where the renderer imports no dmabufs, or the table cannot be made.
    init?(display: OpaquePointer, renderer: any Renderer, logger: Logger) {
        guard let support = renderer.dmabuf, !support.formats.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for entry in support.formats.prefix(Int(UInt16.max)) {
            withUnsafeBytes(of: entry.format.littleEndian) { bytes += $0 }
            bytes += [0, 0, 0, 0]
            withUnsafeBytes(of: entry.modifier.littleEndian) { bytes += $0 }
        }
        let fd = tactile_memfd_create("tactile-dmabuf-formats")
        guard fd >= 0, write(fd, bytes, bytes.count) == bytes.count, tactile_memfd_seal_readonly(fd) == 0 else {
            if fd >= 0 { close(fd) }
            logger.error("linux-dmabuf not offered: its format table could not be made (\(String(cString: strerror(errno))))")
            return nil
        }
        self.renderer = renderer
        self.support = support
        self.logger = logger
        table = (fd, bytes.count)
        global = Global(display: display, interface: tactile_zwp_linux_dmabuf_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, bound: { [unowned self] resource, _ in announceFormats(to: resource) })
        let formats = Set(support.formats.map(\.format)).count
        let (major, minor) = (support.device >> 8 & 0xfff | support.device >> 32 & 0xffff_f000, support.device & 0xff | support.device >> 12 & 0xffff_ff00)
        logger.info("linux-dmabuf v4: \(support.formats.count) formats and modifiers (\(formats) formats) on device \(major):\(minor)")
    }

    deinit { close(table.fd) }

    /// Versions 1 to 3 hear the formats (and from 3 the modifiers) as events at bind; 4 asks
    /// for feedback instead.
    private func announceFormats(to resource: OpaquePointer) {
        let version = wl_resource_get_version(resource)
        guard version < 4 else { return }
        var announced = Set<UInt32>()
        for entry in support.formats {
            if version >= 3 {
                zwp_linux_dmabuf_v1_send_modifier(resource, entry.format, UInt32(truncatingIfNeeded: entry.modifier >> 32), UInt32(truncatingIfNeeded: entry.modifier))
            } else if entry.modifier == DmabufFormat.implicitModifier || entry.modifier == DmabufFormat.linear, announced.insert(entry.format).inserted {
                zwp_linux_dmabuf_v1_send_format(resource, entry.format)
            }
        }
    }

    func isSupported(format: UInt32, modifier: UInt64) -> Bool {
        support.formats.contains(DmabufFormat(format: format, modifier: modifier))
    }

    /// The whole of v4's feedback: the table, the device, one tranche of every entry.
    func sendFeedback(to resource: OpaquePointer) {
        zwp_linux_dmabuf_feedback_v1_send_format_table(resource, table.fd, UInt32(table.size))
        withArray([support.device]) { zwp_linux_dmabuf_feedback_v1_send_main_device(resource, $0) }
        withArray([support.device]) { zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(resource, $0) }
        withArray((0..<min(support.formats.count, Int(UInt16.max) + 1)).map { UInt16($0) }) {
            zwp_linux_dmabuf_feedback_v1_send_tranche_formats(resource, $0)
        }
        zwp_linux_dmabuf_feedback_v1_send_tranche_flags(resource, 0)
        zwp_linux_dmabuf_feedback_v1_send_tranche_done(resource)
        zwp_linux_dmabuf_feedback_v1_send_done(resource)
    }

    private static let requests = RequestTable(zwp_linux_dmabuf_v1_interface(
        destroy: destroyResource,
        create_params: { client, resource, id in
            guard let client, let part = Global.context(of: resource, as: LinuxDmabuf.self) else { return }
            DmabufParams(part: part).bind(client: client, interface: tactile_zwp_linux_buffer_params_v1_interface(),
                                          version: wl_resource_get_version(resource), id: id, implementation: DmabufParams.requests)
        },
        get_default_feedback: { client, resource, id in
            guard let client, let part = Global.context(of: resource, as: LinuxDmabuf.self) else { return }
            part.makeFeedback(client: client, version: wl_resource_get_version(resource), id: id)
        },
        get_surface_feedback: { client, resource, id, _ in
            // One device and no scanout tranche yet: a surface's feedback is the default.
            guard let client, let part = Global.context(of: resource, as: LinuxDmabuf.self) else { return }
            part.makeFeedback(client: client, version: wl_resource_get_version(resource), id: id)
        }
    ))

    private func makeFeedback(client: OpaquePointer, version: Int32, id: UInt32) {
        let feedback = DmabufFeedback()
        guard feedback.bind(client: client, interface: tactile_zwp_linux_dmabuf_feedback_v1_interface(), version: version, id: id,
                            implementation: DmabufFeedback.requests), let resource = feedback.resource
        else { return }
        sendFeedback(to: resource)
    }
}

/// A zwp_linux_dmabuf_feedback_v1: everything is sent when it is made.
final class DmabufFeedback: ResourceObject {
    static let requests = RequestTable(zwp_linux_dmabuf_feedback_v1_interface(destroy: destroyResource))
}
