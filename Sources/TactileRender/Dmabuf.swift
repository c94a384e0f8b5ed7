import Glibc

/// A client's GPU buffer as zwp_linux_dmabuf_v1 describes it: up to four planes of one DRM
/// format with one modifier, each a file descriptor, an offset and a stride. The descriptors
/// stay the caller's: an import takes its own references to the memory.
public struct DmabufAttributes {
    public struct Plane {
        public var fd: Int32
        public var offset: UInt32
        public var stride: UInt32
        public init(fd: Int32, offset: UInt32, stride: UInt32) {
            self.fd = fd
            self.offset = offset
            self.stride = stride
        }
    }

    public var width: Int32
    public var height: Int32
    /// A DRM fourcc.
    public var format: UInt32
    public var modifier: UInt64
    public var planes: [Plane]

    public init(width: Int32, height: Int32, format: UInt32, modifier: UInt64, planes: [Plane]) {
        (self.width, self.height, self.format, self.modifier, self.planes) = (width, height, format, modifier, planes)
    }

    /// No alpha channel: the buffer covers what lies below it. The RGB formats wl_shm also
    /// has say so themselves; YUV and the rest are opaque.
    public var isOpaque: Bool {
        PixelFormat(fourcc: format)?.isOpaque ?? true
    }
}

/// A client's dmabuf with descriptors of Tactile's own, duplicated at import and closed with
/// the image: what a backend imports into its card to scan the buffer out.
public final class DmabufFiles {
    public let attributes: DmabufAttributes

    /// Nil when a descriptor cannot be duplicated (out of descriptors).
    init?(duplicating attributes: DmabufAttributes) {
        var own = attributes
        for index in own.planes.indices {
            own.planes[index].fd = fcntl(attributes.planes[index].fd, F_DUPFD_CLOEXEC, 0)
        }
        guard own.planes.allSatisfy({ $0.fd >= 0 }) else {
            for plane in own.planes where plane.fd >= 0 { close(plane.fd) }
            return nil
        }
        self.attributes = own
    }

    deinit { for plane in attributes.planes { close(plane.fd) } }
}

/// A format and modifier a renderer imports.
public struct DmabufFormat: Hashable, Sendable {
    public let format: UInt32
    public let modifier: UInt64
    public init(format: UInt32, modifier: UInt64) {
        self.format = format
        self.modifier = modifier
    }

    /// DRM_FORMAT_MOD_INVALID: the driver's own layout, implied by the buffer.
    public static let implicitModifier: UInt64 = 0x00ff_ffff_ffff_ffff
    /// DRM_FORMAT_MOD_LINEAR.
    public static let linear: UInt64 = 0
}

/// What a renderer that samples clients' GPU buffers offers them: the formats and modifiers
/// it imports, and the device (dev_t) whose memory it reads, which clients allocate on.
public struct DmabufSupport: Sendable {
    public let formats: [DmabufFormat]
    public let device: UInt64
}
