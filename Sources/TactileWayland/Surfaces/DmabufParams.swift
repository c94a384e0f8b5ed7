import CWaylandServer
import Glibc
import TactileRender
import WaylandProtocols

/// zwp_linux_buffer_params_v1: a dmabuf's planes gathered, then checked and imported once.
/// The descriptors the client sent are closed when the params go (or once imported: the
/// import holds the memory itself).
final class DmabufParams: ResourceObject {
    private unowned let part: LinuxDmabuf
    private var planes: [UInt32: (fd: Int32, offset: UInt32, stride: UInt32, modifier: UInt64)] = [:]
    private var used = false

    init(part: LinuxDmabuf) {
        self.part = part
    }

    override func resourceDestroyed() { closePlanes() }

    private func closePlanes() {
        for plane in planes.values { close(plane.fd) }
        planes = [:]
    }

    private func add(fd: Int32, index: UInt32, offset: UInt32, stride: UInt32, modifier: UInt64) {
        let error: (UInt32, String)? =
            if used { (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED.rawValue, "these params already made a buffer") }
            else if index >= 4 { (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX.rawValue, "plane \(index): a dmabuf has planes 0 to 3") }
            else if planes[index] != nil { (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_SET.rawValue, "plane \(index) is already set") }
            else if let other = planes.values.first, other.modifier != modifier {
                (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT.rawValue, "plane \(index)'s modifier differs from the other planes'")
            } else { nil }
        if let (code, message) = error {
            close(fd)
            return postError(code, message)
        }
        planes[index] = (fd, offset, stride, modifier)
    }

    /// create (`id` nil: the buffer is announced with `created`, or `failed`) and
    /// create_immed (the client's id; a refused import is invalid_wl_buffer).
    private func create(id: UInt32?, width: Int32, height: Int32, format: UInt32, flags: UInt32) {
        guard let resource, !used else {
            return postError(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED.rawValue, "these params already made a buffer")
        }
        used = true
        defer { closePlanes() }
        if let (code, message) = problem(width: width, height: height, format: format) { return postError(code, message) }
        let modifier = planes[0]!.modifier
        let attributes = DmabufAttributes(width: width, height: height, format: format, modifier: modifier, planes: (0..<UInt32(planes.count)).map {
            DmabufAttributes.Plane(fd: planes[$0]!.fd, offset: planes[$0]!.offset, stride: planes[$0]!.stride)
        })
        // Y-inverted and interlaced buffers are drawn by no renderer here: refused as the GPU's
        // refusals are, not as a mistake.
        let image = flags == 0 ? part.renderer.importDmabuf(attributes) : nil
        guard let image else {
            part.logger.notice("a \(width)x\(height) dmabuf (format \(Self.name(format)), modifier 0x\(String(modifier, radix: 16)), flags \(flags)) was not imported")
            if id != nil { return postError(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER.rawValue, "the dmabuf could not be imported") }
            return zwp_linux_buffer_params_v1_send_failed(resource)
        }
        let buffer = DmabufBuffer(image: image)
        guard let client = wl_resource_get_client(resource),
              buffer.bind(client: client, interface: tactile_wl_buffer_interface(), version: 1, id: id ?? 0, implementation: DmabufBuffer.requests)
        else { return }
        if id == nil, let created = buffer.resource { zwp_linux_buffer_params_v1_send_created(resource, created) }
    }

    /// What the protocol forbids in these planes for a buffer of this size and format.
    private func problem(width: Int32, height: Int32, format: UInt32) -> (UInt32, String)? {
        let count = UInt32(planes.count)
        guard count > 0, (0..<count).allSatisfy({ planes[$0] != nil }), count >= Self.planeCount(format) else {
            return (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE.rawValue,
                    "planes \(planes.keys.sorted()) for format \(Self.name(format)), which takes \(Self.planeCount(format)) from plane 0 on")
        }
        guard width > 0, height > 0, width <= Image.maximumSide, height <= Image.maximumSide else {
            return (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_DIMENSIONS.rawValue, "\(width)x\(height) is not a size Tactile shows (1 to \(Image.maximumSide) a side)")
        }
        let modifier = planes[0]!.modifier
        guard part.isSupported(format: format, modifier: modifier) else {
            return (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT.rawValue,
                    "format \(Self.name(format)) with modifier 0x\(String(modifier, radix: 16)) is not one the renderer imports")
        }
        for index in 0..<count {
            let plane = planes[index]!
            // Chroma planes may be smaller; every plane's first row, and all of plane 0, must
            // lie inside its file where the file says how large it is.
            let rows = UInt64(index == 0 ? height : 1)
            let end = UInt64(plane.offset) + UInt64(plane.stride) * rows
            let size = lseek(plane.fd, 0, SEEK_END)
            guard plane.stride > 0, end <= UInt64(UInt32.max), size < 0 || end <= UInt64(size) else {
                return (ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS.rawValue,
                        "plane \(index): offset \(plane.offset) and stride \(plane.stride) reach past \(size < 0 ? "32 bits" : "its file's \(size) bytes")")
            }
        }
        return nil
    }

    /// How many planes a format needs: the YUV layouts clients send; one for the rest.
    private static func planeCount(_ format: UInt32) -> UInt32 {
        switch name(format) {
        case "NV12", "NV21", "NV16", "NV61", "NV24", "NV42", "P010", "P012", "P016", "P210": 2
        case "YU12", "YV12", "YU16", "YV16", "YU24", "YV24": 3
        default: 1
        }
    }

    /// A fourcc's four characters, as the log and errors name it.
    static func name(_ format: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: format >> ($0 * 8)) }.map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
    }

    static let requests = RequestTable(zwp_linux_buffer_params_v1_interface(
        destroy: destroyResource,
        add: { _, resource, fd, index, offset, stride, high, low in
            guard let params = DmabufParams.from(resource) else {
                close(fd)
                return
            }
            params.add(fd: fd, index: index, offset: offset, stride: stride, modifier: UInt64(high) << 32 | UInt64(low))
        },
        create: { _, resource, width, height, format, flags in
            DmabufParams.from(resource)?.create(id: nil, width: width, height: height, format: format, flags: flags)
        },
        create_immed: { _, resource, id, width, height, format, flags in
            DmabufParams.from(resource)?.create(id: id, width: width, height: height, format: format, flags: flags)
        }
    ))
}

/// A wl_buffer made from a dmabuf: the imported picture, shown by every commit of it.
final class DmabufBuffer: ResourceObject {
    let image: Image

    init(image: Image) {
        self.image = image
    }

    /// The dmabuf buffer `buffer` is, if it is one.
    static func of(_ buffer: OpaquePointer) -> DmabufBuffer? {
        from(buffer, madeFor: tactile_wl_buffer_interface(), with: requests)
    }

    static let requests = RequestTable(wl_buffer_interface(destroy: destroyResource))
}
