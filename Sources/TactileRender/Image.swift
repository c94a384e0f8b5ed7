import CPixman
import Responder
import Synchronization

/// Memory an image reads without owning it: a client's wl_shm buffer, readable only between
/// a begin and an end (the SIGBUS guard, which a truncated file needs) and free to move
/// between reads (a pool whose later buffers reach further is mapped anew).
public protocol PixelLender: AnyObject {
    /// Makes the memory readable and says where it lies now; nil when it cannot be read.
    func beginReading() -> UnsafeMutableRawPointer?
    func endReading()
    /// `image`, which borrowed the memory, is gone: a lender that points back at it without
    /// a weak reference (one allocates, at every commit) forgets it.
    func imageGone(_ image: Image)
}

extension PixelLender {
    public func imageGone(_ image: Image) {}
}

/// Pixels composition reads: Tactile's own (an output's frame, a cursor, a mark), or a
/// client's buffer, borrowed from its first commit until the client's next buffer replaces
/// it, and read there at each repaint, as weston and wlroots do.
public final class Image {
    private(set) var pixman: OpaquePointer
    public let size: Size
    /// No alpha: an XRGB image, which covers what lies below it.
    public let isOpaque: Bool
    /// Changes whenever the pixels may have: a copy made from the image (a turned one) is
    /// stale once it differs. Unique across images, so a new image at a freed one's address
    /// is never mistaken for it.
    public private(set) var generation = Image.nextGeneration()
    /// The surface history this image is a picture of, and which of its versions: a
    /// renderer's copy of an earlier version catches up with the damage between.
    public private(set) weak var history: PixelHistory?
    public private(set) var historyVersion = 0
    /// Where a borrowed image's pixels live; nil once they are Tactile's own.
    private var lender: (any PixelLender)?
    /// Pixels only the renderer that made this reads (a client's dmabuf, imported by the
    /// GPU); the CPU sees none, and pixman draws nothing of it.
    public let external: AnyObject?
    /// For a client's dmabuf, its planes, which a backend may scan out instead of composing.
    public let dmabuf: DmabufFiles?
    /// How `pixels` are laid out (Tactile's own images are ARGB8888 or XRGB8888).
    public private(set) var format: PixelFormat

    private static let generations = Atomic<Int>(0)
    private static func nextGeneration() -> Int { generations.add(1, ordering: .relaxed).newValue }

    /// The largest side accepted; beyond it a buffer is refused rather than allocated.
    public static let maximumSide = 16384

    /// A cleared image; nil when the size is empty, too large, or memory runs out.
    public init?(size: Size, opaque: Bool) {
        guard size.width > 0, size.height > 0, size.width <= Self.maximumSide, size.height <= Self.maximumSide,
              let image = pixman_image_create_bits(opaque ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8, Int32(size.width), Int32(size.height), nil, 0)
        else { return nil }
        pixman = image
        self.size = size
        isOpaque = opaque
        format = opaque ? .xrgb8888 : .argb8888
        external = nil
        dmabuf = nil
    }

