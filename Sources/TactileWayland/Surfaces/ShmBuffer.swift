import CSharedMemory
import CWaylandServer
import Glibc
import Responder
import TactileRender

/// A wl_buffer made from a wl_shm pool: where its pixels lie in the pool's mapping, and how.
/// The memory is the client's, which may shrink the file at any moment, so every read and
/// write of it goes between `beginAccess` and `endAccess`; the end tells the client
/// `wl_shm.invalid_fd` (on this buffer) when its file turned out shorter than it said.
final class ShmBuffer: ResourceObject {
    let size: Size
    let stride: Int
    let format: PixelFormat
    private let mapping: SharedMapping
    private let offset: Int

    init(mapping: SharedMapping, offset: Int, size: Size, stride: Int, format: PixelFormat) {
        self.mapping = mapping
        self.offset = offset
        self.size = size
        self.stride = stride
        self.format = format
    }

    /// The shm buffer `buffer` is, if it is one.
    static func of(_ buffer: OpaquePointer?) -> ShmBuffer? {
        from(buffer, madeFor: tactile_wl_buffer_interface(), with: requests)
    }

    static let requests = RequestTable(wl_buffer_interface(destroy: destroyResource))

    /// Where the pixels lie now (the pool's mapping moves when a later buffer reaches past
    /// it), readable and writable until `endAccess`.
    func beginAccess() -> UnsafeMutableRawPointer {
        mapping.beginAccess() + offset
    }

    func endAccess() {
        guard !mapping.endAccess() else { return }
        postError(WL_SHM_ERROR_INVALID_FD.rawValue, "the buffer's file is shorter than its pool said: it was read as zeros")
    }
}

/// A client's file as the server maps it, shared by its pool and the buffers made from it,
/// and unmapped with the last of them.
final class SharedMapping {
    private let mapping: UnsafeMutablePointer<tactile_shm_mapping>

    /// Maps `length` bytes of `fd` (at most a page: `grow` maps the rest as buffers reach
    /// it); nil, with errno set, when the file cannot be mapped.
    static func map(fd: Int32, length: Int) -> SharedMapping? {
        let mapping = UnsafeMutablePointer<tactile_shm_mapping>.allocate(capacity: 1)
        let error = tactile_shm_map(mapping, fd, min(length, Int(sysconf(Int32(_SC_PAGESIZE)))))
        guard error == 0 else {
            mapping.deallocate()
            errno = error
            return nil
        }
        return SharedMapping(mapping)
    }

    private init(_ mapping: UnsafeMutablePointer<tactile_shm_mapping>) {
        self.mapping = mapping
    }

    deinit {
        tactile_shm_unmap(mapping)
        mapping.deallocate()
    }

    /// Maps at least `length` bytes; false, with errno set, when the address space runs out.
    func grow(to length: Int) -> Bool {
        let error = tactile_shm_grow(mapping, length)
        guard error == 0 else {
            errno = error
            return false
        }
        return true
    }

    func beginAccess() -> UnsafeMutableRawPointer {
        tactile_shm_begin(mapping)
        return mapping.pointee.base
    }

    /// False when a read went past the end of the file.
    func endAccess() -> Bool { tactile_shm_end(mapping) }
}
