import CEGL
import CPixman
import Responder

/// Each image's texture, uploaded from the image's memory (a client's wl_shm pool, inside
/// its SIGBUS guard) when its pixels changed, and deleted once the image is gone.
///
/// wl_shm's two formats, their byte-swapped twins and the 10-bit layouts are uploaded as they
/// lie; the other formats wl_shm advertises are converted to ARGB8888 by pixman on the way
/// (GLES samples none of them as they are).
final class GLESTextures {
    /// A texture and what it holds: a picture of a surface's history (its version), or of an
    /// image of Tactile's own (its generation).
    private final class Entry {
        weak var owner: AnyObject?
        let id: GLuint
        var version = 0
        var size = Size(width: 0, height: 0)
        var format: UInt32 = 0
        init(owner: AnyObject, id: GLuint) {
            self.owner = owner
            self.id = id
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Binds clients' dmabufs to textures.
    private let importer: GLESDmabufImporter?
    /// Bytes uploaded, for the benchmarks and tests: what damage-only uploads save.
    private(set) var uploadedBytes = 0

    init(importer: GLESDmabufImporter?) {
        self.importer = importer
    }

    /// `image`'s texture with its current pixels; nil when they cannot be read (a client's
    /// pool gone bad, a picture lost). A surface's picture updates its history's texture
    /// where the commits since damaged it; anything else is uploaded whole when it changed.
    func texture(for image: Image) -> GLuint? {
        guard !image.isLost else { return nil }
        if let imported = image.external { return texture(for: image, importedAs: imported) }
        let owner: AnyObject = image.history ?? image
        let version = image.history == nil ? image.generation : image.historyVersion
        let key = ObjectIdentifier(owner)
        let entry: Entry
        if let existing = entries[key], existing.owner === owner {
            guard existing.version != version else { return existing.id }
            entry = existing
        } else {
            if let stale = entries.removeValue(forKey: key) { delete(stale.id) }
            entry = Entry(owner: owner, id: makeTexture())
            entries[key] = entry
        }
        // Only forward, at the same size and layout, with every commit's damage known.
        let sameStorage = entry.size == image.size && entry.format == image.format.shm
        let rects = sameStorage && entry.version < version ? image.history?.damage(since: entry.version) : nil
        guard upload(image, into: entry.id, rects: rects) else {
            entries[key] = nil
            delete(entry.id)
            return nil
        }
        (entry.version, entry.size, entry.format) = (version, image.size, image.format.shm)
        return entry.id
    }

    /// A client's dmabuf: a texture bound to its EGL image once, which samples the buffer
    /// where it lies, its latest pixels included, with nothing uploaded.
    private func texture(for image: Image, importedAs imported: AnyObject) -> GLuint? {
        guard let imported = imported as? GLESDmabufImage, let importer else { return nil }
        let key = ObjectIdentifier(image)
        if let entry = entries[key], entry.owner === image { return entry.id }
        if let stale = entries.removeValue(forKey: key) { delete(stale.id) }
        let id = makeTexture()
        _ = glGetError()
        importer.bindTexture(to: imported.image)
        guard glGetError() == GLenum(GL_NO_ERROR) else {
            delete(id)
            return nil
        }
        entries[key] = Entry(owner: image, id: id)
        return id
    }

    /// Deletes the textures of images and histories nobody holds any more.
    func sweep() {
        for (key, entry) in entries where entry.owner == nil {
            delete(entry.id)
            entries[key] = nil
        }
    }

    func removeAll() {
        for entry in entries.values { delete(entry.id) }
        entries = [:]
    }

    /// A new texture, bound, whose edges repeat outward (pixman's PAD) when sampled past them.
    private func makeTexture() -> GLuint {
        var id: GLuint = 0
        glGenTextures(1, &id)
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        return id
    }

    private func delete(_ id: GLuint) {
        var id = id
        glDeleteTextures(1, &id)
    }

    /// `rects` of the image (all of it, (re)allocating the texture at its size, when nil)
    /// into texture `id`.
    private func upload(_ image: Image, into id: GLuint, rects: [Rect]?) -> Bool {
        image.reading { () -> Bool in
            glBindTexture(GLenum(GL_TEXTURE_2D), id)
            let whole = Rect(size: image.size)
            let pieces = (rects ?? [whole]).map { $0.intersection(whole) }.filter { !$0.isEmpty }
            if let layout = Self.direct(image.format), image.stride % 4 == 0 {
                glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(image.stride / 4))
                if rects == nil {
                    glTexImage2D(GLenum(GL_TEXTURE_2D), 0, layout.storage, GLsizei(whole.width), GLsizei(whole.height), 0, layout.format, layout.type,
                                 image.pixels)
                    // DRM's 10-bit RGB keeps red where GL's packed type keeps blue.
                    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_R), layout.redAndBlueSwapped ? GL_BLUE : GL_RED)
                    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_B), layout.redAndBlueSwapped ? GL_RED : GL_BLUE)
                } else {
                    for r in pieces {
                        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), GLint(r.x))
                        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), GLint(r.y))
                        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height), layout.format, layout.type,
                                        image.pixels)
                    }
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
                }
                glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
                uploadedBytes += pieces.reduce(0) { $0 + $1.width * $1.height * 4 }
                return true
            }
            // Through ARGB8888 copies pixman makes (alpha 1 where the format has none).
            let bgra = GLenum(GL_BGRA_EXT), byte = GLenum(GL_UNSIGNED_BYTE)
            if rects == nil {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(bgra), GLsizei(whole.width), GLsizei(whole.height), 0, bgra, byte, nil)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_R), GL_RED)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_B), GL_BLUE)
            }
            for r in pieces {
                guard let converted = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(r.width), Int32(r.height), nil, 0) else { return false }
                defer { pixman_image_unref(converted) }
                pixman_image_composite32(PIXMAN_OP_SRC, image.pixman, nil, converted, Int32(r.x), Int32(r.y), 0, 0, 0, 0, Int32(r.width), Int32(r.height))
                glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), pixman_image_get_stride(converted) / 4)
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height), bgra, byte,
                                pixman_image_get_data(converted))
                uploadedBytes += r.width * r.height * 4
            }
            glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
            return true
        } ?? false
    }

    /// How the GPU samples a format as it lies in memory.
    struct Layout {
        let storage: GLint
        let format: GLenum
        let type: GLenum
        var redAndBlueSwapped = false
    }

    /// The GL layout of a format the GPU samples as it lies in memory: bytes B, G, R, A
    /// (ARGB8888, XRGB8888: little-endian words) or R, G, B, A (ABGR8888, XBGR8888), and the
    /// 10-bit layouts as GL's packed 2-10-10-10 words.
    static func direct(_ format: PixelFormat) -> Layout? {
        let bgra = GLenum(GL_BGRA_EXT), byte = GLenum(GL_UNSIGNED_BYTE), packed = GLenum(GL_UNSIGNED_INT_2_10_10_10_REV)
        switch format.shm {
        case PixelFormat.argb8888.shm, PixelFormat.xrgb8888.shm: return Layout(storage: GLint(bgra), format: bgra, type: byte)
        case PixelFormat.fourcc("AB24"), PixelFormat.fourcc("XB24"): return Layout(storage: GL_RGBA, format: GLenum(GL_RGBA), type: byte)
        case PixelFormat.fourcc("AB30"), PixelFormat.fourcc("XB30"): return Layout(storage: GL_RGB10_A2, format: GLenum(GL_RGBA), type: packed)
        case PixelFormat.fourcc("AR30"), PixelFormat.fourcc("XR30"):
            return Layout(storage: GL_RGB10_A2, format: GLenum(GL_RGBA), type: packed, redAndBlueSwapped: true)
        default: return nil
        }
    }

    /// Formats with more than 8 bits a channel, sampled at their depth.
    static func isWide(_ format: PixelFormat) -> Bool { direct(format)?.storage == GL_RGB10_A2 }
}
