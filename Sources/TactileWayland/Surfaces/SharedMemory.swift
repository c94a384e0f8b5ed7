import CWaylandServer
import Glibc
import Responder
import TactileRender
import WaylandProtocols

/// wl_shm, version 2: buffers in files clients share with the server, every client's first
/// way to show pixels. Tactile's own rather than libwayland's, whose 1.21 offers version 1
/// and measures a stride against the width in pixels, not in bytes.
///
/// A pool maps no more of its file than its buffers reach (`ShmPool`), so a pool declared
/// huge costs the server no address space until a buffer uses it; the buffers are read in
/// place at each repaint (`ShmBuffer`), under the guard that turns a file shrunk underneath
/// into `invalid_fd` for its client (`CSharedMemory`).
final class SharedMemory: ServerPart {
    static let version: Int32 = 2
    private var global: Global?

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_wl_shm_interface(), version: Self.version, context: self, requests: Self.requests,
                        bound: { resource, _ in
            // Every format composition reads, ARGB8888 and XRGB8888 first.
            for format in PixelFormat.all { wl_shm_send_format(resource, format.shm) }
        })
    }

    private static let requests = RequestTable(tactile_wl_shm_requests(
        create_pool: { client, resource, id, fd, size in
            // The file is the server's to close, whatever comes of it.
            defer { close(fd) }
            guard let client, let resource else { return }
            guard size > 0 else {
                return tactile_post_error(resource, WL_SHM_ERROR_INVALID_STRIDE.rawValue, "a pool of \(size) bytes")
            }
            guard let mapping = SharedMapping.map(fd: fd, length: Int(size)) else {
                return tactile_post_error(resource, WL_SHM_ERROR_INVALID_FD.rawValue, "the pool's file cannot be mapped: \(String(cString: strerror(errno)))")
            }
            let pool = ShmPool(mapping: mapping, size: Int(size))
            pool.bind(client: client, interface: tactile_wl_shm_pool_interface(), version: wl_resource_get_version(resource), id: id,
                      implementation: ShmPool.requests)
        },
        release: destroyResource
    ))
}

/// A wl_shm_pool: `size` bytes of a client's file, of which the server maps only what the
/// pool's buffers reach (growing the mapping as later buffers reach further). The mapping
/// outlives the pool object while a buffer made from it lives.
final class ShmPool: ResourceObject {
    private let mapping: SharedMapping
    /// What the client declared, grown by `resize`; buffers must lie inside it.
    private var size: Int

    init(mapping: SharedMapping, size: Int) {
        self.mapping = mapping
        self.size = size
    }

    static let requests = RequestTable(wl_shm_pool_interface(
        create_buffer: { client, resource, id, offset, width, height, stride, format in
            guard let client, let pool = ShmPool.from(resource) else { return }
            pool.createBuffer(client: client, id: id, offset: Int(offset), width: Int(width), height: Int(height), stride: Int(stride), format: format)
        },
        destroy: destroyResource,
        resize: { _, resource, size in
            guard let pool = ShmPool.from(resource) else { return }
            guard Int(size) >= pool.size else {
                return pool.postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "a pool of \(pool.size) bytes cannot shrink to \(size)")
            }
            pool.size = Int(size)
        }
    ))

    /// Checks the buffer as wl_shm says (in Int, where no Int32 product overflows), maps as
    /// far as it reaches, and makes it.
    private func createBuffer(client: OpaquePointer, id: UInt32, offset: Int, width: Int, height: Int, stride: Int, format: UInt32) {
        guard let pixelFormat = PixelFormat(shm: format) else {
            return postError(WL_SHM_ERROR_INVALID_FORMAT.rawValue, "format 0x\(String(format, radix: 16)) is not one wl_shm announced")
        }
        guard offset >= 0, width > 0, height > 0 else {
            return postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "a \(width)x\(height) buffer at offset \(offset)")
        }
        guard stride >= width * pixelFormat.bytesPerPixel else {
            return postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue,
                             "a stride of \(stride) bytes is shorter than a row of \(width) pixels of \(pixelFormat.bytesPerPixel) bytes")
        }
        let end = offset + stride * height
        guard end <= size else {
            return postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "a buffer ending at byte \(end) of a pool of \(size) bytes")
        }
        guard mapping.grow(to: end) else {
            return postError(WL_SHM_ERROR_INVALID_FD.rawValue, "the pool's file cannot be mapped to \(end) bytes: \(String(cString: strerror(errno)))")
        }
        let buffer = ShmBuffer(mapping: mapping, offset: offset, size: Size(width: width, height: height), stride: stride, format: pixelFormat)
        buffer.bind(client: client, interface: tactile_wl_buffer_interface(), version: 1, id: id, implementation: ShmBuffer.requests)
    }
}