    /// Pixels a renderer holds (`external`), for its own drawing.
    public init(external: AnyObject, size: Size, opaque: Bool, dmabuf: DmabufFiles? = nil) {
        var nothing = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)
        pixman = pixman_image_create_solid_fill(&nothing)
        self.size = size
        isOpaque = opaque
        format = opaque ? .xrgb8888 : .argb8888
        self.external = external
        self.dmabuf = dmabuf
    }

    /// A client's pixels, read in place: `memory` is where they lie now, which `lender`
    /// confirms or corrects before every read. Nil for sizes `init(size:opaque:)` refuses, and
    /// for a stride pixman cannot read (`isReadable`).
    public init?(borrowing memory: UnsafeMutableRawPointer, from lender: any PixelLender, size: Size, format: PixelFormat, stride: Int) {
        guard size.width > 0, size.height > 0, size.width <= Self.maximumSide, size.height <= Self.maximumSide, Self.isReadable(stride: stride),
              let image = pixman_image_create_bits_no_clear(format.pixman, Int32(size.width), Int32(size.height),
                                                            memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return nil }
        pixman = image
        self.size = size
        isOpaque = format.isOpaque
        self.format = format
        self.lender = lender
        external = nil
        dmabuf = nil
    }

    /// pixman reads rows of whole 32-bit words, where wl_shm allows any stride of at least a
    /// row (an odd width of a 16- or 24-bit format); asked before pixman, which would print
    /// a `*** BUG ***` line.
    public static func isReadable(stride: Int) -> Bool { stride % 4 == 0 }

    deinit {
        pixman_image_unref(pixman)
        lender?.imageGone(self)
    }

    public var bounds: Rect { Rect(size: size) }
    public var stride: Int { Int(pixman_image_get_stride(pixman)) }
    public var pixels: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pixman_image_get_data(pixman)!) }

    /// Whether the pixels are a client's, readable only inside `reading`.
    public var isBorrowed: Bool { lender != nil }

    /// The client changed the pixels (a commit of the same buffer): copies made from them
    /// are stale.
    public func changed() { generation = Self.nextGeneration() }

    /// Called by `PixelHistory.record`.
    func joined(_ history: PixelHistory, at version: Int) {
        self.history = history
        historyVersion = version
    }

    /// Runs `body` while the pixels can be read: at once for Tactile's own; for a client's,
    /// inside its lender's guard, with the image following memory that moved. Nil when the
    /// memory cannot be read. Two borrowed images' reads may nest: the guard keeps each open
    /// mapping until its own end.
    public func reading<R>(_ body: () -> R) -> R? {
        guard !isLost, external == nil else { return nil }
        guard let lender else { return body() }
        guard let memory = lender.beginReading() else { return nil }
        defer { lender.endReading() }
        if UnsafeMutableRawPointer(pixman_image_get_data(pixman)) != memory {
            guard let moved = pixman_image_create_bits_no_clear(format.pixman, Int32(size.width), Int32(size.height),
                                                               memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
            else { return nil }
            pixman_image_unref(pixman)
            pixman = moved
        }
        return body()
    }

    /// Makes the pixels Tactile's own, copied once: for a client buffer destroyed while it is
    /// still shown (the protocol keeps the picture), and for a cursor, drawn into every frame
    /// and every screenshot, which a small copy spares a guarded read each. Past `limit`
    /// bytes nothing is copied and the pixels are lost (`isLost`): a client cannot make
    /// Tactile hold memory its own file never paid for. Returns whether they are kept.
    @discardableResult
    public func keepCopy(upTo limit: Int = .max) -> Bool {
        guard lender != nil else { return !isLost }
        guard size.width * size.height * 4 <= limit,
              let own = pixman_image_create_bits(isOpaque ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8, Int32(size.width), Int32(size.height), nil, 0)
        else {
            lender = nil
            isLost = true
            return false
        }
        _ = reading {
            pixman_image_composite32(PIXMAN_OP_SRC, pixman, nil, own, 0, 0, 0, 0, 0, 0, Int32(size.width), Int32(size.height))
        }
        pixman_image_unref(pixman)
        pixman = own
        format = isOpaque ? .xrgb8888 : .argb8888
        lender = nil
        return true
    }

    /// A client's pixels that went without a copy: nothing reads or draws them.
    public private(set) var isLost = false

    /// Copies `rects` (clipped to this image) from client pixels of the same size, converting
    /// from `format`. The caller keeps the memory readable (its guard open).
    public func copy(from source: UnsafeMutableRawPointer, format: PixelFormat, stride: Int, rects: [Rect]) {
        guard let client = pixman_image_create_bits_no_clear(format.pixman, Int32(size.width), Int32(size.height),
                                                              source.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(client) }
        changed()
        for rect in rects {
            let r = rect.intersection(bounds)
            guard !r.isEmpty else { continue }
            pixman_image_composite32(PIXMAN_OP_SRC, client, nil, pixman, Int32(r.x), Int32(r.y), 0, 0, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
    }

    /// A new image of `size` whose pixel (x, y) is this image's pixel `map`(x, y), for a
    /// `map` that turns whole pixels (a quarter turn or flip and a shift) and stays inside
    /// this image: the picture turned once, to be copied plainly at every repaint after.
    public func turned(_ map: Affine, size: Size) -> Image? {
        guard let result = Image(size: size, opaque: isOpaque) else { return nil }
        return reading { () -> Image in
            turn(map, into: result)
            return result
        }
    }

    private func turn(_ map: Affine, into result: Image) {
        var transform = map.pixman
        pixman_image_set_transform(pixman, &transform)
        pixman_image_set_filter(pixman, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, pixman, nil, result.pixman, 0, 0, 0, 0, 0, 0, Int32(result.size.width), Int32(result.size.height))
        pixman_image_set_transform(pixman, nil)
    }

    /// Writes the whole picture into memory of `format` and this image's size (a capture of a
    /// cursor); false when its pixels cannot be read (a GPU buffer, or lost). The caller keeps
    /// the target writable (for a client's buffer, its guard open).
    public func write(into target: UnsafeMutableRawPointer, format: PixelFormat, stride: Int) -> Bool {
        guard let destination = pixman_image_create_bits_no_clear(format.pixman, Int32(size.width), Int32(size.height),
                                                                   target.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return false }
        defer { pixman_image_unref(destination) }
        return reading {
            pixman_image_composite32(PIXMAN_OP_SRC, pixman, nil, destination, 0, 0, 0, 0, 0, 0, Int32(size.width), Int32(size.height))
        } != nil
    }

    /// The colour at a pixel, as 0xAARRGGBB (alpha 0xff for an opaque image); for tests and
    /// diagnostics.
    public func pixel(at p: Position) -> UInt32 {
        guard !isLost, external == nil, p.x >= 0, p.y >= 0, p.x < size.width, p.y < size.height else { return 0 }
        let value = pixels.load(fromByteOffset: p.y * stride + p.x * 4, as: UInt32.self)
        return isOpaque ? value | 0xff00_0000 : value
    }
}
